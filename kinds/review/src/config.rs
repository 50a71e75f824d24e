//! A review loop's configuration: `004`'s run variables (goal, mode, constraints, approval
//! policy, protected test paths, iteration, token and time budgets, stop conditions, success
//! criteria, output contract), the approval mode, and who holds each role — every rule it must
//! meet before the run starts, all collected at once.
//!
//! Each of the seven roles is held by exactly one member, on its own provider and model; one
//! member may hold several roles, but never both the implementer's and the verifier's (thehood's
//! decision 0003, "separate implementation and verification"): refused at creation and by
//! [`ReviewConfig::problems`] after any edit of the members.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use roundtable_engine::engine::{ModelRef, Settings};

/// `004`'s `mode`: what the run is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunMode {
    /// Write a plan only.
    Plan,
    /// Change files.
    Implement,
    /// Review existing work.
    Review,
    /// Find things out.
    Research,
}

/// `004`'s `approval_policy`: what waits for the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ApprovalPolicy {
    /// Every implementation waits for approval before it is applied.
    pub edit_requires_approval: bool,
    /// A new dependency waits for approval.
    pub dependency_install_requires_approval: bool,
    /// Anything that would reach the network waits for approval.
    pub network_requires_approval: bool,
}

/// How much the run decides alone (thehood's approval modes, `DESIGN.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalMode {
    /// Every approval the policy names waits for the person.
    Manual,
    /// Acts alone while the run's risk is low; otherwise as `manual`.
    AutoLowRisk,
    /// Acts alone, but still waits for an explicit `request_approval` and for any change to a
    /// protected test path.
    Autopilot,
}

/// `004`'s orchestrator variable `risk_level`: how risky the person judges the work. Under
/// `auto_low_risk` the run approves alone only while this, and every risk a role reports, is
/// low.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiskLevel {
    /// Little can go wrong.
    #[default]
    Low,
    /// Mistakes would cost something.
    Medium,
    /// Mistakes would be serious.
    High,
}

impl RiskLevel {
    /// The level as `004` writes it.
    pub fn word(self) -> &'static str {
        match self {
            RiskLevel::Low => "low",
            RiskLevel::Medium => "medium",
            RiskLevel::High => "high",
        }
    }
}

/// A role of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Decides each next move; writes the closing reconciliation.
    Orchestrator,
    /// Writes and revises the plan.
    Planner,
    /// Gathers facts the plan needs.
    Researcher,
    /// Writes the files.
    Implementer,
    /// Tests the implementation (advisory).
    Qa,
    /// Judges the implementation against the acceptance criteria.
    Verifier,
    /// Looks for what the others missed.
    Critic,
}

impl Role {
    /// Every role, in `004`'s order.
    pub const ALL: [Role; 7] = [
        Role::Orchestrator,
        Role::Planner,
        Role::Researcher,
        Role::Implementer,
        Role::Qa,
        Role::Verifier,
        Role::Critic,
    ];

    /// The role's id in files and the standard member ids (`qa`, `verifier`, …).
    pub fn id(self) -> &'static str {
        match self {
            Role::Orchestrator => "orchestrator",
            Role::Planner => "planner",
            Role::Researcher => "researcher",
            Role::Implementer => "implementer",
            Role::Qa => "qa",
            Role::Verifier => "verifier",
            Role::Critic => "critic",
        }
    }

    /// The role in a person's words.
    pub fn words(self) -> &'static str {
        match self {
            Role::Orchestrator => "orchestrator",
            Role::Planner => "planner",
            Role::Researcher => "researcher",
            Role::Implementer => "implementer",
            Role::Qa => "QA tester",
            Role::Verifier => "verifier",
            Role::Critic => "critic",
        }
    }
}

/// A member of the loop: who, on which model, holding which roles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewMember {
    /// Id (lowercase letters, digits, `-`; `roundtable_engine::engine::member_id_ok`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// The roles it holds.
    pub roles: Vec<Role>,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// One acceptance test file the person hands the run: its path (a test file the sandbox runs,
/// `*.test.js`, `*.test.mjs` or `*.test.cjs`) and its whole text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptanceTest {
    /// Relative path.
    pub path: String,
    /// The whole file.
    pub content: String,
}

/// Whether `path` names a test file the sandbox runs.
pub fn is_test_file(path: &str) -> bool {
    [".test.js", ".test.mjs", ".test.cjs"]
        .iter()
        .any(|end| path.ends_with(end))
}

/// Everything a review loop starts from: `004`'s run variables, the approval mode and the
/// members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewConfig {
    /// `004`'s `run_id`: every directive names it and every answer acknowledges it. The app
    /// makes a fresh one per run; a fork keeps it (its calls' nonces differ by call id).
    #[serde(default = "default_run_id")]
    pub run_id: String,
    /// `user_goal`: what the person wants, verbatim.
    pub user_goal: String,
    /// What the run is for.
    pub mode: RunMode,
    /// Where the work stands when the run starts.
    #[serde(default)]
    pub current_state_summary: String,
    /// Rules every role keeps.
    #[serde(default)]
    pub constraints: Vec<String>,
    /// What waits for the person.
    pub approval_policy: ApprovalPolicy,
    /// How much the run decides alone.
    pub approval_mode: ApprovalMode,
    /// `004`'s `available_worker_types`: the roles this run has besides the orchestrator. A
    /// role left out is never summoned (a run without QA, or without a critic, is valid); the
    /// verifier is always needed, the implementer in an implement run.
    #[serde(default = "all_workers")]
    pub available_worker_types: Vec<Role>,
    /// `004`'s `risk_level`, set by the person.
    #[serde(default)]
    pub risk_level: RiskLevel,
    /// `004`'s `allowed_paths`: where the run may write at all (empty: anywhere).
    #[serde(default)]
    pub allowed_paths: Vec<String>,
    /// `004`'s `disallowed_paths`: where the run never writes.
    #[serde(default)]
    pub disallowed_paths: Vec<String>,
    /// Test files only the person may let a role change.
    #[serde(default)]
    pub protected_test_paths: Vec<String>,
    /// The person's (or the planner's) acceptance tests, whole (ours: `004`'s
    /// `protected_test_paths` name them, and here no repository holds them). They are the run's
    /// files from the start, protected as if under a protected test path, and the runtime runs
    /// them with every implementation.
    #[serde(default)]
    pub acceptance_tests: Vec<AcceptanceTest>,
    /// Orchestrator decisions before the run must reconcile.
    pub max_iterations: u32,
    /// Tokens the run may use; `None`: no budget.
    pub token_budget: Option<u64>,
    /// Seconds the run may take; `None`: no limit.
    pub time_budget_seconds: Option<u64>,
    /// When the run must stop, in words the orchestrator reads.
    #[serde(default)]
    pub stop_conditions: Vec<String>,
    /// What success means; the verifier and the reconciliation judge against these.
    pub success_criteria: Vec<String>,
    /// What the run must hand over at the end.
    #[serde(default)]
    pub output_contract: String,
    /// The most slots one fan-out may run (at most 8).
    pub fanout_max: u32,
    /// The members and their roles.
    pub members: Vec<ReviewMember>,
    /// The sandbox's wall-clock limit for one run of the implementer's JavaScript (the
    /// runtime's QA lane), in milliseconds.
    #[serde(default = "default_run_limit_ms")]
    pub run_limit_ms: u32,
    /// The engine's limits (its round limit is `max_iterations`: an orchestrator decision
    /// opens each round).
    #[serde(default)]
    pub settings: Settings,
}

/// Every worker role: `004`'s default `available_worker_types`.
pub fn all_workers() -> Vec<Role> {
    Role::ALL
        .into_iter()
        .filter(|r| *r != Role::Orchestrator)
        .collect()
}

fn default_run_id() -> String {
    "run-1".into()
}

fn default_run_limit_ms() -> u32 {
    ReviewConfig::RUN_LIMIT_MS
}

/// One reason a review loop's config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewConfigError {
    /// Nothing to work towards.
    #[error("the goal is empty: say what the run is to achieve")]
    EmptyGoal,
    /// The goal is too long for a prompt.
    #[error("the goal is longer than {0} characters")]
    LongGoal(usize),
    /// No way to judge the result.
    #[error("name at least one success criterion: the verifier judges against them")]
    NoCriteria,
    /// A list item with no text.
    #[error("{0} {1} is empty")]
    EmptyItem(&'static str, usize),
    /// An iteration limit outside its range.
    #[error("the call limit must be from 1 to {max} (it is {0}): every call counts, the runtime's own too", max = ReviewConfig::ITERATIONS_MAX)]
    Iterations(u32),
    /// A fan-out limit outside its range.
    #[error("a fan-out runs 1 to 8 slots at most (it is {0})")]
    FanoutMax(u32),
    /// A zero budget would stop the run before it starts.
    #[error("a {0} budget of 0 stops the run before it starts: leave it empty for none")]
    ZeroBudget(&'static str),
    /// A run id that does not fit a directive.
    #[error("the run id \"{0}\" must be 1 to 80 letters, digits, dashes or underscores")]
    BadRunId(String),
    /// A sandbox limit outside its range.
    #[error("a run of the code is limited to 100 to 60,000 ms (it is {0})")]
    RunLimit(u32),
    /// An id with characters that do not fit prompts and pointers.
    #[error("member id \"{0}\" must be lowercase letters, digits and dashes")]
    BadId(String),
    /// Two members share an id.
    #[error("two members have the id {0}")]
    DuplicateId(String),
    /// A member without a name.
    #[error("member {0} has no name")]
    NoName(String),
    /// A member without a provider or model.
    #[error("member {0} must name its provider and model")]
    NoModel(String),
    /// A member with no role.
    #[error("member {0} holds no role")]
    NoRole(String),
    /// A role nobody holds.
    #[error("nobody is the {}", .0.words())]
    Unheld(Role),
    /// A role two members hold.
    #[error("both {first} and {second} are the {role}", role = .0.words(), first = .1, second = .2)]
    HeldTwice(Role, String, String),
    /// The orchestrator listed as a worker.
    #[error("the orchestrator is always part of the run: the available worker types list the other roles")]
    OrchestratorIsNoWorker,
    /// A role the run cannot do without.
    #[error("the run needs the {}: {}", .0.words(), .1)]
    Required(Role, &'static str),
    /// A member holds a role the run does not have.
    #[error("{1} holds the {role} role, which this run does not have", role = .0.words())]
    Unavailable(Role, String),
    /// A path of the run's own bounds that is not a relative path.
    #[error("path \"{0}\" must be relative and stay inside the project (no \"..\" part)")]
    BadRunPath(String),
    /// The implementer would judge its own work.
    #[error("{0} cannot be both the implementer and the verifier: the verifier judges the implementer's work")]
    VerifiesOwnWork(String),
    /// An acceptance test the sandbox would not run.
    #[error("acceptance test \"{0}\" must be a relative path ending in .test.js, .test.mjs or .test.cjs (the sandbox runs those)")]
    BadAcceptanceTest(String),
    /// An acceptance test with no text.
    #[error("acceptance test \"{0}\" is empty")]
    EmptyAcceptanceTest(String),
    /// Two acceptance tests at one path.
    #[error("two acceptance tests are at {0}")]
    DuplicateAcceptanceTest(String),
    /// A protected path that is not a relative path.
    #[error(
        "protected test path \"{0}\" must be relative and stay inside the project (no \"..\" part)"
    )]
    BadProtectedPath(String),
}

/// Every reason a config was refused, in one error (validation collects them all).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct ReviewConfigErrors(pub Vec<ReviewConfigError>);

impl ReviewConfig {
    /// The longest goal.
    pub const GOAL_MAX: usize = 4_000;
    /// The most calls in a run (`max_iterations`: every call counts, the runtime's own too).
    pub const ITERATIONS_MAX: u32 = 200;
    /// The sandbox's default limit for one run, in milliseconds.
    pub const RUN_LIMIT_MS: u32 = 5_000;

    /// A run with thehood's defaults: implement mode, every role, risk low, manual approvals
    /// with no policy flag set, 40 calls, fan-outs of at most 3, and one member per role, each on `model`.
    pub fn standard(goal: &str, criteria: &[&str], model: ModelRef) -> ReviewConfig {
        let member = |role: Role, name: &str| ReviewMember {
            id: role.id().into(),
            name: name.into(),
            roles: vec![role],
            model: model.clone(),
        };
        ReviewConfig {
            run_id: default_run_id(),
            user_goal: goal.into(),
            mode: RunMode::Implement,
            current_state_summary: String::new(),
            constraints: Vec::new(),
            approval_policy: ApprovalPolicy::default(),
            approval_mode: ApprovalMode::Manual,
            available_worker_types: all_workers(),
            risk_level: RiskLevel::Low,
            allowed_paths: Vec::new(),
            disallowed_paths: Vec::new(),
            protected_test_paths: Vec::new(),
            acceptance_tests: Vec::new(),
            max_iterations: 40,
            token_budget: None,
            time_budget_seconds: None,
            stop_conditions: Vec::new(),
            success_criteria: criteria.iter().map(|c| c.to_string()).collect(),
            output_contract: String::new(),
            fanout_max: 3,
            members: vec![
                member(Role::Orchestrator, "Olga (orchestrator)"),
                member(Role::Planner, "Pim (planner)"),
                member(Role::Researcher, "Rae (researcher)"),
                member(Role::Implementer, "Ivo (implementer)"),
                member(Role::Qa, "Quinn (QA)"),
                member(Role::Verifier, "Vera (verifier)"),
                member(Role::Critic, "Cato (critic)"),
            ],
            run_limit_ms: Self::RUN_LIMIT_MS,
            settings: Settings::default(),
        }
    }

    /// Whether `path` is protected: under a protected test path, or one of the acceptance
    /// tests (which are the person's, protected whatever the paths say).
    pub fn protected(&self, path: &str) -> bool {
        self.protected_test_paths.iter().any(|d| under(path, d))
            || self.acceptance_tests.iter().any(|t| t.path == path)
    }

    /// Whether the run has `role` (the orchestrator always).
    pub fn available(&self, role: Role) -> bool {
        role == Role::Orchestrator || self.available_worker_types.contains(&role)
    }

    /// The member with this id.
    pub fn member(&self, id: &str) -> Option<&ReviewMember> {
        self.members.iter().find(|m| m.id == id)
    }

    /// The member holding `role`, if exactly one does.
    pub fn holder(&self, role: Role) -> Option<&ReviewMember> {
        let mut holders = self.members.iter().filter(|m| m.roles.contains(&role));
        let first = holders.next()?;
        holders.next().is_none().then_some(first)
    }

    /// Every rule the config breaks; empty when the run may start. Run again after any edit of
    /// the members, so no edit makes the implementer its own verifier.
    pub fn problems(&self) -> Vec<ReviewConfigError> {
        use ReviewConfigError as E;
        let mut errors = Vec::new();
        let goal = self.user_goal.trim();
        if goal.is_empty() {
            errors.push(E::EmptyGoal);
        } else if goal.chars().count() > Self::GOAL_MAX {
            errors.push(E::LongGoal(Self::GOAL_MAX));
        }
        if self.success_criteria.is_empty() {
            errors.push(E::NoCriteria);
        }
        for (what, list) in [
            ("success criterion", &self.success_criteria),
            ("constraint", &self.constraints),
            ("stop condition", &self.stop_conditions),
        ] {
            for (i, item) in list.iter().enumerate() {
                if item.trim().is_empty() {
                    errors.push(E::EmptyItem(what, i + 1));
                }
            }
        }
        let id_ok = (1..=80).contains(&self.run_id.len())
            && self
                .run_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !id_ok {
            errors.push(E::BadRunId(self.run_id.clone()));
        }
        if !(100..=60_000).contains(&self.run_limit_ms) {
            errors.push(E::RunLimit(self.run_limit_ms));
        }
        if !(1..=Self::ITERATIONS_MAX).contains(&self.max_iterations) {
            errors.push(E::Iterations(self.max_iterations));
        }
        if !(1..=8).contains(&self.fanout_max) {
            errors.push(E::FanoutMax(self.fanout_max));
        }
        if self.token_budget == Some(0) {
            errors.push(E::ZeroBudget("token"));
        }
        if self.time_budget_seconds == Some(0) {
            errors.push(E::ZeroBudget("time"));
        }
        for path in self.allowed_paths.iter().chain(&self.disallowed_paths) {
            let bad = path.trim().is_empty()
                || path.starts_with('/')
                || path.contains('\\')
                || path.split('/').any(|p| p == "..");
            if bad {
                errors.push(E::BadRunPath(path.clone()));
            }
        }
        if self.available_worker_types.contains(&Role::Orchestrator) {
            errors.push(E::OrchestratorIsNoWorker);
        }
        if !self.available(Role::Verifier) {
            errors.push(E::Required(
                Role::Verifier,
                "the run completes only with the verifier's approval",
            ));
        }
        if self.mode == RunMode::Implement && !self.available(Role::Implementer) {
            errors.push(E::Required(
                Role::Implementer,
                "an implement run changes files, and only the implementer writes them",
            ));
        }
        for path in &self.protected_test_paths {
            let bad = path.trim().is_empty()
                || path.starts_with('/')
                || path.contains('\\')
                || path.split('/').any(|p| p == "..");
            if bad {
                errors.push(E::BadProtectedPath(path.clone()));
            }
        }
        let mut paths: Vec<&str> = Vec::new();
        for t in &self.acceptance_tests {
            let p = t.path.as_str();
            let bad = p.starts_with('/')
                || p.contains('\\')
                || p.split('/').any(|s| s == ".." || s.is_empty())
                || !is_test_file(p);
            if bad {
                errors.push(E::BadAcceptanceTest(t.path.clone()));
            } else if t.content.trim().is_empty() {
                errors.push(E::EmptyAcceptanceTest(t.path.clone()));
            }
            if paths.contains(&p) {
                errors.push(E::DuplicateAcceptanceTest(t.path.clone()));
            }
            paths.push(p);
        }
        let mut seen: Vec<&str> = Vec::new();
        for m in &self.members {
            if !roundtable_engine::engine::member_id_ok(&m.id) {
                errors.push(E::BadId(m.id.clone()));
            }
            if seen.contains(&m.id.as_str()) {
                errors.push(E::DuplicateId(m.id.clone()));
            }
            seen.push(&m.id);
            if m.name.trim().is_empty() {
                errors.push(E::NoName(m.id.clone()));
            }
            if m.model.provider.trim().is_empty() || m.model.model.trim().is_empty() {
                errors.push(E::NoModel(m.id.clone()));
            }
            if m.roles.is_empty() {
                errors.push(E::NoRole(m.id.clone()));
            }
            if m.roles.contains(&Role::Implementer) && m.roles.contains(&Role::Verifier) {
                errors.push(E::VerifiesOwnWork(m.id.clone()));
            }
        }
        for role in Role::ALL {
            let holders: Vec<&str> = self
                .members
                .iter()
                .filter(|m| m.roles.contains(&role))
                .map(|m| m.id.as_str())
                .collect();
            if !self.available(role) {
                for h in holders {
                    errors.push(E::Unavailable(role, h.to_string()));
                }
                continue;
            }
            match holders.as_slice() {
                [] => errors.push(E::Unheld(role)),
                [_] => {}
                [a, b, ..] => errors.push(E::HeldTwice(role, a.to_string(), b.to_string())),
            }
        }
        errors
    }

    /// The config if it breaks no rule, else every rule it breaks.
    pub fn checked(self) -> Result<ReviewConfig, ReviewConfigErrors> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(self)
        } else {
            Err(ReviewConfigErrors(problems))
        }
    }
}

/// Whether `path` is `dir` or inside it.
pub(crate) fn under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    path == dir || path.starts_with(&format!("{dir}/"))
}
