//! New review loop (spec `004`'s run variables): the goal and its success criteria (or the
//! demo's, one click away), the mode, the approval mode and the approval policy's three flags,
//! the protected test paths and the person's acceptance test file, the iteration limit, the fan-out limit, the time and token budgets,
//! and one provider and model for the seven standard members. The rules are core's: the form
//! builds a [`ReviewConfig`] and shows every problem [`ReviewConfig::problems`] reports, all at once;
//! nothing is created while one remains.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::review::config::{
    AcceptanceTest, ApprovalMode, ReviewConfigError, RiskLevel, Role, RunMode,
};
use roundtable_core::protocol::review::demo::{DEMO_CRITERIA, DEMO_GOAL};
use roundtable_core::protocol::review::{ReviewConfig, ReviewState};

use crate::pages::form::{sentence, ChoiceSelect, ProviderModelFields};
use crate::providers::ProviderId;

/// The modes in the form's order, each with its value and words.
const MODES: [(RunMode, &str, &str); 4] = [
    (RunMode::Implement, "implement", "Implement: change files"),
    (RunMode::Plan, "plan", "Plan: write a plan only"),
    (RunMode::Review, "review", "Review: judge existing work"),
    (RunMode::Research, "research", "Research: find things out"),
];

/// The approval modes (thehood's), each with its value, title and what it means.
const APPROVAL_MODES: [(ApprovalMode, &str, &str, &str); 3] = [
    (
        ApprovalMode::Manual,
        "manual",
        "Manual",
        "Every approval the policy names waits for you.",
    ),
    (
        ApprovalMode::AutoLowRisk,
        "auto_low_risk",
        "Auto, low risk",
        "The run goes on alone while its risk is low; otherwise as manual.",
    ),
    (
        ApprovalMode::Autopilot,
        "autopilot",
        "Autopilot",
        "The run goes on alone, but still waits for an explicit request for approval and for any change to a protected test path.",
    ),
];

/// The roles a person may leave out of a run (`004`'s `available_worker_types`), with their
/// words; the implementer and the verifier are always there.
const OPTIONAL_ROLES: [(Role, &str); 4] = [
    (Role::Planner, "Planner"),
    (Role::Researcher, "Researcher"),
    (Role::Qa, "QA tester"),
    (Role::Critic, "Critic"),
];

/// `004`'s risk levels, with their words.
const RISK_LEVELS: [(RiskLevel, &str, &str); 3] = [
    (RiskLevel::Low, "low", "Low"),
    (RiskLevel::Medium, "medium", "Medium"),
    (RiskLevel::High, "high", "High"),
];

/// The non-empty lines of a text box, trimmed: a list the person typed one per line.
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// An optional whole number: empty is none; otherwise the number, or what is wrong in words.
fn optional(text: &str, what: &str) -> Result<Option<u64>, String> {
    let t = text.trim().replace([',', '_', ' '], "");
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| format!("{what} must be a whole number, or empty for none."))
}

/// The field a problem core found is about (`None`: the members, below the form).
fn field_of(e: &ReviewConfigError) -> Option<&'static str> {
    use ReviewConfigError as E;
    Some(match e {
        E::EmptyGoal | E::LongGoal(_) => "goal",
        E::NoCriteria => "criteria",
        E::EmptyItem(what, _) if *what == "success criterion" => "criteria",
        E::Iterations(_) => "max-iterations",
        E::FanoutMax(_) => "fanout-max",
        E::ZeroBudget(what) if *what == "time" => "time-budget",
        E::ZeroBudget(_) => "token-budget",
        E::BadProtectedPath(_) => "protected-paths",
        E::BadRunPath(_) => "run-paths",
        E::BadAcceptanceTest(_) | E::EmptyAcceptanceTest(_) | E::DuplicateAcceptanceTest(_) => {
            "acceptance-test"
        }
        _ => return None,
    })
}

/// The new-review-loop form.
#[component]
pub fn NewReviewForm() -> impl IntoView {
    let demo_model = ModelRef {
        provider: ProviderId::Demo.as_str().into(),
        model: ProviderId::Demo.default_model().into(),
    };
    let defaults = ReviewConfig::standard("", &[], demo_model);
    let goal = RwSignal::new(String::new());
    let criteria = RwSignal::new(String::new());
    let mode = RwSignal::new(defaults.mode);
    let approval = RwSignal::new(defaults.approval_mode);
    let edit = RwSignal::new(defaults.approval_policy.edit_requires_approval);
    let dependency = RwSignal::new(
        defaults
            .approval_policy
            .dependency_install_requires_approval,
    );
    let network = RwSignal::new(defaults.approval_policy.network_requires_approval);
    let protected = RwSignal::new(String::new());
    let roles = RwSignal::new(defaults.available_worker_types.clone());
    let risk = RwSignal::new(defaults.risk_level);
    let allowed = RwSignal::new(String::new());
    let disallowed = RwSignal::new(String::new());
    let acceptance_path = RwSignal::new(String::new());
    let acceptance_text = RwSignal::new(String::new());
    let iterations = RwSignal::new(defaults.max_iterations.to_string());
    let fanout = RwSignal::new(defaults.fanout_max.to_string());
    let time = RwSignal::new(String::new());
    let tokens = RwSignal::new(String::new());
    let provider = RwSignal::new(ProviderId::Demo);
    let model = RwSignal::new(ProviderId::Demo.default_model().to_string());
    // Each member's own provider and model, when the person gives the roles models of their
    // own (filled from the shared pick when turned on).
    let own = RwSignal::new(false);
    let members: Vec<(&'static str, String, RwSignal<ProviderId>, RwSignal<String>)> = defaults
        .members
        .iter()
        .map(|m| {
            (
                m.roles.first().map_or("member", |r| r.id()),
                m.name.clone(),
                RwSignal::new(ProviderId::Demo),
                RwSignal::new(ProviderId::Demo.default_model().to_string()),
            )
        })
        .collect();
    let members = StoredValue::new(members);
    // Each problem with the field it is about (`None`: the members).
    let errors = RwSignal::new(Vec::<(Option<&'static str>, String)>::new());
    let invalid = move |field: &'static str| {
        move || {
            errors
                .with(|all| all.iter().any(|(f, _)| *f == Some(field)))
                .to_string()
        }
    };
    let busy = RwSignal::new(false);

    // Every problem at once: the form's own (a number that is not one) and core's.
    let build = move || -> Result<ReviewConfig, Vec<(Option<&'static str>, String)>> {
        let mut problems = Vec::new();
        let model = ModelRef {
            provider: provider.get_untracked().as_str().into(),
            model: model.get_untracked().trim().into(),
        };
        let mut config = ReviewConfig::standard("", &[], model);
        if own.get_untracked() {
            members.with_value(|all| {
                for (m, (_, _, p, name)) in config.members.iter_mut().zip(all) {
                    m.model = ModelRef {
                        provider: p.get_untracked().as_str().into(),
                        model: name.get_untracked().trim().into(),
                    };
                }
            });
        }
        config.run_id = crate::util::new_id();
        config.user_goal = goal.get_untracked().trim().to_string();
        config.success_criteria = lines(&criteria.get_untracked());
        config.mode = mode.get_untracked();
        config.approval_mode = approval.get_untracked();
        config.approval_policy.edit_requires_approval = edit.get_untracked();
        config.approval_policy.dependency_install_requires_approval = dependency.get_untracked();
        config.approval_policy.network_requires_approval = network.get_untracked();
        config.protected_test_paths = lines(&protected.get_untracked());
        config.available_worker_types = roles.get_untracked();
        // A role the run does not have has no member.
        let available = config.available_worker_types.clone();
        config.members.retain(|m| {
            m.roles
                .iter()
                .all(|r| *r == Role::Orchestrator || available.contains(r))
        });
        config.risk_level = risk.get_untracked();
        config.allowed_paths = lines(&allowed.get_untracked());
        config.disallowed_paths = lines(&disallowed.get_untracked());
        let (path, text) = (
            acceptance_path.get_untracked(),
            acceptance_text.get_untracked(),
        );
        if !path.trim().is_empty() || !text.trim().is_empty() {
            config.acceptance_tests = vec![AcceptanceTest {
                path: path.trim().to_string(),
                content: text,
            }];
        }
        match iterations.get_untracked().trim().parse() {
            Ok(n) => config.max_iterations = n,
            Err(_) => problems.push((
                Some("max-iterations"),
                "The call limit needs a whole number.".to_string(),
            )),
        }
        match fanout.get_untracked().trim().parse() {
            Ok(n) => config.fanout_max = n,
            Err(_) => problems.push((
                Some("fanout-max"),
                "The fan-out limit needs a whole number.".to_string(),
            )),
        }
        match optional(&time.get_untracked(), "The time budget (seconds)") {
            Ok(t) => config.time_budget_seconds = t,
            Err(e) => problems.push((Some("time-budget"), e)),
        }
        match optional(&tokens.get_untracked(), "The token budget") {
            Ok(t) => config.token_budget = t,
            Err(e) => problems.push((Some("token-budget"), e)),
        }
        problems.extend(
            config
                .problems()
                .iter()
                .map(|e| (field_of(e), sentence(&e.to_string()))),
        );
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(problems)
        }
    };

    let create = move || {
        if busy.get_untracked() {
            return;
        }
        match build() {
            Err(e) => {
                errors.set(e);
                crate::util::focus_after_render("[data-error=review]");
            }
            Ok(config) => {
                errors.set(Vec::new());
                crate::sessions::create_and_open::<ReviewState>(config, busy);
            }
        }
    };
    let use_demo = move |_| {
        goal.set(DEMO_GOAL.to_string());
        criteria.set(DEMO_CRITERIA.join("\n"));
    };

    view! {
        <form class="stack" data-form="review" on:submit=move |ev| { ev.prevent_default(); create(); } novalidate>
            <div class="card">
                <label class="field">
                    <span>"What should the run achieve?"</span>
                    <textarea name="goal" rows="3" aria-invalid=invalid("goal")
                        placeholder="e.g. Write parse(text) for .env-style config files: key=value lines into an object."
                        aria-describedby="review-error"
                        prop:value=move || goal.get()
                        on:input=move |ev| goal.set(event_target_value(&ev))></textarea>
                </label>
                <label class="field">
                    <span>"Success criteria, one per line"</span>
                    <textarea name="criteria" rows="4" aria-invalid=invalid("criteria")
                        placeholder="e.g. Blank lines and lines starting with # are skipped."
                        aria-describedby="review-error criteria-hint"
                        prop:value=move || criteria.get()
                        on:input=move |ev| criteria.set(event_target_value(&ev))></textarea>
                    <small class="muted" id="criteria-hint">"The verifier and the closing reconciliation judge the run against these."</small>
                </label>
                <div class="row">
                    <button type="button" class="ghost" name="use-demo-goal" on:click=use_demo>"Use the demo's goal and criteria"</button>
                </div>
                <p class="muted small">"An orchestrator decides each move; a planner, researchers, an implementer, QA, a verifier and a critic answer in turn. The runtime runs the implementer's JavaScript tests in a sandbox, summons the critic when a check fails, and completes the run only when its gates are met."</p>
            </div>
            <div class="card">
                <ChoiceSelect label="Mode" name="mode" choices=&MODES value=mode/>
                <fieldset class="choices" data-field="approval-mode">
                    <legend>"Approvals"</legend>
                    {APPROVAL_MODES.iter().map(|(m, value, title, line)| {
                        let m = *m;
                        view! {
                            <label class="choice">
                                <input type="radio" name="approval-mode" value=*value
                                    prop:checked=move || approval.get() == m
                                    on:change=move |_| approval.set(m)/>
                                <span><strong>{*title}</strong>" "<span class="muted small">{*line}</span></span>
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                <ChoiceSelect label="Risk level" name="risk-level" choices=&RISK_LEVELS value=risk hint="risk-hint">
                    <small class="muted" id="risk-hint">"How risky you judge the work. \"Auto, low risk\" goes on alone only while this and every risk a role reports are low."</small>
                </ChoiceSelect>
                <fieldset class="choices" data-field="approval-policy">
                    <legend>"What waits for your approval"</legend>
                    <label class="choice">
                        <input type="checkbox" name="edit-requires-approval" prop:checked=move || edit.get()
                            on:change=move |ev| edit.set(event_target_checked(&ev))/>
                        <span>"Every edit of the files"</span>
                    </label>
                    <label class="choice">
                        <input type="checkbox" name="dependency-requires-approval" prop:checked=move || dependency.get()
                            on:change=move |ev| dependency.set(event_target_checked(&ev))/>
                        <span>"Installing a dependency"</span>
                    </label>
                    <label class="choice">
                        <input type="checkbox" name="network-requires-approval" prop:checked=move || network.get()
                            on:change=move |ev| network.set(event_target_checked(&ev))/>
                        <span>"Anything that would reach the network"</span>
                    </label>
                </fieldset>
            </div>
            <div class="field-error" role="alert" data-error="review" id="review-error" tabindex="-1">
                {move || {
                    let all = errors.get();
                    (!all.is_empty()).then(|| view! {
                        <ul class="problems">{all.into_iter().map(|(field, e)| view! { <li data-problem=field.unwrap_or("members")>{e}</li> }).collect_view()}</ul>
                    })
                }}
            </div>
            <div class="row end form-actions">
                <button type="submit" name="create-review" disabled=move || busy.get()>"Create review loop"</button>
                <a class="button ghost" href="#/">"Cancel"</a>
            </div>
            <h2 class="form-more">"Limits, protected tests and models "<span class="muted small">"(optional: the defaults run on the demo model)"</span></h2>
            <div class="card">
                <div class="limits">
                    <label class="field">
                        <span>"Calls at most"</span>
                        <input type="number" name="max-iterations" min="1" aria-invalid=invalid("max-iterations") aria-describedby="review-error" max=ReviewConfig::ITERATIONS_MAX.to_string() inputmode="numeric"
                            prop:value=move || iterations.get() on:input=move |ev| iterations.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Fan-out at most"</span>
                        <input type="number" name="fanout-max" min="1" max="8" aria-invalid=invalid("fanout-max") aria-describedby="review-error" inputmode="numeric"
                            prop:value=move || fanout.get() on:input=move |ev| fanout.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Time budget (s)"</span>
                        <input type="number" name="time-budget" min="1" aria-invalid=invalid("time-budget") aria-describedby="review-error" inputmode="numeric" placeholder="none"
                            prop:value=move || time.get() on:input=move |ev| time.set(event_target_value(&ev))/>
                    </label>
                    <label class="field">
                        <span>"Token budget"</span>
                        <input type="number" name="token-budget" min="1" aria-invalid=invalid("token-budget") aria-describedby="review-error" inputmode="numeric" placeholder="none"
                            prop:value=move || tokens.get() on:input=move |ev| tokens.set(event_target_value(&ev))/>
                    </label>
                </div>
                <fieldset class="choices" data-field="roles">
                    <legend>"Roles in this run"</legend>
                    <small class="muted">"The orchestrator, the implementer and the verifier are always there. A role left out is never called."</small>
                    {OPTIONAL_ROLES.iter().map(|(role, words)| {
                        let role = *role;
                        view! {
                            <label class="choice">
                                <input type="checkbox" name=format!("role-{}", role.id())
                                    prop:checked=move || roles.with(|r| r.contains(&role))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        roles.update(|r| {
                                            r.retain(|x| *x != role);
                                            if on { r.push(role); }
                                            r.sort();
                                        });
                                    }/>
                                <span>{*words}</span>
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                <div class="limits">
                    <label class="field">
                        <span>"Write only under, one per line"</span>
                        <textarea name="allowed-paths" rows="2" spellcheck="false" class="mono" placeholder="anywhere"
                            aria-invalid=invalid("run-paths") aria-describedby="review-error"
                            prop:value=move || allowed.get()
                            on:input=move |ev| allowed.set(event_target_value(&ev))></textarea>
                    </label>
                    <label class="field">
                        <span>"Never write under, one per line"</span>
                        <textarea name="disallowed-paths" rows="2" spellcheck="false" class="mono" placeholder="nothing"
                            aria-invalid=invalid("run-paths") aria-describedby="review-error"
                            prop:value=move || disallowed.get()
                            on:input=move |ev| disallowed.set(event_target_value(&ev))></textarea>
                    </label>
                </div>
                <label class="field">
                    <span>"Protected test paths, one per line"</span>
                    <textarea name="protected-paths" rows="2" spellcheck="false" class="mono"
                        placeholder="test/config.test.js" aria-invalid=invalid("protected-paths")
                        aria-describedby="review-error protected-hint"
                        prop:value=move || protected.get()
                        on:input=move |ev| protected.set(event_target_value(&ev))></textarea>
                    <small class="muted" id="protected-hint">"Relative paths. A change to one always waits for your approval."</small>
                </label>
                <label class="field">
                    <span>"Your acceptance test file"</span>
                    <input type="text" name="acceptance-path" spellcheck="false" class="mono"
                        placeholder="test/accept.test.js" aria-invalid=invalid("acceptance-test")
                        aria-describedby="review-error acceptance-hint"
                        prop:value=move || acceptance_path.get()
                        on:input=move |ev| acceptance_path.set(event_target_value(&ev))/>
                </label>
                <label class="field">
                    <span>"Its tests"</span>
                    <textarea name="acceptance-text" rows="4" spellcheck="false" class="mono"
                        placeholder="const parse = require('../lib/config.js');
    test('reads pairs', () => assert.deepEqual(parse('a=1'), { a: '1' }));"
                        aria-invalid=invalid("acceptance-test") aria-describedby="review-error acceptance-hint"
                        prop:value=move || acceptance_text.get()
                        on:input=move |ev| acceptance_text.set(event_target_value(&ev))></textarea>
                    <small class="muted" id="acceptance-hint">"Optional. Runs in the sandbox with every implementation, and the run completes only when it passes; the implementer may change it only with your approval. Name it *.test.js, *.test.mjs or *.test.cjs."</small>
                </label>
            </div>
            <div class="card">
                <h3 class="small">"The members, one per role in the run, "
                    {move || if own.get() { "each on its own model, below" } else { "each on this model" }}</h3>
                <div class="member-row" data-member="members" hidden=move || own.get()>
                    <ProviderModelFields name="members" provider=provider model=model
                        default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                </div>
                <label class="choice">
                    <input type="checkbox" name="own-models" prop:checked=move || own.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            if on {
                                // Each role starts from the shared pick.
                                members.with_value(|all| for (_, _, p, m) in all {
                                    p.set(provider.get_untracked());
                                    m.set(model.get_untracked());
                                });
                            }
                            own.set(on);
                        }/>
                    <span><strong>"Give each role its own model"</strong>" "<span class="muted small">"A verifier on another model than the implementer's catches more."</span></span>
                </label>
                {move || own.get().then(|| members.with_value(|all| all.iter().map(|(id, name, p, m)| {
                    view! {
                        <h4 class="small">{name.clone()}</h4>
                        <div class="member-row" data-member=*id>
                            <ProviderModelFields name=*id provider=*p model=*m
                                default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                        </div>
                    }
                }).collect_view()))}
            </div>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_problem_of_a_run_variable_points_at_its_field_and_a_members_problem_at_none() {
        let model = ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let mut config = ReviewConfig::standard(" ", &[], model);
        config.max_iterations = 0;
        config.fanout_max = 9;
        config.time_budget_seconds = Some(0);
        config.token_budget = Some(0);
        config.protected_test_paths = vec!["../x".into()];
        config.acceptance_tests = vec![AcceptanceTest {
            path: "accept.js".into(),
            content: "test('a', () => {});".into(),
        }];
        config.members[3]
            .roles
            .push(roundtable_core::protocol::review::Role::Verifier);
        let fields: Vec<Option<&str>> = config.problems().iter().map(field_of).collect();
        for want in [
            "goal",
            "criteria",
            "max-iterations",
            "fanout-max",
            "time-budget",
            "token-budget",
            "protected-paths",
            "acceptance-test",
        ] {
            assert!(fields.contains(&Some(want)), "{want}: {fields:?}");
        }
        assert!(
            fields.contains(&None),
            "the implementer as verifier is the members': {fields:?}"
        );
    }

    #[test]
    fn a_list_is_its_non_empty_lines_trimmed() {
        assert_eq!(
            lines("  a first \n\n\t\nsecond\n"),
            ["a first".to_string(), "second".to_string()]
        );
        assert!(lines(" \n ").is_empty());
    }

    #[test]
    fn an_empty_budget_is_none_and_a_bad_one_says_what_it_needs() {
        assert_eq!(optional("  ", "The token budget"), Ok(None));
        assert_eq!(optional("120 000", "The token budget"), Ok(Some(120_000)));
        assert_eq!(
            optional("0", "The token budget"),
            Ok(Some(0)),
            "core refuses 0, with its reason"
        );
        assert_eq!(
            optional("ten", "The time budget (seconds)"),
            Err("The time budget (seconds) must be a whole number, or empty for none.".into())
        );
    }
}
