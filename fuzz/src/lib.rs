//! What the fuzz targets share: real sessions of every kind, played by the demo model and
//! caught just before each call is answered, and the seed inputs written from them.
//!
//! A target reaches deep only when its input starts somewhere real: a model answer means little
//! without the call it answers, and an imported file little without a log that replays. So the
//! targets start from these positions and seeds, and libFuzzer mutates from there.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::path::Path;

use roundtable_core::engine::{CallKind, Engine, ModelRef, Status};
use roundtable_core::protocol::dialectic::{
    DialecticConfig, DialecticSession, Mode, ResponseStyle,
};
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingSession};
use roundtable_core::protocol::team::{TeamConfig, TeamSession};
use roundtable_core::session::Session;

/// A session with one call outstanding, and what the demo model answered to it.
pub struct Position {
    /// The session just before the answer.
    pub session: Session,
    /// The outstanding call.
    pub call_id: String,
    /// `team`, `meeting` or `dialectic`.
    pub kind: &'static str,
    /// The call's step.
    pub step: &'static str,
    /// The clock value to submit at.
    pub now: u64,
    /// The demo model's answer (a seed).
    pub demo_answer: String,
}

/// How many positions are kept per (kind, step, first call or repair): enough to see each step
/// early and late in a session, few enough that one input byte picks among them.
const PER_STEP: usize = 3;

fn demo_ref() -> ModelRef {
    ModelRef {
        provider: "demo".into(),
        model: "demo-1".into(),
    }
}

/// Plays `engine` to its end on the kind's demo model, keeping positions along the way.
fn record(
    engine: impl Into<Engine>,
    kind: &'static str,
    out: &mut Vec<Position>,
    sessions: &mut Vec<Session>,
) {
    let mut engine: Engine = engine.into();
    let wrap = |e: Engine| Session::from_engine(e).expect("a kind this build registers");
    let mut seen: BTreeMap<(&'static str, bool), usize> = BTreeMap::new();
    let mut now = 1u64;
    for _ in 0..600 {
        now += 1;
        match engine.status().clone() {
            Status::Draft => engine.start(now).expect("a draft starts"),
            Status::Running => {
                let calls = engine.calls_due();
                if calls.is_empty() {
                    break;
                }
                for call in calls {
                    let reply = engine.state().demo_answer(&call, &call.envelope);
                    let step = (engine.info().step_name)(call.step);
                    let count = seen
                        .entry((step, call.kind == CallKind::Repair))
                        .or_default();
                    if *count < PER_STEP {
                        *count += 1;
                        out.push(Position {
                            session: wrap(engine.clone()),
                            call_id: call.id.clone(),
                            kind,
                            step,
                            now,
                            demo_answer: reply.text.clone(),
                        });
                    }
                    now += 1;
                    engine
                        .submit(&call.id, &reply.text, Some(reply.engine_usage()), now)
                        .expect("the demo answer is taken");
                }
            }
            Status::AwaitingPerson { halt, .. } => {
                let answer = halt
                    .options()
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "Go ahead as you think best.".into());
                engine
                    .answer_halt(&answer, now)
                    .expect("the halt is answered");
            }
            Status::Done | Status::Paused { .. } => break,
        }
        if matches!(engine.status(), Status::Running) && engine.events().len() % 40 == 0 {
            sessions.push(wrap(engine.clone()));
        }
    }
    sessions.push(wrap(engine));
}

struct Played {
    positions: Vec<Position>,
    sessions: Vec<Session>,
}

/// Played once per thread (sessions hold a cell, so they are not `Sync`; libFuzzer runs one
/// thread) and kept for the process's life.
fn played() -> &'static Played {
    thread_local! {
        static PLAYED: OnceCell<&'static Played> = const { OnceCell::new() };
    }
    PLAYED.with(|cell| *cell.get_or_init(|| Box::leak(Box::new(play_every_kind()))))
}

fn play_every_kind() -> Played {
    {
        let mut positions = Vec::new();
        let mut sessions = Vec::new();
        let team = TeamConfig::standard(
            "Plan a garden party for 40 guests on a budget of 500 euros.",
            2,
            true,
            true,
            demo_ref(),
        );
        record(
            TeamSession::new(team, 0).expect("a valid team"),
            "team",
            &mut positions,
            &mut sessions,
        );
        let meeting = MeetingConfig::standard(
            "Pick a database for the notes app.\nWe have 3 weeks and £200 a month.",
            &[
                ("engineer-1", "Ana", "Backend engineer"),
                ("designer-1", "Bo", "Product designer"),
                ("pm-1", "Cy", "Product manager"),
            ],
            demo_ref(),
        );
        record(
            MeetingSession::new(meeting, 0).expect("a valid meeting"),
            "meeting",
            &mut positions,
            &mut sessions,
        );
        // The dialectic: a council workflow, and a single shot held to a schema of the person's
        // (the answer's `result` walked against it at run time).
        let mut dialectics = DialecticConfig::demos(demo_ref());
        dialectics.truncate(1);
        let mut single = DialecticConfig::standard(
            "Should the city library open on Sundays?",
            ResponseStyle::Json,
            Mode::SingleShot,
            false,
            demo_ref(),
        );
        single.response_schema = Some(serde_json::json!({
            "type": "object",
            "properties": {
                "verdict": {"type": "string", "enum": ["yes", "no", "trial"]},
                "reasons": {"type": "array", "items": {"type": "string"}, "minItems": 1}
            },
            "required": ["verdict", "reasons"],
            "additionalProperties": false
        }));
        dialectics.push(single);
        for config in dialectics {
            record(
                DialecticSession::new(config, 0).expect("a valid dialectic"),
                "dialectic",
                &mut positions,
                &mut sessions,
            );
        }
        let names: Vec<String> = positions
            .iter()
            .map(|p| format!("{} {}", p.kind, p.step))
            .collect();
        eprintln!(
            "answer positions ({}): {}",
            positions.len(),
            names.join(", ")
        );
        Played {
            positions,
            sessions,
        }
    }
}

/// Every kept position, team first. At most 128, so that the low seven bits of a byte pick one.
pub fn answer_positions() -> &'static [Position] {
    let positions = &played().positions;
    &positions[..positions.len().min(128)]
}

/// Sessions of every kind at several points (running and finished), for the import seeds.
pub fn sample_sessions() -> &'static [Session] {
    &played().sessions
}

/// Writes `seeds` as files `seed-N` into the directory named by `RT_FUZZ_SEED_DIR`, when it is
/// set (`scripts/fuzz.sh` sets it on a target's first run); does nothing otherwise.
pub fn write_seeds_if_asked(seeds: impl FnOnce() -> Vec<Vec<u8>>) {
    let Some(dir) = std::env::var_os("RT_FUZZ_SEED_DIR") else {
        return;
    };
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("the seed directory can be made");
    for (n, seed) in seeds().into_iter().enumerate() {
        std::fs::write(dir.join(format!("seed-{n}")), seed).expect("a seed can be written");
    }
}

/// The answer target's seeds: each position's demo answer, behind the byte that picks it.
pub fn answer_seeds() -> Vec<Vec<u8>> {
    answer_positions()
        .iter()
        .enumerate()
        .map(|(n, p)| {
            let mut seed = vec![n as u8];
            seed.extend_from_slice(p.demo_answer.as_bytes());
            seed
        })
        .collect()
}

/// The session file's text with its checksum recomputed over its events as written (compact),
/// so that a mutated log reaches the checks behind the checksum. `None` when the text is not a
/// JSON object with events.
pub fn reseal(text: &str) -> Option<String> {
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    let events = value.get("events")?.to_string();
    value["checksum"] = roundtable_core::export::checksum_of_text(&events).into();
    Some(value.to_string())
}

/// Files under `core/tests/<dir>` (recursively) no larger than `max` bytes.
fn test_files(dir: &str, max: u64) -> Vec<Vec<u8>> {
    fn walk(dir: &Path, max: u64, out: &mut Vec<Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, max, out);
            } else if path.metadata().map(|m| m.len() <= max).unwrap_or(false) {
                if let Ok(bytes) = std::fs::read(&path) {
                    out.push(bytes);
                }
            }
        }
    }
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests");
    walk(&root.join(dir), max, &mut out);
    out
}

/// The validator's seeds: the fixture answers of every team step, valid and invalid.
pub fn validate_seeds() -> Vec<Vec<u8>> {
    test_files("fixtures", 64 * 1024)
}

/// The import target's seeds: exported files of the sample sessions and the test suite's small
/// session files, each behind a mode byte (0: as is, 1: re-sealed).
pub fn import_seeds() -> Vec<Vec<u8>> {
    let mut files: Vec<Vec<u8>> = sample_sessions()
        .iter()
        .map(|s| roundtable_core::export::to_file(s, 1_700_000_000_000).into_bytes())
        .collect();
    files.extend(test_files("files", 256 * 1024));
    files
        .into_iter()
        .flat_map(|f| {
            [0u8, 1].map(|mode| {
                let mut seed = vec![mode];
                seed.extend_from_slice(&f);
                seed
            })
        })
        .collect()
}

/// The share-link target's seeds: real links to the sample sessions (mode 0), their deflated
/// bytes (mode 1) and their files (mode 2).
pub fn share_link_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for s in sample_sessions() {
        let file = roundtable_core::export::to_file(s, 1_700_000_000_000).into_bytes();
        let deflated = miniz_oxide::deflate::compress_to_vec(&file, 6);
        let link = roundtable_core::share_link::encode(&deflated);
        for (mode, body) in [(0u8, link.into_bytes()), (1, deflated), (2, file)] {
            let mut seed = vec![mode];
            seed.extend_from_slice(&body);
            seeds.push(seed);
        }
    }
    seeds
}

/// The Markdown target's seeds: the hostile corpus the renderer's tests use, one document each.
pub fn markdown_seeds() -> Vec<Vec<u8>> {
    let hostile = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/files/hostile-markdown.json"),
    )
    .expect("the hostile corpus");
    let docs: Vec<String> = serde_json::from_str(&hostile).expect("a list of documents");
    docs.into_iter().map(String::into_bytes).collect()
}
