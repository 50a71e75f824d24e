//! A team session's configuration: the team (chair, operatives, inspector, envoy), the request,
//! an optional charter written up front, and the limits — and the rules a team must meet.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use roundtable_engine::engine::{ModelRef, Settings};

/// What a member does in the team; decides which steps it takes part in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamRole {
    /// Bootstraps, plans, assigns, accepts; inspects and presents when nobody else does.
    Chair,
    /// Writes versions of assigned products and reviews the others'.
    Operative,
    /// Checks each round's versions against their definition of done.
    Inspector,
    /// Presents the result to the person.
    Envoy,
}

impl TeamRole {
    /// The wire word (`operative`).
    pub fn word(self) -> &'static str {
        match self {
            TeamRole::Chair => "chair",
            TeamRole::Operative => "operative",
            TeamRole::Inspector => "inspector",
            TeamRole::Envoy => "envoy",
        }
    }
}

/// One member of the team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// `chair`, `operative-1`, `operative-2`, …, `inspector`, `envoy`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role ("UX researcher").
    pub role: String,
    /// Its place in the protocol.
    pub team_role: TeamRole,
    /// The persona; Bootstrap and the chair's overrides may rewrite it.
    #[serde(default)]
    pub persona: String,
    /// Skills, shown in its system prompt.
    #[serde(default)]
    pub skills: Vec<String>,
    /// Characteristics, shown in its system prompt.
    #[serde(default)]
    pub characteristics: Vec<String>,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// The mission charter. All three parts are required before any step but Bootstrap runs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Charter {
    /// What the team is for.
    pub mission: String,
    /// What it must achieve.
    pub objectives: String,
    /// What it must respect.
    pub constraints: String,
}

impl Charter {
    /// True when mission, objectives and constraints are all non-empty.
    pub fn is_complete(&self) -> bool {
        !self.mission.trim().is_empty()
            && !self.objectives.trim().is_empty()
            && !self.constraints.trim().is_empty()
    }
}

/// Everything a session starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamConfig {
    /// Team name (also the name of the root product).
    pub team_name: String,
    /// What the team is for.
    #[serde(default)]
    pub team_description: String,
    /// The person's request, verbatim.
    pub request: String,
    /// The team.
    pub members: Vec<Member>,
    /// Limits.
    #[serde(default)]
    pub settings: Settings,
    /// A charter the person wrote up front (Bootstrap still runs and may refine it).
    #[serde(default)]
    pub charter: Option<Charter>,
}

impl TeamConfig {
    /// A config with the standard team: a chair, `operatives` operatives, optionally an inspector
    /// and an envoy, all on `model`. For demos, tests and the "new session" form's defaults.
    pub fn standard(
        request: &str,
        operatives: usize,
        inspector: bool,
        envoy: bool,
        model: ModelRef,
    ) -> TeamConfig {
        let mk = |id: String, name: String, role: &str, team_role| Member {
            id,
            name,
            role: role.to_string(),
            team_role,
            persona: String::new(),
            skills: Vec::new(),
            characteristics: Vec::new(),
            model: model.clone(),
        };
        let mut members = vec![mk(
            "chair".into(),
            "Chair".into(),
            "Team lead",
            TeamRole::Chair,
        )];
        for i in 1..=operatives {
            members.push(mk(
                format!("operative-{i}"),
                format!("Operative {i}"),
                "Specialist",
                TeamRole::Operative,
            ));
        }
        if inspector {
            members.push(mk(
                "inspector".into(),
                "Inspector".into(),
                "Quality reviewer",
                TeamRole::Inspector,
            ));
        }
        if envoy {
            members.push(mk(
                "envoy".into(),
                "Envoy".into(),
                "Presenter",
                TeamRole::Envoy,
            ));
        }
        TeamConfig {
            team_name: "Roundtable".into(),
            team_description: "A small team working on the person's request.".into(),
            request: request.to_string(),
            members,
            settings: Settings::default(),
            charter: None,
        }
    }

    /// Checks the team: exactly one chair with id `chair`, operatives `operative-N`, at most one
    /// `inspector` and one `envoy`, unique ids, a non-empty request. The team's rules come first,
    /// so a form learns what is wrong with the team even before the request is written. A team
    /// without operatives is valid (the chair writes everything itself); a person creating a
    /// session is held to [`TeamConfig::check_new`].
    pub fn check(&self) -> Result<(), ConfigError> {
        let count = |role: TeamRole| self.members.iter().filter(|m| m.team_role == role).count();
        match count(TeamRole::Chair) {
            0 => return Err(ConfigError::NoChair),
            1 => {}
            n => return Err(ConfigError::ManyChairs(n)),
        }
        for role in [TeamRole::Inspector, TeamRole::Envoy] {
            if count(role) > 1 {
                return Err(ConfigError::TooMany(role.word()));
            }
        }
        if self.request.trim().is_empty() {
            return Err(ConfigError::EmptyRequest);
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in &self.members {
            if !seen.insert(m.id.as_str()) {
                return Err(ConfigError::DuplicateMember(m.id.clone()));
            }
            let ok = match m.team_role {
                TeamRole::Chair => m.id == "chair",
                TeamRole::Inspector => m.id == "inspector",
                TeamRole::Envoy => m.id == "envoy",
                TeamRole::Operative => m.id.strip_prefix("operative-").is_some_and(|n| {
                    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0')
                }),
            };
            if !ok {
                return Err(ConfigError::BadMemberId {
                    id: m.id.clone(),
                    team_role: m.team_role.word(),
                });
            }
        }
        if !seen.contains("chair") {
            return Err(ConfigError::NoChair);
        }
        if self.settings.max_rounds == 0 {
            return Err(ConfigError::NoRounds);
        }
        Ok(())
    }

    /// What the new-session form accepts: [`TeamConfig::check`], and at least one operative.
    /// The engine plays a team without operatives (files and tests use it), but a person who
    /// builds a team by hand and removes every writer has almost always made a mistake: the form
    /// says so instead of starting a session where the chair writes everything alone.
    pub fn check_new(&self) -> Result<(), ConfigError> {
        if !self
            .members
            .iter()
            .any(|m| m.team_role == TeamRole::Operative)
        {
            return Err(ConfigError::NoOperative);
        }
        self.check()
    }
}

/// Why a session config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ConfigError {
    /// Nothing to work on.
    #[error("the request cannot be empty: say what the team should do")]
    EmptyRequest,
    /// Two members share an id.
    #[error("two members have the id {0}")]
    DuplicateMember(String),
    /// An id that does not match the member's team role.
    #[error("member id {id} does not fit its team role {team_role} (use chair, operative-1…, inspector, envoy)")]
    BadMemberId {
        /// The id.
        id: String,
        /// The role.
        team_role: &'static str,
    },
    /// Every team needs its chair.
    #[error("the team has no chair")]
    NoChair,
    /// A round limit of 0 leaves nothing to do.
    #[error("the round limit must be at least 1")]
    NoRounds,
    /// Two chairs or more.
    #[error("a team has exactly one chair; this one has {0}")]
    ManyChairs(usize),
    /// Nobody writes the products (refused for a new session only: see `check_new`).
    #[error("add at least one operative: they write the products")]
    NoOperative,
    /// Two inspectors, or two envoys.
    #[error("a team has at most one {0}")]
    TooMany(&'static str),
}
