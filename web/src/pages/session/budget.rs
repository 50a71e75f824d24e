//! The session's limits, editable on the session page: the token budget, the money budget (typed
//! and shown in dollars) and the round limit, each one row of [`LIMITS`]. A change is one
//! `person_edited` settings event (core checks it and refuses it once the session is done); when
//! a budget paused the session, raising it here and pressing a run control goes on.

use leptos::prelude::*;
use roundtable_core::engine::Settings;
use roundtable_core::session::{Kind, Session, SessionStatus, SessionView};

use super::ViewMemo;
use crate::app::app_state;
use crate::runner::Runner;
use crate::util::now_ms;

/// One editable limit: where it lives in core's [`Settings`] and what has been spent of it.
pub struct Limit {
    /// The input's name (tests and labels use it).
    pub name: &'static str,
    /// What the person reads.
    pub label: &'static str,
    /// The unit after the figures ("tokens").
    pub unit: &'static str,
    /// An empty field means "no limit".
    pub optional: bool,
    /// The largest value accepted.
    pub max: u64,
    /// The limit now.
    pub read: fn(&Settings) -> Option<u64>,
    /// Sets it (the value is checked by [`parse_limit`] first).
    pub write: fn(&mut Settings, Option<u64>),
    /// How much of it the session has used.
    pub used: fn(&SessionView) -> u64,
    /// Dollars: typed and shown as an amount (`$2.50`), held in micro-dollars.
    pub money: bool,
    /// Counted in the kind's rounds: its label and unit take the kind's own word ("Turn
    /// limit", "turns"), as the header does.
    pub rounds: bool,
}

impl Limit {
    /// Its label and unit for a session of `kind`.
    pub fn words(&self, kind: Kind) -> (String, String) {
        if self.rounds {
            (format!("{} limit", kind.round_word()), kind.rounds_word())
        } else {
            (self.label.to_string(), self.unit.to_string())
        }
    }

    /// A value of this limit as the person reads and types it ("100,313": thousands grouped,
    /// which [`parse_limit`] reads back).
    pub fn show(&self, n: u64) -> String {
        if self.money {
            roundtable_core::cost::usd(n)
        } else {
            roundtable_core::engine::status::grouped(n)
        }
    }
}

/// The rows of the budget editor, in order.
pub const LIMITS: &[Limit] = &[
    Limit {
        name: "token-budget",
        label: "Token budget",
        unit: "tokens",
        optional: true,
        max: u64::MAX,
        read: |s| s.token_budget,
        write: |s, v| s.token_budget = v,
        used: |v| v.tokens_used,
        money: false,
        rounds: false,
    },
    Limit {
        name: "money-budget",
        label: "Money budget",
        unit: "",
        optional: true,
        max: u64::MAX,
        read: |s| s.money_budget,
        write: |s, v| s.money_budget = v,
        used: |v| v.cost.total.micro_usd,
        money: true,
        rounds: false,
    },
    Limit {
        name: "round-limit",
        label: "Round limit",
        unit: "rounds",
        optional: false,
        max: 1000,
        read: |s| Some(u64::from(s.max_rounds)),
        write: |s, v| s.max_rounds = v.map_or(1, |n| u32::try_from(n).unwrap_or(u32::MAX)),
        used: |v| u64::from(v.round),
        money: false,
        rounds: true,
    },
];

/// Reads what the person typed into a limit: digits (spaces, commas, underscores and dots as
/// thousands separators allowed), at least 1; empty means no limit where that is allowed. Its
/// messages name the limit as a session of `kind` does ("Turn limit needs a number.").
pub fn parse_limit(text: &str, limit: &Limit, kind: Kind) -> Result<Option<u64>, String> {
    let (label, unit) = limit.words(kind);
    if limit.money {
        return match roundtable_core::cost::parse_usd(text) {
            _ if text.trim().is_empty() => Ok(None),
            Some(0) => Err(format!("{} must be more than $0.", label)),
            Some(n) => Ok(Some(n)),
            None => Err(format!(
                "{} must be an amount in dollars, like 2.50.",
                label
            )),
        };
    }
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | ',' | '_' | '.' | '\u{a0}' | '\u{202f}'))
        .collect();
    if digits.is_empty() {
        return if limit.optional {
            Ok(None)
        } else {
            Err(format!("{} needs a number.", label))
        };
    }
    match digits.parse::<u64>() {
        Ok(0) => Err(format!("{} must be at least 1.", label)),
        Ok(n) if n > limit.max => Err(format!("{} is at most {}.", label, limit.max)),
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(format!(
            "{} must be a whole number of {}, like 50000.",
            label, unit
        )),
    }
}

/// The budget panel.
#[component]
pub fn BudgetPanel() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ViewMemo(view) = expect_context::<ViewMemo>();
    let state = app_state();
    let settings = Memo::new(move |_| runner.with(Session::settings));
    let fields: Vec<RwSignal<String>> = LIMITS
        .iter()
        .map(|_| RwSignal::new(String::new()))
        .collect();
    let fields = StoredValue::new(fields);
    let errors = RwSignal::new(vec![None::<String>; LIMITS.len()]);
    let editable = move || view.with(|v| v.actions.edit) && !runner.read_only.get();
    let fill = move || {
        let now = settings.get_untracked();
        fields.with_value(|f| {
            for (limit, field) in LIMITS.iter().zip(f) {
                field.set(
                    (limit.read)(&now)
                        .map(|n| limit.show(n))
                        .unwrap_or_default(),
                );
            }
        });
    };
    // The fields show the limits in force, also after another tab or a reload changed them.
    Effect::new(move |_| {
        settings.track();
        fill();
    });
    let kind = view.with_untracked(|v| v.kind);
    let save = move || {
        let mut next = settings.get_untracked();
        let mut found = vec![None; LIMITS.len()];
        fields.with_value(|f| {
            for (i, (limit, field)) in LIMITS.iter().zip(f).enumerate() {
                match parse_limit(&field.get_untracked(), limit, kind) {
                    Ok(v) => (limit.write)(&mut next, v),
                    Err(e) => found[i] = Some(e),
                }
            }
        });
        let bad = found.iter().any(Option::is_some);
        errors.set(found);
        if bad || next == settings.get_untracked() {
            return;
        }
        leptos::task::spawn_local(async move {
            match runner
                .command(|s| s.set_settings(next, now_ms() as u64))
                .await
            {
                Ok(()) => {
                    let paused = view.with_untracked(|v| v.status == SessionStatus::Paused);
                    let unit = view.with_untracked(|v| v.kind.round_word().to_lowercase());
                    state.info(if paused {
                        format!("Limits saved. Run on with One step, One {unit} or Run to the end.")
                    } else {
                        "Limits saved.".to_string()
                    });
                }
                Err(e) => state.error(e),
            }
        });
    };
    view! {
        <section class="panel" aria-label="Budget">
            <h2>"Budget"</h2>
            <div class="panel-body">
                {LIMITS.iter().enumerate().map(|(i, limit)| {
                    let field = fields.with_value(|f| f[i]);
                    let id = format!("limit-{}", limit.name);
                    let (label, unit) = limit.words(kind);
                    let shown = move || {
                        let used = view.with(|v| (limit.used)(v));
                        let (used, unit) = (limit.show(used), unit.as_str());
                        match (limit.read)(&settings.get()) {
                            Some(max) => format!("{used} of {} {unit} used", limit.show(max)),
                            None => format!("{used} {unit} used · no limit"),
                        }
                        .replace("  ", " ")
                    };
                    view! {
                        <div class="budget-row" data-limit=limit.name>
                            <label for=id.clone()>{label}</label>
                            {move || if editable() {
                                view! {
                                    <input id=id.clone() name=limit.name inputmode=if limit.money { "decimal" } else { "numeric" }
                                        placeholder=if limit.optional { "no limit" } else { "" }
                                        prop:value=move || field.get()
                                        aria-invalid=move || errors.with(|e| e[i].is_some()).to_string()
                                        on:input=move |ev| field.set(event_target_value(&ev))
                                        on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { save() }/>
                                }.into_any()
                            } else {
                                view! { <span class="muted small">{move || (limit.read)(&settings.get()).map_or("no limit".to_string(), |n| limit.show(n))}</span> }.into_any()
                            }}
                            <span class="used muted small">{shown}</span>
                            <div class="field-error used" role="alert">{move || errors.with(|e| e[i].clone())}</div>
                        </div>
                    }
                }).collect_view()}
                {move || editable().then(|| view! {
                    <div class="row end">
                        <button class="ghost small" on:click=move |_| fill()>"Reset"</button>
                        <button class="small" name="save-limits" on:click=move |_| save()>"Save limits"</button>
                    </div>
                })}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_what_a_person_types_and_refuse_the_rest_in_words() {
        let by = |name: &str| LIMITS.iter().find(|l| l.name == name).unwrap();
        let (tokens, money, rounds) = (by("token-budget"), by("money-budget"), by("round-limit"));
        assert_eq!(parse_limit("2.50", money, Kind::Team), Ok(Some(2_500_000)));
        assert_eq!(parse_limit("$0.01", money, Kind::Team), Ok(Some(10_000)));
        assert_eq!(parse_limit("", money, Kind::Team), Ok(None));
        assert_eq!(
            parse_limit("ten dollars", money, Kind::Team),
            Err("Money budget must be an amount in dollars, like 2.50.".into())
        );
        assert_eq!(
            parse_limit("0", money, Kind::Team),
            Err("Money budget must be more than $0.".into())
        );
        assert_eq!(money.show(2_500_000), roundtable_core::cost::usd(2_500_000));
        // A count reads grouped, and reads back as typed.
        assert_eq!(tokens.show(100_313), "100,313");
        assert_eq!(
            parse_limit(&tokens.show(100_313), tokens, Kind::Team),
            Ok(Some(100_313))
        );
        assert_eq!(parse_limit("50,000", tokens, Kind::Team), Ok(Some(50_000)));
        assert_eq!(
            parse_limit(" 1 200 000 ", tokens, Kind::Team),
            Ok(Some(1_200_000))
        );
        assert_eq!(parse_limit("", tokens, Kind::Team), Ok(None));
        assert_eq!(
            parse_limit("0", tokens, Kind::Team),
            Err("Token budget must be at least 1.".into())
        );
        assert_eq!(
            parse_limit("lots", tokens, Kind::Team),
            Err("Token budget must be a whole number of tokens, like 50000.".into())
        );
        assert_eq!(
            parse_limit("", rounds, Kind::Team),
            Err("Round limit needs a number.".into())
        );
        assert_eq!(parse_limit("12", rounds, Kind::Team), Ok(Some(12)));
        assert_eq!(
            parse_limit("5000", rounds, Kind::Team),
            Err("Round limit is at most 1000.".into())
        );
        // The round limit speaks the kind's word, as the header does, in its messages too.
        assert_eq!(
            parse_limit("", rounds, Kind::Meeting),
            Err("Turn limit needs a number.".into())
        );
        assert_eq!(
            rounds.words(Kind::Meeting),
            ("Turn limit".to_string(), "turns".to_string())
        );
        assert_eq!(
            rounds.words(Kind::Dialectic),
            ("Pass limit".to_string(), "passes".to_string())
        );
        assert_eq!(
            tokens.words(Kind::Meeting),
            ("Token budget".to_string(), "tokens".to_string())
        );
        let mut s = Settings::default();
        (tokens.write)(&mut s, Some(9));
        (rounds.write)(&mut s, Some(3));
        assert_eq!(((tokens.read)(&s), (rounds.read)(&s)), (Some(9), Some(3)));
    }
}
