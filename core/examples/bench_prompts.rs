//! Prompt sizes per step on team sessions of 10, 100 and 1,000 products, against the targets of
//! issue 10, with a check that every fact each step needs is in its prompt.
//!
//! Run: `cargo run --release -p roundtable-core --example bench_prompts`
//!
//! Each session is grown through the engine by `bench_common::grow` (Bootstrap; five rounds in
//! which every content product gets a version; then rounds in which each operative gets two
//! assignments), with four operatives, an inspector and an envoy; the chair halts done at round 8's
//! PlanAssign, so the envoy presents. Every call of the measured rounds is read: Bootstrap, and
//! every call from round 6 on — round 6's Reflect included, which looks back on round 5, where
//! each operative rewrote a quarter of the tree. Tokens are estimated as characters / 4 of the
//! system and user texts. Then hostile but valid answers (issue 19): a PlanAssign giving 2,000 new
//! products to one operative (its Write prompt ≤ 8k), and a refused 1 MB Write answer (the repair
//! call ≤ the first prompt + 3k). For each step it prints the largest prompt and its target, and it checks, on
//! every call, that the prompt names:
//! - the charter's mission (every step after Bootstrap) and the person's request (Bootstrap);
//! - Write: each assigned product with the chair's directive, and every product the member owns
//!   or is assignee of;
//! - Reflect: each product written last round with its version;
//! - PeerReview / Inspection: every version to review or inspect;
//! - Inspection: every review of this round on the versions it inspects (so it does not repeat
//!   them);
//! - PlanAssign: every version awaiting acceptance, every rejected product;
//! - every collab addressed to the member this round or the last;
//! - Presentation: every accepted product.
//!
//! It exits non-zero, naming the call and the fact, if a fact is missing or a target is exceeded.
//! `-- --show 1000 write` prints every prompt of that step at that size to stderr, to read them;
//! `-- --sections` prints where the tokens of every step's largest prompt go (printed anyway for a
//! target exceeded).
#![allow(clippy::disallowed_methods, missing_docs)]

mod bench_common;

use std::collections::BTreeMap;
use std::process::ExitCode;

use bench_common::{DueCall, Flow, MISSION};
use roundtable_core::engine::Protocol as _;
use roundtable_core::protocol::team::tree::ROOT_ID;
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::team::{TeamSession as Session, TeamState};

/// The target of a step at a size, in estimated tokens (issue 10). 100 products are held to the
/// 1,000-product targets; Bootstrap sees only the root at any size.
fn target(step: Step, n: usize) -> Option<u64> {
    match (step, n) {
        (Step::Bootstrap, _) => Some(4_000),
        (Step::Write, 10) => Some(2_500),
        (Step::PlanAssign, 10) => Some(4_000),
        (_, 10) => None,
        (Step::Write | Step::Reflect | Step::PeerReview, _) => Some(8_000),
        (Step::PlanAssign | Step::Inspection | Step::Presentation, _) => Some(16_000),
    }
}

/// True when `text` names `id` as a whole word (`p1` is not named by `p12`).
fn names(text: &str, id: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(id).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + id.len()).copied();
        let word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-');
        !word(before) && !word(after)
    })
}

/// The facts this call's prompt must carry, each as (what, text to find, whole id or plain text).
fn facts(s: &TeamState, call: &DueCall) -> Vec<(String, String, bool)> {
    let member = call.member.as_str();
    let round = call.round;
    let mut out: Vec<(String, String, bool)> = Vec::new();
    let mut id = |what: String, id: &str| out.push((what, id.to_string(), true));
    let live: Vec<_> = s.tree.walk().into_iter().map(|(_, p)| p).collect();
    match TeamState::step_of(call.step) {
        Step::Bootstrap => {}
        Step::Write => {
            for a in s
                .assignments_of_round(round)
                .filter(|a| a.assignee == member)
                .take(roundtable_core::protocol::team::prompt::ASSIGNED_LISTED_MAX)
            {
                id(format!("assigned product {}", a.product_id), &a.product_id);
            }
            for p in live.iter().filter(|p| p.id != ROOT_ID) {
                if p.owner.as_deref() == Some(member) || p.assignee.as_deref() == Some(member) {
                    id(format!("own product {}", p.id), &p.id);
                }
            }
        }
        Step::Reflect => {
            // A Reflect lists what one answer can act on and counts the rest: the products it
            // details and the ones it names by id, then "… and N more".
            let named = roundtable_core::protocol::team::prompt::WORKED_DETAIL_MAX
                + roundtable_core::protocol::team::prompt::WORKED_LIST_MAX;
            for w in s
                .written
                .iter()
                .filter(|w| w.member == member && w.round + 1 == round && w.step == Step::Write)
                .take(named)
            {
                id(
                    format!("product written last round {}", w.product_id),
                    &w.product_id,
                );
                id(format!("its version {}", w.version_id), &w.version_id);
            }
        }
        Step::PeerReview | Step::Inspection => {
            for w in s.to_review(member, TeamState::step_of(call.step)) {
                id(format!("version to review {}", w.version_id), &w.version_id);
            }
        }
        Step::PlanAssign => {
            for p in &live {
                if let Some(latest) = p.latest_version() {
                    if p.accepted_version.as_deref() != Some(latest) {
                        id(
                            format!("version awaiting acceptance {latest} of {}", p.id),
                            latest,
                        );
                    }
                }
                if p.rejection_reason.is_some() {
                    id(format!("rejected product {}", p.id), &p.id);
                }
            }
        }
        Step::Presentation => {
            for p in live.iter().filter(|p| p.accepted_version.is_some()) {
                id(format!("accepted product {}", p.id), &p.id);
            }
        }
    }
    if TeamState::step_of(call.step) != Step::Bootstrap {
        for c in s.tree.collabs().iter().filter(|c| {
            c.author != member && c.round + 1 >= round && c.addressees.iter().any(|a| a == member)
        }) {
            id(format!("collab {} addressed to {member}", c.id), &c.id);
        }
    }
    // Plain-text facts.
    if TeamState::step_of(call.step) == Step::Write {
        for a in s
            .assignments_of_round(round)
            .filter(|a| a.assignee == member)
            .take(roundtable_core::protocol::team::prompt::ASSIGNED_LISTED_MAX)
        {
            out.push((
                format!("directive of {}", a.product_id),
                a.directive.objective.clone(),
                false,
            ));
        }
    }
    if TeamState::step_of(call.step) == Step::Inspection {
        let inspected: Vec<String> = s
            .to_review(member, Step::Inspection)
            .iter()
            .map(|w| w.version_id.clone())
            .collect();
        for a in s
            .assessments
            .iter()
            .filter(|a| a.round == round && a.kind == "review" && inspected.contains(&a.version_id))
        {
            out.push((
                format!("review of {} by {}", a.version_id, a.by),
                a.summary.clone(),
                false,
            ));
        }
    }
    if TeamState::step_of(call.step) == Step::Bootstrap {
        out.push(("the request".into(), s.request.clone(), false));
    } else {
        out.push(("the mission charter".into(), MISSION.into(), false));
    }
    out
}

/// Where a prompt's estimated tokens go: the system text by part (identity and team, rules,
/// output structure, mistakes and token rules), the user text by section (its first line).
fn sections(system: &str, user: &str) -> Vec<(String, u64)> {
    let tokens = |t: &str| (t.chars().count() as u64).div_ceil(4);
    let mut out = Vec::new();
    let cuts = ["CRITICAL:", "## Output structure", "## Common mistakes"];
    let names = [
        "system: identity and team",
        "system: base and step rules",
        "system: output structure",
        "system: mistakes and token rules",
    ];
    let mut rest = system;
    for (cut, name) in cuts.iter().zip(names) {
        let at = rest.find(cut).unwrap_or(rest.len());
        out.push((name.to_string(), tokens(&rest[..at])));
        rest = &rest[at..];
    }
    out.push((names[3].to_string(), tokens(rest)));
    for part in user.split("\n\n") {
        let head: String = part
            .lines()
            .next()
            .unwrap_or("")
            .split([':', '(', '"'])
            .next()
            .unwrap_or("")
            .chars()
            .take(40)
            .collect();
        out.push((format!("user: {}", head.trim()), tokens(part)));
    }
    out
}

/// The largest prompt of one step at one size, and any missing fact.
#[derive(Default)]
struct StepFigures {
    calls: usize,
    max_tokens: u64,
    max_of: String,
    max_sections: Vec<(String, u64)>,
    facts: usize,
    missing: Vec<String>,
}

fn measure(n: usize, show: Option<(usize, String)>) -> (usize, BTreeMap<Step, StepFigures>) {
    let mut figures: BTreeMap<Step, StepFigures> = BTreeMap::new();
    let mut products = 0;
    let mut visit = |s: &Session, calls: &[DueCall]| {
        let st = s.state();
        products = st.tree.walk().len();
        for call in calls {
            // Round 6's Reflect looks back on round 5, where each operative rewrote a quarter
            // of the tree (≈ 250 products at 1,000): it is read too, held to the same target.
            let measured = TeamState::step_of(call.step) == Step::Bootstrap
                || call.round >= bench_common::SMALL_FROM;
            // Only first asks: a repair or a follow-up is a conversation, not a prompt.
            if !measured || call.messages.len() != 2 {
                continue;
            }
            let text = format!("{}\n{}", call.messages[0].content, call.messages[1].content);
            let tokens = (call.messages[0].content.chars().count() as u64).div_ceil(4)
                + (call.messages[1].content.chars().count() as u64).div_ceil(4);
            if show.as_ref().is_some_and(|(sn, st)| {
                *sn == n && *st == TeamState::step_of(call.step).wire_name()
            }) {
                eprintln!(
                    "===== {} {} round {} ({tokens} tokens)\n{text}",
                    TeamState::step_of(call.step),
                    call.member,
                    call.round
                );
            }
            let f = figures.entry(TeamState::step_of(call.step)).or_default();
            f.calls += 1;
            if tokens > f.max_tokens {
                f.max_tokens = tokens;
                f.max_of = format!("{} r{}", call.member, call.round);
                f.max_sections = sections(&call.messages[0].content, &call.messages[1].content);
            }
            for (what, needle, whole) in facts(st, call) {
                f.facts += 1;
                let present = if whole {
                    names(&text, &needle)
                } else {
                    text.contains(needle.trim())
                };
                if !present {
                    f.missing
                        .push(format!("{} round {}: {what}", call.member, call.round));
                }
            }
        }
        Flow::Go
    };
    bench_common::grow(n, true, Some(8), &mut visit);
    (products, figures)
}

/// Hostile but valid answers, each grown on a session of 10 products: a PlanAssign that adds
/// 2,000 products and assigns them all to operative-1 (its Write prompt is read), then a refused
/// Write answer of 1 MB (the repair call, the whole conversation, is read). Returns lines for the
/// table and the failures.
fn hostile() -> (Vec<String>, Vec<String>) {
    use bench_common::{answer, config};
    use roundtable_core::engine::{estimate_messages, Outcome, Status};
    use serde_json::json;
    let tokens = |call: &DueCall| estimate_messages(&call.messages);
    let mut s = Session::new(config(false), 0).unwrap();
    s.start(0).unwrap();
    let mut now = 0;
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let mut write_first = 0;
    'grow: while s.status() == &Status::Running {
        for call in s.calls_due() {
            now += 1;
            let text = match TeamState::step_of(call.step) {
                Step::PlanAssign if call.round == 1 => {
                    let ops: Vec<_> = (0..2_000)
                        .map(|i| json!({"action": "ADD", "newId": format!("new-{}", i + 1), "parentId": ROOT_ID,
                            "product": {"name": format!("Extra part {i}"), "type": "Content", "dod": "Written."}}))
                        .collect();
                    let asg: Vec<_> = (0..2_000)
                        .map(|i| json!({"productId": format!("new-{}", i + 1), "assignee": "operative-1",
                            "directive": {"objective": format!("Write extra part {i}"), "dod": "Written.", "why": "The plan needs it.", "context": "Keep it short."}}))
                        .collect();
                    json!({"responseType": "final_output", "thinking": {"roundStrategy": "s", "acceptanceRationale": "r"},
                        "treeOperations": ops, "assignments": asg, "acceptance": [], "remarks": []})
                    .to_string()
                }
                Step::Write if call.member == "operative-1" => {
                    let t = tokens(&call);
                    if call.messages.len() == 2 {
                        write_first = t;
                        rows.push(format!(
                            "| Write of operative-1 after a PlanAssign gave it 2,000 new products | {t} | ≤ 8000 |"
                        ));
                        if t > 8_000 {
                            failures.push(format!("hostile Write prompt: {t} tokens > 8000"));
                        }
                        // A refused answer of 1 MB: valid JSON, every version of a product that
                        // is not operative-1's.
                        let big = "An answer far longer than any product needs. ".repeat(23_000);
                        json!({"responseType": "final_output", "versions": [{"productId": "p2",
                            "newVersion": {"contentTitle": "Too much", "content": big, "changeSummary": "All of it."}}]})
                        .to_string()
                    } else {
                        let limit = write_first + 3_000;
                        rows.push(format!(
                            "| its repair call after a refused 1 MB Write answer (whole conversation) | {t} | ≤ {limit} (the first prompt + 3,000) |"
                        ));
                        if t > limit {
                            failures.push(format!("hostile repair call: {t} tokens > {limit}"));
                        }
                        break 'grow;
                    }
                }
                _ => answer(s.state(), &call, 10, false),
            };
            let out = s.submit(&call.id, &text, None, now).unwrap();
            if TeamState::step_of(call.step) == Step::Write && call.member == "operative-1" {
                assert!(matches!(out, Outcome::Invalid { .. }), "{out:?}");
            }
        }
    }
    if rows.len() < 2 {
        failures.push("the hostile session did not reach operative-1's repair".into());
    }
    (rows, failures)
}

fn main() -> ExitCode {
    // `-- --show N STEP` prints every prompt of that step at that size (stderr), to read them.
    let args: Vec<String> = std::env::args().collect();
    let show = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| Some((args.get(i + 1)?.parse().ok()?, args.get(i + 2)?.clone())));
    let mut failures = Vec::new();
    let mut breakdowns = Vec::new();
    println!("| products | step | calls read | largest prompt (est. tokens) | of | target | facts checked | missing |");
    println!("|---:|---|---:|---:|---|---:|---:|---:|");
    for n in [10usize, 100, 1000] {
        let (products, figures) = measure(n, show.clone());
        for step in Step::ALL {
            let Some(f) = figures.get(&step) else {
                failures.push(format!("{n} products: no {step} call was read"));
                continue;
            };
            let t = target(step, n);
            println!(
                "| {products} | {} | {} | {} | {} | {} | {} | {} |",
                step.title(),
                f.calls,
                f.max_tokens,
                f.max_of,
                t.map_or("—".into(), |t| format!("≤ {t}")),
                f.facts,
                f.missing.len()
            );
            if let Some(t) = t.filter(|t| f.max_tokens > *t) {
                failures.push(format!(
                    "{n} products, {}: {} tokens ({}) > {t}",
                    step.title(),
                    f.max_tokens,
                    f.max_of
                ));
            }
            if t.is_some_and(|t| f.max_tokens > t) || args.iter().any(|a| a == "--sections") {
                breakdowns.push(format!(
                    "{n} products, {} ({}, {} tokens): {}",
                    step.title(),
                    f.max_of,
                    f.max_tokens,
                    f.max_sections
                        .iter()
                        .map(|(name, t)| format!("{name} {t}"))
                        .collect::<Vec<_>>()
                        .join(" · ")
                ));
            }
            for m in f.missing.iter().take(5) {
                failures.push(format!("{n} products, {}: missing {m}", step.title()));
            }
            if f.missing.len() > 5 {
                failures.push(format!(
                    "{n} products, {}: … {} more missing facts",
                    step.title(),
                    f.missing.len() - 5
                ));
            }
        }
    }
    let (rows, hostile_failures) = hostile();
    println!("\nHostile but valid answers (est. tokens):\n\n| prompt | largest | target |\n|---|---:|---:|");
    for r in &rows {
        println!("{r}");
    }
    failures.extend(hostile_failures);
    if !breakdowns.is_empty() {
        println!("\nWhere the tokens go (the largest prompt; every target exceeded, or all with --sections):");
        for b in &breakdowns {
            println!("- {b}");
        }
    }
    if failures.is_empty() {
        println!("\nEvery target met; every fact present.");
        ExitCode::SUCCESS
    } else {
        eprintln!("\nFAILED:");
        for f in &failures {
            eprintln!("- {f}");
        }
        ExitCode::FAILURE
    }
}
