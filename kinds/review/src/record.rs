//! The run's record: every applied answer, the artifacts the answers and the runtime wrote —
//! files with their versions, plan versions, the runtime's own test runs, critic triggers,
//! revision packets and fan-outs — and what the gates read from them. The fold of the event log
//! writes it; the prompts, the gates and the view read it, so each reads the same facts.

use super::answer::{Implementation, ImplementationStatus, Payload, Response, Status};
use super::artifacts::{CriticTrigger, Fanout, RevisionPacket, RuntimeCheck};
use super::gates::{self, Ledger, Unmet, VerifierRecord};
use super::ReviewStep;
use roundtable_engine::code_run::{runs, CodeFile, RunStatus, TestRun};

/// One applied answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The call it answered (its ref in artifacts: `call-7`).
    pub call_id: String,
    /// The step it answered.
    pub step: ReviewStep,
    /// Who answered (a fan-out slot's own id, `qa.2`).
    pub member: String,
    /// The orchestrator decision it belongs to.
    pub round: u32,
    /// Its fan-out slot, from 1, when it answered in one.
    pub slot: Option<u32>,
    /// What it said.
    pub response: Response,
}

/// One version of a file: its content, or `None` once deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileVersion {
    /// From 1.
    pub version: u32,
    /// The implementation that wrote it; empty for an acceptance test the person handed in.
    pub call_id: String,
    /// The whole file; `None`: deleted by this implementation.
    pub content: Option<String>,
}

/// A file the implementer wrote, with every version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHistory {
    /// Relative path.
    pub path: String,
    /// Oldest first.
    pub versions: Vec<FileVersion>,
}

/// One of the runtime's own runs of the files (the QA lane the models cannot satisfy).
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeRun {
    /// The effect that ran them (`effect-2`): the run's ref.
    pub effect_id: String,
    /// The implementation whose files ran.
    pub implementation: String,
    /// The sandbox's result, once in.
    pub run: Option<TestRun>,
}

/// An approval the policy gave by itself (the mode let the answer through): what it approved
/// and why, shown in the inbox's history and the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoApproval {
    /// The call whose answer it let through.
    pub call_id: String,
    /// The iteration.
    pub round: u32,
    /// What it approved, in words.
    pub what: String,
    /// Why the policy could approve it alone.
    pub why: String,
}

/// Everything the run has produced so far.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunRecord {
    /// Applied answers, oldest first.
    pub answers: Vec<Answer>,
    /// Files, in the order first written.
    pub files: Vec<FileHistory>,
    /// The runtime's test runs.
    pub runs: Vec<RuntimeRun>,
    /// Critic triggers, in the order written.
    pub triggers: Vec<CriticTrigger>,
    /// Revision packets, in the order written.
    pub packets: Vec<RevisionPacket>,
    /// Fan-outs, in the order written.
    pub fanouts: Vec<Fanout>,
    /// Every verifier verdict, fan-out slots' included (marked).
    pub verifications: Vec<VerifierRecord>,
    /// The approvals the policy gave by itself, in order.
    pub auto_approvals: Vec<AutoApproval>,
}

impl RunRecord {
    /// The answer to `call_id`.
    pub fn answer(&self, call_id: &str) -> Option<&Answer> {
        self.answers.iter().find(|a| a.call_id == call_id)
    }

    /// The newest answer of `step` outside fan-outs.
    pub fn latest(&self, step: ReviewStep) -> Option<&Answer> {
        self.answers
            .iter()
            .rev()
            .find(|a| a.step == step && a.slot.is_none())
    }

    /// The implementations, oldest first: (call id, answer) — the ones that did the work
    /// (`ok`, and `changed` or `no_change`); a blocked or failed one the person let through is
    /// recorded but implements nothing, so no gate can pass on it.
    pub fn implementations(&self) -> impl Iterator<Item = (&str, &Implementation)> {
        self.answers
            .iter()
            .filter_map(|a| match &a.response.payload {
                Payload::Implementation(i)
                    if a.response.status == Status::Ok
                        && matches!(
                            i.status,
                            ImplementationStatus::Changed | ImplementationStatus::NoChange
                        ) =>
                {
                    Some((a.call_id.as_str(), i))
                }
                _ => None,
            })
    }

    /// The latest implementation's call id.
    pub fn latest_implementation(&self) -> Option<&str> {
        self.implementations().last().map(|(id, _)| id)
    }

    /// The plan's versions, oldest first: (call id, Markdown).
    pub fn plans(&self) -> Vec<(&str, &str)> {
        self.answers
            .iter()
            .filter(|a| a.step == ReviewStep::Planner && a.slot.is_none())
            .filter_map(|a| match &a.response.payload {
                Payload::Decision(d) => Some((
                    a.call_id.as_str(),
                    d.markdown.as_deref().unwrap_or(d.reason.as_str()),
                )),
                _ => None,
            })
            .collect()
    }

    /// The files as they stand (deleted ones left out).
    pub fn current_files(&self) -> Vec<CodeFile> {
        self.files
            .iter()
            .filter_map(|f| {
                let last = f.versions.last()?;
                Some(CodeFile {
                    path: f.path.clone(),
                    content: last.content.clone()?,
                })
            })
            .collect()
    }

    /// Writes an implementation's files as new versions.
    pub fn write_files(&mut self, call_id: &str, implementation: &Implementation) {
        use super::answer::ChangeType;
        let mut put = |path: &str, content: Option<String>| {
            let at = match self.files.iter().position(|f| f.path == path) {
                Some(i) => i,
                None => {
                    self.files.push(FileHistory {
                        path: path.to_string(),
                        versions: Vec::new(),
                    });
                    self.files.len() - 1
                }
            };
            let history = &mut self.files[at];
            let version = history.versions.len() as u32 + 1;
            history.versions.push(FileVersion {
                version,
                call_id: call_id.to_string(),
                content,
            });
        };
        for file in &implementation.files {
            put(&file.path, Some(file.content.clone()));
        }
        for change in &implementation.changed_files {
            if change.change_type == ChangeType::Deleted {
                put(&change.path, None);
            }
        }
    }

    /// The files as they stand after the implementation `call_id` (the acceptance tests the
    /// run started with included).
    pub fn files_after(&self, call_id: &str) -> Vec<CodeFile> {
        let order: Vec<&str> = self.implementations().map(|(id, _)| id).collect();
        let Some(at) = order.iter().position(|id| *id == call_id) else {
            return Vec::new();
        };
        let counts =
            |v: &FileVersion| v.call_id.is_empty() || order[..=at].contains(&v.call_id.as_str());
        self.files
            .iter()
            .filter_map(|f| {
                let last = f.versions.iter().rev().find(|v| counts(v))?;
                Some(CodeFile {
                    path: f.path.clone(),
                    content: last.content.clone()?,
                })
            })
            .collect()
    }

    /// Whether the files as they stand after the implementation `call_id` hold anything the
    /// sandbox runs.
    pub fn runnable(&self, call_id: &str) -> bool {
        self.files_after(call_id).iter().any(|f| runs(&f.path))
    }

    /// Why the runtime cannot run the files after the implementation `call_id`, in words; `None`
    /// when it can.
    pub fn why_not_runnable(&self, call_id: &str) -> Option<String> {
        let files = self.files_after(call_id);
        if files.iter().any(|f| runs(&f.path)) {
            return None;
        }
        Some(if files.is_empty() {
            format!("{call_id} left no files, so the sandbox has nothing to run")
        } else {
            let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            format!(
                "the sandbox runs JavaScript (.js, .mjs, .cjs) and the files after {call_id} hold none: {} cannot run",
                names.join(", ")
            )
        })
    }

    /// The runtime's own checks: one per sandbox run that came back, by the implementation
    /// whose files ran — passed only when the run's status is `passed` (every test, the
    /// acceptance tests among them, passed). Nothing else counts: an implementation with no run
    /// has no check.
    pub fn runtime_checks(&self) -> Vec<RuntimeCheck> {
        self.runs
            .iter()
            .filter_map(|r| {
                let run = r.run.as_ref()?;
                Some(RuntimeCheck {
                    implementation_ref: r.implementation.clone(),
                    passed: run.status == RunStatus::Passed,
                    run_ref: r.effect_id.clone(),
                })
            })
            .collect()
    }

    /// Starts the record with the person's acceptance tests as the run's first files (version
    /// 1 of each, written by no call).
    pub fn with_acceptance_tests(tests: &[super::config::AcceptanceTest]) -> RunRecord {
        RunRecord {
            files: tests
                .iter()
                .map(|t| FileHistory {
                    path: t.path.clone(),
                    versions: vec![FileVersion {
                        version: 1,
                        call_id: String::new(),
                        content: Some(t.content.clone()),
                    }],
                })
                .collect(),
            ..RunRecord::default()
        }
    }

    /// The runtime's check of the latest implementation, if it has one.
    pub fn latest_check(&self) -> Option<RuntimeCheck> {
        let latest = self.latest_implementation()?;
        self.runtime_checks()
            .into_iter()
            .rev()
            .find(|c| c.implementation_ref == latest)
    }

    /// The gates `complete` has not passed, with `open_approvals` asks open.
    pub fn unmet(&self, open_approvals: usize) -> Vec<Unmet> {
        let checks = self.runtime_checks();
        let unrunnable = self
            .latest_implementation()
            .and_then(|id| self.why_not_runnable(id));
        gates::unmet_for_completion(Ledger {
            latest_implementation: self.latest_implementation(),
            unrunnable,
            verifications: &self.verifications,
            runtime_checks: &checks,
            open_approvals,
        })
    }

    /// The latest run of the files, if one is in.
    pub fn latest_run(&self) -> Option<&RuntimeRun> {
        self.runs.iter().rev().find(|r| r.run.is_some())
    }
}

/// `ms` since the Unix epoch as an ISO 8601 UTC time (`2026-11-27T03:12:00Z`), for the
/// artifacts' `createdAt` (the event's own time: no clock is read).
pub fn iso_utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::iso_utc;

    #[test]
    fn times_read_as_utc_dates() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso_utc(1_795_749_120_000), "2026-11-27T03:12:00Z");
    }
}
