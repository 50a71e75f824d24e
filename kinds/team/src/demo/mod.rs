//! The team's demo model: plays whole team sessions offline, with no key, so the first visit
//! shows the product working.
//!
//! It answers a model call the way a real model would — with raw text — built from what the call
//! shows it: the person's request (a workshop, a report, a launch, a trip, a study plan, or any
//! project; see [`topics`]), the tree, its assignments, the versions it must review. It asks the
//! person one question at Bootstrap, asks for more context now and then, makes a realistic mistake
//! about one answer in [`MISTAKE_ONE_IN`] so the repair path runs (see [`mistakes`]), and lets the
//! chair halt `done` after about three rounds.
//!
//! Everything is pure: the seed comes in with [`DemoModel::new`], and the same seed and the same
//! call always give the same text, so a demo session replays exactly.

mod adapter;
mod chair;
mod compose;
pub mod input;
pub mod mistakes;
mod play;
pub mod topics;
mod work;

use serde::{Deserialize, Serialize};

use crate::wire::{ContextRequest, FinalOutput, Halt, Step, WireAnswer};

pub use adapter::input_from_call;
pub use input::{DemoCollab, DemoInput, DemoMember, DemoProduct, DemoRole, Verdict, VersionRef};
pub use mistakes::{Mistake, MISTAKE_ONE_IN};
pub use play::play;
pub use roundtable_engine::demo::{
    facts, is_other_voice, rng, variant_seed, PlayReport, MODEL, PROVIDER, VARIANTS,
};
pub use topics::TopicKind;

/// The closing section a variant other than [`MODEL`] adds to each version it writes, so its
/// work reads differently from the recorded demo's.
pub const OTHER_VOICE: &str = "\n## A second voice\n- Written by the demo's second voice (demo-2): the same brief, another emphasis — start from the riskiest assumption and say what would prove it wrong.\n";

/// The seeded demo model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DemoModel {
    seed: u64,
    /// A variant other than [`MODEL`]: its versions end with [`OTHER_VOICE`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    other_voice: bool,
}

/// Token counts of one answer, estimated the way core estimates prompts (four chars a token), since
/// no real tokenizer ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
}

/// What the demo model sends back for one call: what a provider adapter would hand the runner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemoAnswer {
    /// The raw answer text (usually pretty-printed JSON; sometimes with a mistake in it).
    pub text: String,
    /// Estimated usage.
    pub usage: Usage,
    /// Why generation stopped, as providers say it; the demo always finishes (`stop`).
    pub finish_reason: String,
    /// The mistake deliberately made in `text`, if any (for tests and the transcript's curious
    /// reader; the engine must find it on its own).
    pub mistake: Option<Mistake>,
}

/// What a step builder decided to answer, before it becomes text.
pub(crate) enum Draft {
    /// Ask for more context first.
    Context(Vec<ContextRequest>),
    /// Pause (question) or end the rounds (done).
    Halt(Halt),
    /// The step's output.
    Final(FinalOutput),
}

impl DemoModel {
    /// A demo model whose every answer is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        DemoModel {
            seed,
            other_voice: false,
        }
    }

    /// The demo variant `model` ([`VARIANTS`]) of the model seeded with `seed`: [`MODEL`] (or an
    /// unknown name) is [`DemoModel::new`]; another variant answers from another seed and in its
    /// own voice.
    pub fn variant(seed: u64, model: &str) -> Self {
        DemoModel {
            seed: variant_seed(seed, model),
            other_voice: is_other_voice(model),
        }
    }

    /// The seed, for the session file (so an imported demo session can go on the same way).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The answer to one call described by `input`.
    pub fn answer(&self, input: &DemoInput) -> DemoAnswer {
        let base = self.call_seed(input);
        let mut cx = compose::Ctx::new(input, rng::SplitMix64::new(rng::mix(base, &["content"])));
        let draft = match input.step {
            Step::Bootstrap => chair::bootstrap(&mut cx),
            Step::Reflect => work::reflect(&mut cx),
            Step::PlanAssign => chair::plan_assign(&mut cx),
            Step::Write => work::write(&mut cx),
            Step::PeerReview => work::peer_review(&mut cx),
            Step::Inspection => work::inspection(&mut cx),
            Step::Presentation => chair::presentation(&mut cx),
        };
        let draft = match draft {
            Draft::Final(FinalOutput::Write(mut w)) if self.other_voice => {
                for v in &mut w.versions {
                    v.new_version.content =
                        format!("{}{OTHER_VOICE}", v.new_version.content).into();
                }
                Draft::Final(FinalOutput::Write(w))
            }
            other => other,
        };
        let mut mistake_rng = rng::SplitMix64::new(rng::mix(base, &["mistake"]));
        let (text, mistake) = match &draft {
            Draft::Final(out) if mistakes::roll(&mut mistake_rng, input) => {
                match mistakes::commit(&mut mistake_rng, input, out, render_final) {
                    Some((kind, text)) => (text, Some(kind)),
                    None => (render(&draft), None),
                }
            }
            _ => (render(&draft), None),
        };
        DemoAnswer {
            usage: Usage {
                prompt_tokens: (input.prompt_chars as u64).div_ceil(4),
                completion_tokens: (text.chars().count() as u64).div_ceil(4),
            },
            text,
            finish_reason: "stop".to_string(),
            mistake,
        }
    }

    /// The seed of one call: the model's seed mixed with what the call is about. A repair or a
    /// re-ask after served context keeps the same seed, so the corrected answer is the same answer
    /// without its mistake.
    fn call_seed(&self, input: &DemoInput) -> u64 {
        let round = input.round.to_string();
        let ids = |refs: &[VersionRef]| {
            refs.iter()
                .map(|r| r.version_id.as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        rng::mix(
            self.seed,
            &[
                input.step.wire_name(),
                &input.member_id,
                &round,
                &input.request,
                &input.assigned.join(","),
                &ids(&input.to_review),
                &ids(&input.to_inspect),
            ],
        )
    }
}

/// The JSON text of a draft, pretty-printed with `responseType` first, as models tend to write it.
fn render(draft: &Draft) -> String {
    match draft {
        Draft::Context(requests) => pretty(&WireAnswer::<()>::RequestContext {
            context_requests: requests.clone(),
        }),
        Draft::Halt(halt) => pretty(&WireAnswer::<()>::Halt { halt: halt.clone() }),
        Draft::Final(out) => render_final(out),
    }
}

fn render_final(out: &FinalOutput) -> String {
    match out {
        FinalOutput::Bootstrap(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::Reflect(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::PlanAssign(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::Write(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::PeerReview(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::Inspection(o) => pretty(&WireAnswer::FinalOutput(o)),
        FinalOutput::Presentation(o) => pretty(&WireAnswer::FinalOutput(o)),
    }
}

fn pretty<T: Serialize>(value: &T) -> String {
    // The schema types serialise infallibly (strings, numbers, maps with string keys). Compact,
    // then indented: the compact writer is already compiled for these types (see `pretty_json`).
    match serde_json::to_string(value) {
        Ok(compact) => roundtable_engine::text::pretty_json(&compact),
        Err(e) => format!("{{\"error\": \"{e}\"}}"),
    }
}
