//! The gates the runtime holds, whatever a model decides (`DESIGN.md`: `complete` is accepted
//! only after the required verifier approved evidence from the latest implementation and the
//! runtime's own checks passed on it; a fan-out never satisfies a gate; open approvals hold the
//! run). The runtime's gate is met by one thing only: a sandbox run of the files as the latest
//! implementation left them, with the status `passed`. No run (nothing the sandbox runs, or
//! not run yet), no pass; the reason is said.
//!
//! A decision the gates forbid is refused with every unmet gate said, so the orchestrator's
//! repair prompt names what must happen first.

use super::artifacts::RuntimeCheck;

/// A gate `complete` must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// The verifier approved the latest implementation.
    Verifier,
    /// The runtime's own checks passed on the latest implementation.
    RuntimeQa,
    /// No approval the person was asked for is still open.
    Approval,
}

/// A verifier's verdict on one implementation, as the run recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifierRecord {
    /// The ref of the verifier's answer.
    pub answer_ref: String,
    /// The implementation it judged.
    pub implementation_ref: String,
    /// Whether its verdict was `approve`.
    pub approved: bool,
    /// Whether it answered in a fan-out slot (advisory: never counts).
    pub in_fanout: bool,
}

/// What the run holds that the gates read.
#[derive(Debug, Clone)]
pub struct Ledger<'a> {
    /// The ref of the latest implementation, if any was written.
    pub latest_implementation: Option<&'a str>,
    /// Why the sandbox cannot run the files after it, when it cannot.
    pub unrunnable: Option<String>,
    /// Every verifier verdict so far.
    pub verifications: &'a [VerifierRecord],
    /// Every runtime check so far.
    pub runtime_checks: &'a [RuntimeCheck],
    /// Approvals asked for and not yet answered.
    pub open_approvals: usize,
}

/// A gate not yet met, and why, in words the orchestrator reads back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmet {
    /// The gate.
    pub gate: Gate,
    /// Why it is not met.
    pub why: String,
}

/// Every gate `complete` would cross unmet; empty when the run may complete.
pub fn unmet_for_completion(ledger: Ledger) -> Vec<Unmet> {
    let mut out = Vec::new();
    match ledger.latest_implementation {
        Some(latest) => implementation_gates(&ledger, latest, &mut out),
        None => {
            out.push(Unmet {
                gate: Gate::Verifier,
                why: "nothing has been implemented yet, so nothing can be verified".into(),
            });
            out.push(Unmet {
                gate: Gate::RuntimeQa,
                why: "nothing has been implemented yet, so the runtime has nothing to check".into(),
            });
        }
    }
    if ledger.open_approvals > 0 {
        out.push(Unmet {
            gate: Gate::Approval,
            why: format!(
                "{} approval{} the person was asked for {} still open",
                ledger.open_approvals,
                if ledger.open_approvals == 1 { "" } else { "s" },
                if ledger.open_approvals == 1 {
                    "is"
                } else {
                    "are"
                }
            ),
        });
    }
    out
}

/// The verifier's and the runtime's gates on the latest implementation, `latest`.
fn implementation_gates(ledger: &Ledger, latest: &str, out: &mut Vec<Unmet>) {
    // The newest verdict on the latest implementation, outside fan-outs.
    let verdict = ledger
        .verifications
        .iter()
        .rev()
        .find(|v| !v.in_fanout && v.implementation_ref == latest);
    match verdict {
        Some(v) if v.approved => {}
        Some(v) => out.push(Unmet {
            gate: Gate::Verifier,
            why: format!(
                "the verifier's latest verdict on {latest} ({}) is not an approval",
                v.answer_ref
            ),
        }),
        None => {
            let advisory = ledger
                .verifications
                .iter()
                .any(|v| v.in_fanout && v.implementation_ref == latest && v.approved);
            out.push(Unmet {
                gate: Gate::Verifier,
                why: if advisory {
                    format!("only a fan-out approved {latest}; fan-out answers are advisory, ask the verifier")
                } else {
                    format!("the verifier has not judged the latest implementation, {latest}")
                },
            });
        }
    }
    match ledger
        .runtime_checks
        .iter()
        .rev()
        .find(|c| c.implementation_ref == latest)
    {
        Some(c) if c.passed => {}
        Some(c) => out.push(Unmet {
            gate: Gate::RuntimeQa,
            why: format!(
                "the runtime's own run {} of {latest} did not pass (a failing or missing test, or a file that did not load)",
                c.run_ref
            ),
        }),
        None => out.push(Unmet {
            gate: Gate::RuntimeQa,
            why: match &ledger.unrunnable {
                Some(why) => format!("no sandbox run can meet this gate: {why}"),
                None => format!("the runtime has not run the files of {latest} yet"),
            },
        }),
    }
}
