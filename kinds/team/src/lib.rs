//! The team session of specs `000` and `003`: a chair, operatives, an inspector and an envoy
//! working in rounds on a tree of products.
//!
//! [`TeamState`] is the team's state and implements [`Protocol`]: its fold applies the team's part
//! of each event (a valid output changes the tree, the assignments, the reviews; the person's
//! edits), and its rules decide who acts next and what an answer may change. The engine
//! ([`roundtable_engine::engine`]) owns the rest: calls, repairs, context counters, halts, pauses, limits.
//!
//! A round is Reflect (members who wrote last round) → PlanAssign (chair) → Write (assignees) →
//! PeerReview (operatives, on others' new versions) → Inspection (inspector, or the chair). Steps
//! with nobody to act are skipped. A `halt done` (or the person's wrap-up) ends the rounds and the
//! envoy (or the chair) presents.

pub mod answer_schema;
pub mod check;
pub mod config;
pub mod demo;
pub mod envelope;
pub mod examples;
pub(crate) mod ids;
pub mod migrate;
pub mod prompt;
#[cfg(test)]
mod provider_schema_tests;
pub mod report;
#[rustfmt::skip]
mod shape;
#[cfg(test)]
mod shape_gen;
pub mod tree;
pub mod view;
pub mod wire;

use roundtable_engine::order::Collect as _;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use self::check::{validate_step_with, Known, RepairPrompt as _};
pub use self::config::{Charter, ConfigError, Member, TeamConfig, TeamRole};
use self::prompt::{
    ActivityItem, ActivityKind, AssessmentView, ContextSlice, Envelope, ReflectionView, RemarkView,
};
use crate::tree::{ProductStatus, ProductTree, TreeError, TreeProblem, VersionDraft, ROOT_ID};
use crate::wire::{
    AttachedContext, CollabOutput, ContextNeed, ContextRequest, Directive, FinalOutput, HaltType,
    OperativeDomain, PresentationMessage, RemarkOutput, Step, StepAnswer, TreeOperation,
};
use roundtable_engine::engine::{
    CallRecord, ChatRole, Core, DemoReply, EngineEdit, Event, EventKind, Findings, FoldError,
    IdChoice, Judgement, JudgementOf, MemberChange, Message, ModelRef, Move, MoveOf, PersonAsk,
    Protocol, Settings, StoredCall,
};
use roundtable_engine::text::{cut, one_line, wire_word};
use roundtable_engine::validate::{self, Report, Violation};

/// A team session: the engine driving the team protocol.
pub type TeamSession = roundtable_engine::engine::KindEngine<TeamState>;

/// A person's edit of a team session (besides the limits, which the engine owns).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum PersonEdit {
    /// Replaces the mission charter.
    Charter {
        /// The new charter.
        charter: Charter,
    },
    /// Accepts a version of a product, as the chair would.
    AcceptVersion {
        /// Product id.
        product_id: String,
        /// Version id.
        version_id: String,
    },
    /// Rejects the latest version of a product with a reason the next writer sees.
    RejectVersion {
        /// Product id.
        product_id: String,
        /// Why.
        reason: String,
    },
    /// A remark to the chair, shown in its next prompt.
    RemarkToChair {
        /// The remark.
        content: String,
    },
    /// A member's provider and model, or its persona, changed (a fork's what-if).
    Member(MemberChange),
}
roundtable_engine::tagged::tagged!([] PersonEdit, tag = "edit");

impl From<PersonEdit> for EngineEdit {
    fn from(edit: PersonEdit) -> Self {
        EngineEdit::of_kind(edit)
    }
}

/// Why a team session cannot go on until the person acts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum TeamBlock {
    /// The charter lacks a mission, objectives or constraints; edit it to go on.
    MissingCharter,
}
roundtable_engine::tagged::tagged!([] TeamBlock, tag = "reason");

/// One assignment of one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Assignment {
    /// Round.
    pub round: u32,
    /// Product id.
    pub product_id: String,
    /// Member id.
    pub assignee: String,
    /// The directive.
    pub directive: Directive,
    /// Attached context.
    pub attached: Vec<AttachedContext>,
}

/// One version written, with when and at which step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    /// Round.
    pub round: u32,
    /// Step (Write, or PlanAssign for the chair's versions).
    pub step: Step,
    /// Author.
    pub member: String,
    /// Product id.
    pub product_id: String,
    /// Version id.
    pub version_id: String,
}

/// The whole state of a team session: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamState {
    /// The engine's part: status, round, step, calls, halts, tokens, limits.
    pub core: Core,
    /// Team name.
    pub team_name: String,
    /// Team description.
    pub team_description: String,
    /// The person's request.
    pub request: String,
    /// The team (personas as Bootstrap and overrides left them).
    pub members: Vec<Member>,
    /// Operative domains.
    pub domains: BTreeMap<String, OperativeDomain>,
    /// The charter.
    pub charter: Option<Charter>,
    /// The product tree.
    pub tree: ProductTree,
    /// Every assignment.
    pub assignments: Vec<Assignment>,
    /// Every version written.
    pub written: Vec<Written>,
    /// Every review and inspection.
    pub assessments: Vec<AssessmentView>,
    /// Every reflection, with its round.
    pub reflections: Vec<(u32, ReflectionView)>,
    /// Every remark.
    pub remarks: Vec<RemarkView>,
    /// Bootstrap's missing details.
    pub missing_details: Vec<String>,
    /// Activity lines, chronological.
    pub activity: Vec<ActivityItem>,
    /// The presentation.
    pub presentation: Vec<PresentationMessage>,
    /// Context slices served to each member at the current step.
    pub served: BTreeMap<String, Vec<ContextSlice>>,
    /// The ids answers may name, kept between answers that do not change the tree's ids.
    #[serde(skip)]
    known: KnownCache,
}

/// A cache of [`TeamState::known`], not part of the state's identity: two states that differ
/// only in what they cached are equal, and a clone starts empty.
#[derive(Debug, Default)]
struct KnownCache(std::sync::Mutex<Option<KnownEntry>>);

impl Clone for KnownCache {
    fn clone(&self) -> Self {
        KnownCache::default()
    }
}

/// [`TeamState::known_now`]'s answer: the cache, held while it is read.
struct KnownNow<'a>(std::sync::MutexGuard<'a, Option<KnownEntry>>);

impl std::ops::Deref for KnownNow<'_> {
    type Target = Known;

    fn deref(&self) -> &Known {
        &self.0.as_ref().expect("filled by known_now").known
    }
}

/// The cached ids and what of the tree they were listed from.
#[derive(Debug, Clone)]
struct KnownEntry {
    /// Which products were live (by index): ids are known only for live products.
    live: Vec<bool>,
    /// How many versions and collabs there were (both only ever grow).
    versions: usize,
    collabs: usize,
    known: Known,
}

impl PartialEq for KnownCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl TeamState {
    /// The state of a new session with this config (before its first event is folded).
    fn new(config: &TeamConfig) -> TeamState {
        TeamState {
            core: Core::new(config.settings.clone()),
            team_name: config.team_name.clone(),
            team_description: config.team_description.clone(),
            request: config.request.clone(),
            members: config.members.clone(),
            domains: BTreeMap::new(),
            charter: config.charter.clone(),
            tree: ProductTree::new(&config.team_name),
            assignments: Vec::new(),
            written: Vec::new(),
            assessments: Vec::new(),
            reflections: Vec::new(),
            remarks: Vec::new(),
            missing_details: Vec::new(),
            activity: Vec::new(),
            presentation: Vec::new(),
            served: BTreeMap::new(),
            known: KnownCache::default(),
        }
    }

    /// The limits.
    pub fn settings(&self) -> &Settings {
        &self.core.settings
    }

    /// The current round (0 = Bootstrap).
    pub fn round(&self) -> u32 {
        self.core.round
    }

    /// The member with this id.
    pub fn member(&self, id: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    /// The member who inspects: the inspector, or the chair when there is none.
    pub fn inspector_id(&self) -> &str {
        self.role_or_chair(TeamRole::Inspector)
    }

    /// The member who presents: the envoy, or the chair when there is none.
    pub fn presenter_id(&self) -> &str {
        self.role_or_chair(TeamRole::Envoy)
    }

    fn role_or_chair(&self, role: TeamRole) -> &str {
        self.members
            .iter()
            .find(|m| m.team_role == role)
            .map(|m| m.id.as_str())
            .unwrap_or("chair")
    }

    /// The calls of one member at one step of one round, oldest first: the first ask, then each
    /// re-ask after served context or a repair — one transcript thread for the UI.
    pub fn calls_of(&self, member: &str, round: u32, step: Step) -> Vec<&CallRecord> {
        self.core.thread(member, round, Self::step_id(step))
    }

    /// The ids an answer may name: the tree's plus every member and `user-1`.
    pub fn known(&self) -> Known {
        let mut known = self.tree.known();
        known.members = self.members.iter().map(|m| m.id.clone()).to_set();
        known.members.insert("user-1".into());
        known
    }

    /// Who may be given work (own or write a product): the operatives, or the chair of a team
    /// that has none.
    pub fn workers(&self) -> BTreeSet<&str> {
        let of = |role: TeamRole| -> BTreeSet<&str> {
            self.members
                .iter()
                .filter(|m| m.team_role == role)
                .map(|m| m.id.as_str())
                .to_set()
        };
        let operatives = of(TeamRole::Operative);
        if operatives.is_empty() {
            of(TeamRole::Chair)
        } else {
            operatives
        }
    }

    /// [`TeamState::known`], kept between answers: the ids of versions and collabs written since,
    /// and of products added since, are added to it (a 1,000-product tree takes ~0.3 ms to list
    /// whole, a Write's two versions microseconds to add); a product removed or restored lists
    /// it whole again.
    fn known_now(&self) -> KnownNow<'_> {
        let tree = &self.tree;
        let live: Vec<bool> = tree
            .products()
            .iter()
            .map(|p| p.status != ProductStatus::Removed)
            .collect();
        let (versions, collabs) = (tree.versions().len(), tree.collabs().len());
        let mut cache = self.known.0.lock().unwrap_or_else(|e| e.into_inner());
        let grown = cache.as_ref().is_some_and(|c| {
            live.starts_with(&c.live) && versions >= c.versions && collabs >= c.collabs
        });
        match cache.as_mut() {
            Some(c) if grown => {
                if c.live.len() != live.len() || c.versions != versions || c.collabs != collabs {
                    let known = &mut c.known;
                    for (p, _) in tree.products()[c.live.len()..]
                        .iter()
                        .zip(&live[c.live.len()..])
                        .filter(|(_, live)| **live)
                    {
                        known.products.insert(p.id.clone());
                    }
                    known
                        .versions
                        .extend(tree.versions()[c.versions..].iter().map(|v| v.id.clone()));
                    known
                        .collabs
                        .extend(tree.collabs()[c.collabs..].iter().map(|x| x.id.clone()));
                    (c.live, c.versions, c.collabs) = (live, versions, collabs);
                }
            }
            _ => {
                *cache = Some(KnownEntry {
                    live,
                    versions,
                    collabs,
                    known: self.known(),
                })
            }
        }
        KnownNow(cache)
    }

    /// This round's assignments.
    pub fn assignments_of_round(&self, round: u32) -> impl Iterator<Item = &Assignment> {
        self.assignments.iter().filter(move |a| a.round == round)
    }

    /// Versions written in a round, in writing order.
    pub fn written_in(&self, round: u32) -> impl Iterator<Item = &Written> {
        self.written.iter().filter(move |w| w.round == round)
    }

    /// The versions `member` should look at in PeerReview (others' versions of this round) or,
    /// for the inspector at Inspection, every version of this round. Only versions still latest.
    pub fn to_review(&self, member: &str, step: Step) -> Vec<&Written> {
        self.written_in(self.core.round)
            .filter(|w| step == Step::Inspection || w.member != member)
            .filter(|w| {
                self.tree.product(&w.product_id).is_some_and(|p| {
                    p.status != ProductStatus::Removed
                        && p.latest_version() == Some(w.version_id.as_str())
                })
            })
            .collect()
    }

    /// The members who take part in `step` of the current round (in team order).
    pub fn members_for(&self, step: Step) -> Vec<String> {
        let round = self.core.round;
        let in_team_order = |set: BTreeSet<&str>| -> Vec<String> {
            self.members
                .iter()
                .filter(|m| set.contains(m.id.as_str()))
                .map(|m| m.id.clone())
                .collect()
        };
        match step {
            Step::Bootstrap | Step::PlanAssign => vec!["chair".into()],
            Step::Reflect => in_team_order(
                self.written
                    .iter()
                    .filter(|w| w.round + 1 == round && w.step == Step::Write)
                    .map(|w| w.member.as_str())
                    .to_set(),
            ),
            Step::Write => in_team_order(
                self.assignments_of_round(round)
                    .map(|a| a.assignee.as_str())
                    .to_set(),
            ),
            Step::PeerReview => self
                .members
                .iter()
                .filter(|m| m.team_role == TeamRole::Operative)
                .filter(|m| !self.to_review(&m.id, Step::PeerReview).is_empty())
                .map(|m| m.id.clone())
                .collect(),
            Step::Inspection => {
                if self.to_review("", Step::Inspection).is_empty() {
                    Vec::new()
                } else {
                    vec![self.inspector_id().to_string()]
                }
            }
            Step::Presentation => vec![self.presenter_id().to_string()],
        }
    }

    /// The current step (Bootstrap before the first one).
    fn step_now(&self) -> Step {
        self.core.step.map_or(Step::Bootstrap, Self::step_of)
    }

    /// Folds the team's part of one event: the outputs, the person's edits and answers, the
    /// activity lines, the slices served at this step.
    fn fold_team(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        let (round, step) = (self.core.round, self.step_now());
        match &event.kind {
            EventKind::StepStarted { .. } | EventKind::RoundStarted { .. } => self.served.clear(),
            EventKind::ContextServed {
                call_id, slices, ..
            } => {
                let member = self.core.answered_member(call_id)?.to_string();
                self.served
                    .entry(member)
                    .or_default()
                    .extend(slices.get::<Vec<ContextSlice>>().iter().cloned());
            }
            EventKind::HaltRaised { call_id, halt, .. } => {
                let member = self.core.answered_member(call_id)?.to_string();
                self.served.remove(&member);
                self.activity.push(ActivityItem {
                    round,
                    step,
                    who: member,
                    what: format!("asked the person: {}", one_line(halt.message(), 160)),
                    about: ActivityKind::Question,
                });
            }
            EventKind::Applied {
                call_id, output, ..
            } => {
                let member = self.core.answered_member(call_id)?.to_string();
                return self.apply_output(&member, output.get());
            }
            EventKind::PersonAnswered { answer, .. } => self.activity.push(ActivityItem {
                round,
                step,
                who: "user-1".into(),
                what: format!("answered: {}", one_line(answer, 160)),
                about: ActivityKind::Answer,
            }),
            EventKind::PersonEdited { edit } => {
                let (about, what) = match edit {
                    EngineEdit::Protocol(edit) => self.apply_edit(edit.get())?,
                    EngineEdit::Settings { settings } => (
                        ActivityKind::Other,
                        format!(
                            "set the limits: {} rounds, budget {}{}",
                            settings.max_rounds,
                            settings
                                .token_budget
                                .map_or("none".to_string(), |b| b.to_string()),
                            settings.money_budget.map_or(String::new(), |b| format!(
                                ", money budget {}",
                                roundtable_engine::cost::usd(b)
                            ))
                        ),
                    ),
                    EngineEdit::Title { title } if title.is_empty() => (
                        ActivityKind::Other,
                        "gave the session back its first title".to_string(),
                    ),
                    EngineEdit::Title { title } => (
                        ActivityKind::Other,
                        format!("renamed the session “{title}”"),
                    ),
                };
                self.activity.push(ActivityItem {
                    round,
                    step,
                    who: "user-1".into(),
                    what,
                    about,
                });
            }
            EventKind::RoundsEnded { by, message, .. } => self.activity.push(ActivityItem {
                round,
                step,
                who: by.clone(),
                what: match message {
                    Some(m) => format!("declared the work done: {}", one_line(m, 160)),
                    None => "ended the rounds".into(),
                },
                about: ActivityKind::Other,
            }),
            EventKind::Created { .. }
            | EventKind::Started { .. }
            | EventKind::CallIssued { .. }
            | EventKind::AnswerReceived { .. }
            | EventKind::AnswerRefused { .. }
            | EventKind::AnswerInvalid { .. }
            | EventKind::FellBack { .. }
            | EventKind::Paused { .. }
            | EventKind::Resumed { .. }
            | EventKind::EffectIssued { .. }
            | EventKind::EffectDone { .. }
            | EventKind::CallRetried { .. }
            | EventKind::Finished
            | EventKind::Forked { .. } => {}
        }
        Ok(Vec::new())
    }

    /// Applies a person's edit; returns the activity line and what it is about.
    fn apply_edit(&mut self, edit: &PersonEdit) -> Result<(ActivityKind, String), FoldError> {
        Ok(match edit {
            PersonEdit::Charter { charter } => {
                self.charter = Some(charter.clone());
                (ActivityKind::Other, "edited the charter".to_string())
            }
            PersonEdit::AcceptVersion {
                product_id,
                version_id,
            } => {
                self.tree
                    .accept(product_id, version_id)
                    .map_err(tree_refused)?;
                (
                    ActivityKind::Accepted,
                    format!("accepted {version_id} of {product_id}"),
                )
            }
            PersonEdit::RejectVersion { product_id, reason } => {
                self.tree.reject(product_id, reason).map_err(tree_refused)?;
                (
                    ActivityKind::Rejected,
                    format!(
                        "rejected the latest version of {product_id}: {}",
                        one_line(reason, 120)
                    ),
                )
            }
            PersonEdit::RemarkToChair { content } => {
                self.remarks.push(RemarkView {
                    round: self.core.round,
                    from: "user-1".into(),
                    recipients: vec!["chair".into()],
                    remark_type: "note".into(),
                    content: content.clone(),
                });
                (
                    ActivityKind::Remark,
                    format!("told the chair: {}", one_line(content, 160)),
                )
            }
            PersonEdit::Member(change) => {
                let member = self
                    .members
                    .iter_mut()
                    .find(|m| m.id == change.member)
                    .ok_or_else(|| FoldError::Unexpected(format!("no member {}", change.member)))?;
                if let Some(model) = &change.model {
                    member.model = model.clone();
                }
                if let Some(persona) = &change.persona {
                    member.persona = persona.clone();
                }
                (ActivityKind::Other, change.words())
            }
        })
    }

    /// Refuses an output that could not be applied whole, before anything changes: every tree
    /// change that can fail is checked here against the state as it is, so
    /// [`TeamState::apply_output`] never stops halfway (the engine takes no copy to put back).
    /// Bootstrap and PlanAssign are all-or-nothing on their own (Bootstrap's products go in
    /// together or not at all; PlanAssign's tree changes, whose later parts depend on the
    /// earlier, are undone from a [`crate::tree::Mark`] when one fails); a Presentation changes
    /// nothing that can refuse.
    fn check_applies(&self, member: &str, output: &FinalOutput) -> Result<(), FoldError> {
        let collabs = match output {
            FinalOutput::Reflect(r) => {
                for refl in &r.reflections {
                    if let Some(v) = self.reflected_version(member, &refl.refers_to_product) {
                        if self.tree.version(v).is_none() {
                            return Err(
                                TreeError::Change(TreeProblem::UnknownVersion(v.into())).into()
                            );
                        }
                    }
                }
                &r.collabs
            }
            FinalOutput::Write(w) => {
                for wv in &w.versions {
                    self.tree.check_live(&wv.product_id)?;
                }
                &w.collabs
            }
            FinalOutput::PeerReview(p) => &p.collabs,
            FinalOutput::Inspection(i) => &i.collabs,
            FinalOutput::Bootstrap(_)
            | FinalOutput::PlanAssign(_)
            | FinalOutput::Presentation(_) => return Ok(()),
        };
        self.tree.check_collabs(member, collabs)?;
        Ok(())
    }

    /// The version `member` wrote of `product_id` last round: the one its reflection is about.
    fn reflected_version(&self, member: &str, product_id: &str) -> Option<&str> {
        let round = self.core.round;
        self.written
            .iter()
            .rev()
            .find(|w| w.member == member && w.product_id == product_id && w.round + 1 == round)
            .map(|w| w.version_id.as_str())
    }

    /// Applies a valid, allowed final output of `member` at the current step, all of it or (with
    /// an `Err`) none of it: [`TeamState::check_applies`] first.
    fn apply_output(
        &mut self,
        member: &str,
        output: &FinalOutput,
    ) -> Result<Vec<String>, FoldError> {
        self.check_applies(member, output)?;
        let round = self.core.round;
        let step = output.step();
        use ActivityKind as K;
        let mut changes: Vec<(ActivityKind, String)> = Vec::new();
        match output {
            FinalOutput::Bootstrap(b) => {
                let ids = self.tree.add_initials(&b.initial_products)?;
                let added: Vec<String> = ids
                    .iter()
                    .zip(&b.initial_products)
                    .map(|(id, initial)| format!("added {id} \"{}\"", initial.name))
                    .collect();
                self.charter = Some(Charter {
                    mission: b.mission.clone(),
                    objectives: b.objectives.clone(),
                    constraints: b.constraints.clone(),
                });
                changes.push((K::Setup, "set the mission charter".to_string()));
                changes.extend(added.into_iter().map(|a| (K::Setup, a)));
                for (id, persona) in &b.personas {
                    if let Some(m) = self.members.iter_mut().find(|m| &m.id == id) {
                        m.persona = persona.clone();
                    }
                }
                for (id, domain) in &b.operative_domains {
                    self.domains.insert(id.clone(), domain.clone());
                }
                if let Some(missing) = &b.missing_details {
                    self.missing_details.extend(missing.iter().cloned());
                }
            }
            FinalOutput::Reflect(r) => {
                for refl in &r.reflections {
                    let version = self
                        .reflected_version(member, &refl.refers_to_product)
                        .map(str::to_string);
                    let dod = dod_word(refl.dod_status);
                    if let Some(v) = version {
                        self.tree.set_reflection_note(
                            &v,
                            format!(
                                "Definition of done {}. Next: {}",
                                dod_in_words(refl.dod_status),
                                refl.next_version_delta
                            ),
                        )?;
                        changes.push((
                            K::Reflection {
                                product_id: refl.refers_to_product.clone(),
                            },
                            format!("reflected on {v} of {}", refl.refers_to_product),
                        ));
                    }
                    self.reflections.push((
                        round,
                        ReflectionView {
                            by: member.to_string(),
                            product_id: refl.refers_to_product.clone(),
                            dod_status: dod.to_string(),
                            dod_gaps: refl.dod_gaps.clone().unwrap_or_default(),
                            feedback_responses: refl.feedback_responses.clone(),
                            next_version_delta: refl.next_version_delta.clone(),
                            blockers: refl.blockers.clone().unwrap_or_default(),
                        },
                    ));
                }
                self.add_collabs(member, step, &r.collabs, &mut changes)?;
                self.add_remarks(member, step, &r.remarks, &mut changes);
            }
            FinalOutput::PlanAssign(p) => {
                // Every tree change of the answer, or none: a failed one undoes those before it
                // from a mark (a copy of the products, not of every version's content).
                let mark = self.tree.mark();
                let planned = plan_tree(&mut self.tree, member, round, step, p, &mut changes);
                let (new_assignments, new_written) = match planned {
                    Ok(planned) => planned,
                    Err(e) => {
                        self.tree.roll_back(mark);
                        return Err(e);
                    }
                };
                self.assignments.extend(new_assignments);
                self.written.extend(new_written);
                self.add_remarks(member, step, &p.remarks, &mut changes);
                if let Some(o) = &p.bootstrap_overrides {
                    let charter = self.charter.get_or_insert_with(Charter::default);
                    if let Some(m) = &o.mission {
                        charter.mission = m.clone();
                        changes.push((K::Other, "changed the mission".into()));
                    }
                    if let Some(m) = &o.objectives {
                        charter.objectives = m.clone();
                        changes.push((K::Other, "changed the objectives".into()));
                    }
                    for (id, persona) in o.personas.iter().flatten() {
                        if let Some(m) = self.members.iter_mut().find(|m| &m.id == id) {
                            m.persona = persona.clone();
                            changes.push((K::Other, format!("rewrote the persona of {id}")));
                        }
                    }
                    for (id, patch) in o.operative_domains.iter().flatten() {
                        let d = self.domains.entry(id.clone()).or_insert(OperativeDomain {
                            responsibility: String::new(),
                            area: String::new(),
                        });
                        if let Some(r) = &patch.responsibility {
                            d.responsibility = r.clone();
                        }
                        if let Some(a) = &patch.area {
                            d.area = a.clone();
                        }
                        changes.push((K::Other, format!("changed the domain of {id}")));
                    }
                }
            }
            FinalOutput::Write(w) => {
                for wv in &w.versions {
                    let directive = self
                        .assignments_of_round(round)
                        .find(|a| a.product_id == wv.product_id && a.assignee == member)
                        .map(|a| a.directive.clone());
                    let v = self.tree.add_version(
                        &wv.product_id,
                        VersionDraft {
                            title: wv.new_version.content_title.clone(),
                            content: wv.new_version.content.clone(),
                            change_summary: wv.new_version.change_summary.clone(),
                            author: member.to_string(),
                            round,
                            directive,
                            reflection_note: None,
                        },
                    )?;
                    self.written.push(Written {
                        round,
                        step,
                        member: member.to_string(),
                        product_id: wv.product_id.clone(),
                        version_id: v.clone(),
                    });
                    changes.push((
                        K::Wrote {
                            version_id: v.clone(),
                        },
                        format!("wrote {v} of {}", wv.product_id),
                    ));
                }
                self.add_collabs(member, step, &w.collabs, &mut changes)?;
                self.add_remarks(member, step, &w.remarks, &mut changes);
            }
            FinalOutput::PeerReview(p) => {
                for r in &p.reviews {
                    self.assessments.push(AssessmentView {
                        round,
                        by: member.to_string(),
                        kind: "review".into(),
                        product_id: r.product_id.clone(),
                        version_id: r.version_id.clone(),
                        assessment: AssessmentView::review_word(r.assessment).into(),
                        summary: r.summary.clone(),
                    });
                    changes.push((
                        K::Review {
                            version_id: r.version_id.clone(),
                        },
                        format!(
                            "reviewed {} of {}: {}",
                            r.version_id,
                            r.product_id,
                            AssessmentView::review_word(r.assessment)
                        ),
                    ));
                }
                self.add_collabs(member, step, &p.collabs, &mut changes)?;
                self.add_remarks(member, step, &p.remarks, &mut changes);
            }
            FinalOutput::Inspection(i) => {
                for ins in &i.inspections {
                    let summary = ins
                        .findings
                        .iter()
                        .map(|f| {
                            format!(
                                "[{} {}] {} → {}",
                                wire_word(&f.category),
                                f.severity,
                                f.issue,
                                f.recommendation
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("; ");
                    self.assessments.push(AssessmentView {
                        round,
                        by: member.to_string(),
                        kind: "inspection".into(),
                        product_id: ins.product_id.clone(),
                        version_id: ins.version_id.clone(),
                        assessment: AssessmentView::inspection_word(ins.assessment).into(),
                        summary: if summary.is_empty() {
                            "no findings".into()
                        } else {
                            summary
                        },
                    });
                    changes.push((
                        K::Inspection {
                            version_id: ins.version_id.clone(),
                        },
                        format!(
                            "inspected {} of {}: {}",
                            ins.version_id,
                            ins.product_id,
                            AssessmentView::inspection_word(ins.assessment)
                        ),
                    ));
                }
                self.add_collabs(member, step, &i.collabs, &mut changes)?;
                self.add_remarks(member, step, &i.remarks, &mut changes);
            }
            FinalOutput::Presentation(p) => {
                self.presentation = p.messages.clone();
                changes.push((
                    K::Other,
                    format!(
                        "presented the result in {}",
                        roundtable_engine::text::count(p.messages.len(), "message", "messages")
                    ),
                ));
            }
        }
        let mut lines = Vec::with_capacity(changes.len());
        for (about, what) in changes {
            self.activity.push(ActivityItem {
                round,
                step,
                who: member.to_string(),
                what: what.clone(),
                about,
            });
            lines.push(what);
        }
        Ok(lines)
    }

    fn add_collabs(
        &mut self,
        member: &str,
        _step: Step,
        collabs: &[CollabOutput],
        changes: &mut Vec<(ActivityKind, String)>,
    ) -> Result<(), FoldError> {
        for c in collabs {
            let id = self.tree.add_collab(member, self.core.round, c)?;
            let what = format!(
                "commented {id} on {}: {}",
                c.refers_to_product,
                one_line(&c.shortest_summary, 120)
            );
            changes.push((ActivityKind::Collab { collab_id: id }, what));
        }
        Ok(())
    }

    fn add_remarks(
        &mut self,
        member: &str,
        _step: Step,
        remarks: &[RemarkOutput],
        changes: &mut Vec<(ActivityKind, String)>,
    ) {
        for r in remarks {
            self.remarks.push(RemarkView {
                round: self.core.round,
                from: member.to_string(),
                recipients: r.recipients.clone(),
                remark_type: serde_json::to_value(r.remark_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                content: r.content.clone(),
            });
            changes.push((
                ActivityKind::Remark,
                format!(
                    "remarked to {}: {}",
                    r.recipients.join(", "),
                    one_line(&r.content, 120)
                ),
            ));
        }
    }

    /// The steps of a working round in the order they run. Bootstrap (round 0) and the
    /// Presentation (after the last round) are outside it. [`Protocol::next_move`] walks it, and
    /// the app's progress bar reads it through [`TeamState::progress`].
    pub const ROUND_STEPS: [Step; 5] = [
        Step::Reflect,
        Step::PlanAssign,
        Step::Write,
        Step::PeerReview,
        Step::Inspection,
    ];

    /// How far the current round has got, in percent: the steps of [`TeamState::ROUND_STEPS`]
    /// before the current one, plus the share of its members who are done. Bootstrap and the
    /// Presentation count as one step each; 0 before the first step.
    pub fn progress(&self) -> u32 {
        let core = &self.core;
        let done = if core.slots.is_empty() {
            1.0
        } else {
            core.slots.iter().filter(|s| s.done).count() as f64 / core.slots.len() as f64
        };
        let share = match core.step.map(Self::step_of) {
            None => 0.0,
            Some(Step::Bootstrap | Step::Presentation) => done,
            Some(step) => {
                let i = Self::ROUND_STEPS
                    .iter()
                    .position(|s| *s == step)
                    .unwrap_or(0) as f64;
                (i + done) / Self::ROUND_STEPS.len() as f64
            }
        };
        (share * 100.0).round() as u32
    }
}

/// The definition-of-done status as a person reads it (the note beside a version).
/// The tree changes of a PlanAssign answer, applied to `tree` in order (operations, assignments,
/// acceptances, the chair's versions), with their words pushed to `changes`; the assignments and
/// versions written, for the state. On an `Err` some changes may have been made: the caller
/// undoes them ([`ProductTree::roll_back`]).
fn plan_tree(
    tree: &mut ProductTree,
    member: &str,
    round: u32,
    step: Step,
    p: &crate::wire::PlanAssignOutput,
    changes: &mut Vec<(ActivityKind, String)>,
) -> Result<(Vec<Assignment>, Vec<Written>), FoldError> {
    use ActivityKind as K;
    let mut new_assignments = Vec::new();
    let mut new_written = Vec::new();
    let applied = tree.apply(&p.tree_operations)?;
    for (i, op) in p.tree_operations.iter().enumerate() {
        changes.push((K::TreeChange, describe_op(op, &applied.new_ids, i)));
    }
    let resolve = |id: &str| -> String {
        applied
            .new_ids
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    };
    for a in &p.assignments {
        let pid = resolve(&a.product_id);
        tree.set_assignee(&pid, Some(a.assignee.clone()))?;
        new_assignments.push(Assignment {
            round,
            product_id: pid.clone(),
            assignee: a.assignee.clone(),
            directive: a.directive.clone(),
            attached: a.attached_context.clone().unwrap_or_default(),
        });
        changes.push((K::Assigned, format!("assigned {pid} to {}", a.assignee)));
    }
    for d in &p.acceptance {
        let pid = resolve(&d.product_id);
        match (d.accepted, &d.version_id) {
            (true, Some(v)) => {
                tree.accept(&pid, v)?;
                changes.push((K::Accepted, format!("accepted {v} of {pid}")));
            }
            (true, None) => {
                let latest = tree
                    .product(&pid)
                    .and_then(|p| p.latest_version().map(str::to_string))
                    .ok_or_else(|| {
                        FoldError::Unexpected(format!("{pid} has no version to accept"))
                    })?;
                tree.accept(&pid, &latest)?;
                changes.push((K::Accepted, format!("accepted {latest} of {pid}")));
            }
            (false, _) => {
                let reason = d
                    .rejection_reason
                    .clone()
                    .unwrap_or_else(|| "rejected by the chair".into());
                tree.reject(&pid, &reason)?;
                changes.push((K::Rejected, format!("rejected the latest version of {pid}")));
            }
        }
    }
    for cv in p.chair_versions.iter().flatten() {
        let pid = resolve(&cv.product_id);
        let v = tree.add_version(
            &pid,
            VersionDraft {
                title: tree
                    .product(&pid)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                content: cv.content.clone(),
                change_summary: cv.change_summary.clone(),
                author: member.to_string(),
                round,
                directive: None,
                reflection_note: None,
            },
        )?;
        new_written.push(Written {
            round,
            step,
            member: member.to_string(),
            product_id: pid.clone(),
            version_id: v.clone(),
        });
        changes.push((
            K::Wrote {
                version_id: v.clone(),
            },
            format!("wrote {v} of {pid}"),
        ));
    }
    Ok((new_assignments, new_written))
}

fn dod_in_words(s: crate::wire::DodStatus) -> &'static str {
    match s {
        crate::wire::DodStatus::Met => "met",
        crate::wire::DodStatus::PartiallyMet => "partly met",
        crate::wire::DodStatus::NotMet => "not met yet",
    }
}

fn dod_word(s: crate::wire::DodStatus) -> &'static str {
    match s {
        crate::wire::DodStatus::Met => "met",
        crate::wire::DodStatus::PartiallyMet => "partially_met",
        crate::wire::DodStatus::NotMet => "not_met",
    }
}

fn describe_op(op: &TreeOperation, new_ids: &BTreeMap<String, String>, _i: usize) -> String {
    match op {
        TreeOperation::Add {
            new_id,
            parent_id,
            product,
            ..
        } => format!(
            "added {} \"{}\" under {}",
            new_ids.get(new_id).map_or(new_id.as_str(), String::as_str),
            product.name,
            new_ids
                .get(parent_id)
                .map_or(parent_id.as_str(), String::as_str)
        ),
        TreeOperation::Remove { product_id, .. } => format!("removed {product_id}"),
        TreeOperation::Move {
            product_id,
            parent_id,
            ..
        } => format!(
            "moved {product_id} under {}",
            new_ids
                .get(parent_id)
                .map_or(parent_id.as_str(), String::as_str)
        ),
        TreeOperation::Update { product_id, .. } => format!("updated {product_id}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The protocol: who acts next, what a call says, what an answer may change.
// ---------------------------------------------------------------------------------------------

impl Protocol for TeamState {
    const KIND: &'static str = "team";
    const TITLE: &'static str = "Team session";
    type Config = TeamConfig;
    type Step = Step;
    const STEPS: &'static [Step] = &Step::ALL;
    type Envelope = Envelope;
    type Output = FinalOutput;
    type Ask = Vec<ContextRequest>;
    type Served = Vec<ContextSlice>;
    type Edit = PersonEdit;
    type Block = TeamBlock;

    fn request(&self) -> &str {
        &self.request
    }

    fn members(&self) -> Vec<roundtable_engine::engine::MemberInfo> {
        self.members
            .iter()
            .map(|m| roundtable_engine::engine::MemberInfo {
                id: m.id.clone(),
                name: m.name.clone(),
                model: m.model.clone(),
                persona: m.persona.clone(),
            })
            .collect()
    }

    fn progress(&self) -> u32 {
        TeamState::progress(self)
    }

    fn report_markdown(&self) -> String {
        report::markdown(self)
    }

    fn member_edit(change: MemberChange) -> PersonEdit {
        PersonEdit::Member(change)
    }

    fn what_if_of(edit: &PersonEdit) -> Option<roundtable_engine::engine::EditWhatIf<'_>> {
        match edit {
            PersonEdit::Member(change) => {
                Some(roundtable_engine::engine::EditWhatIf::Member(change))
            }
            PersonEdit::Charter { .. } => {
                Some(roundtable_engine::engine::EditWhatIf::Kind("a new charter"))
            }
            _ => None,
        }
    }

    fn migrate_log<S: AsRef<str>>(events: &[S]) -> Option<Vec<String>> {
        migrate::done_halts(events)
    }

    fn migrate_log_array(text: &str) -> Option<String> {
        migrate::done_halts_in_array(text)
    }

    fn create(config: &TeamConfig) -> Result<TeamState, String> {
        config.check().map_err(|e| e.to_string())?;
        Ok(TeamState::new(config))
    }

    fn settings(config: &TeamConfig) -> Settings {
        config.settings.clone()
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn step_wire(step: Step) -> &'static str {
        step.wire_name()
    }

    fn step_name(step: Step) -> &'static str {
        step.wire_name()
    }

    fn step_title(step: Step) -> &'static str {
        step.words()
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        self.member(member).map(|m| &m.model)
    }

    /// "Chair's plan, round 2", "Ana's writing, round 1": what the member does at the step (the
    /// step's title would name the chair twice).
    fn call_title(&self, member: &str, step: Step, round: u32) -> String {
        let what = match step {
            Step::Bootstrap => "set-up",
            Step::Reflect => "reflection",
            Step::PlanAssign => "plan",
            Step::Write => "writing",
            Step::PeerReview => "peer review",
            Step::Inspection => "inspection",
            Step::Presentation => "presentation",
        };
        let name = self.member_name(member);
        if round == 0 {
            format!("{name}'s {what}")
        } else {
            format!("{name}'s {what}, round {round}")
        }
    }

    fn next_move(&self) -> Move<TeamState> {
        const ROUND: [Step; 5] = TeamState::ROUND_STEPS;
        let core = &self.core;
        let charter_missing = self.charter.as_ref().is_none_or(|c| !c.is_complete());
        let step = |round: u32, step: Step, members: Vec<String>| {
            if step != Step::Bootstrap && charter_missing {
                MoveOf::Block(TeamBlock::MissingCharter)
            } else {
                MoveOf::Step(round, step, members)
            }
        };
        if core.rounds_ended {
            if core.step.map(Self::step_of) == Some(Step::Presentation) || self.charter.is_none() {
                return MoveOf::Finish;
            }
            return step(
                core.round,
                Step::Presentation,
                self.members_for(Step::Presentation),
            );
        }
        match (core.round, core.step) {
            (0, None) => step(0, Step::Bootstrap, vec!["chair".into()]),
            (0, Some(_)) => MoveOf::Round(1),
            (r, current) => {
                let from = match current.map(Self::step_of) {
                    None => 0,
                    Some(s) => ROUND
                        .iter()
                        .position(|x| *x == s)
                        .map_or(ROUND.len(), |i| i + 1),
                };
                for s in &ROUND[from..] {
                    let members = self.members_for(*s);
                    if !members.is_empty() {
                        return step(r, *s, members);
                    }
                }
                MoveOf::Round(r + 1)
            }
        }
    }

    fn still_blocked(&self, block: &TeamBlock) -> Option<String> {
        match block {
            TeamBlock::MissingCharter if self.charter.as_ref().is_none_or(|c| !c.is_complete()) => {
                Some("the mission charter needs a mission, objectives and constraints".into())
            }
            TeamBlock::MissingCharter => None,
        }
    }

    fn cannot_finish(&self) -> Option<String> {
        self.charter
            .as_ref()
            .is_none_or(|c| !c.is_complete())
            .then(|| "there is no complete charter yet; edit it or let Bootstrap run first".into())
    }

    fn envelope(&self, member: &str) -> Envelope {
        prompt::build_envelope(self, member, self.step_now())
    }

    fn first_messages(&self, envelope: &Envelope) -> Vec<Message> {
        let prompt = prompt::render_prompt(envelope);
        vec![
            Message::new(ChatRole::System, prompt.system),
            Message::new(ChatRole::User, prompt.user),
        ]
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<TeamState> {
        let options = validate::Options { truncated };
        let validated = {
            let known = self.known_now();
            validate_step_with(Self::step_of(call.step), raw, Some(&known), options)
        };
        match validated {
            Err(report) => JudgementOf::Invalid {
                findings: report.into(),
                fallback: None,
            },
            Ok(validated) => match validated.answer {
                StepAnswer::RequestContext { context_requests } => JudgementOf::WantsContext {
                    ask: context_requests,
                    warnings: validated.warnings,
                },
                StepAnswer::Halt { halt }
                    if Self::step_of(call.step) == Step::Bootstrap && halt.halt_type == HaltType::Done =>
                {
                    JudgementOf::Invalid {
                        findings: Findings {
                            step: call.step.wire().into(),
                            errors: vec![Violation::at(
                                "/halt/type".into(),
                                "Bootstrap cannot end the session: nothing has been planned or written yet".into(),
                                "\"question\"",
                                "\"done\"",
                                "ask the person a question, or answer with the charter and the initial products",
                            )],
                            warnings: validated.warnings,
                        },
                        fallback: None,
                    }
                }
                StepAnswer::Halt { halt } => match halt.halt_type {
                    // The chair declaring the work finished is the team's verdict: the rounds end
                    // and Presentation follows.
                    HaltType::Done => JudgementOf::EndRounds {
                        message: halt.message,
                        warnings: validated.warnings,
                    },
                    HaltType::Question => JudgementOf::Ask {
                        ask: PersonAsk::Question {
                            to: halt.to,
                            message: halt.message,
                            options: halt.options,
                        },
                        warnings: validated.warnings,
                    },
                },
                StepAnswer::FinalOutput { output } => {
                    let errors = check_output(self, &call.member, Self::step_of(call.step), &output);
                    if errors.is_empty() {
                        JudgementOf::Apply {
                            output,
                            warnings: validated.warnings,
                        }
                    } else {
                        JudgementOf::Invalid {
                            findings: Findings {
                                step: call.step.wire().into(),
                                errors,
                                warnings: validated.warnings,
                            },
                            fallback: None,
                        }
                    }
                }
            },
        }
    }

    fn serve(
        &self,
        member: &str,
        ask: &Vec<ContextRequest>,
        left: u32,
    ) -> (Vec<ContextSlice>, String) {
        let slices = serve_context(self, member, ask);
        let follow_up = prompt::follow_up_text(self.step_now(), &slices, left);
        (slices, follow_up)
    }

    fn repair_prompt(&self, step: Step, findings: &Findings) -> String {
        repair_report(step, findings).repair_prompt()
    }

    fn served_lines(served: &Vec<ContextSlice>) -> Vec<(String, String)> {
        served
            .iter()
            .map(|s| {
                (
                    format!(
                        "{} · {}",
                        s.product_id,
                        roundtable_engine::text::wire_word(&s.need)
                    ),
                    s.text.clone(),
                )
            })
            .collect()
    }

    fn refusal(&self, error: &FoldError) -> Violation {
        match error {
            FoldError::Refused {
                pointer,
                reason,
                expected,
                received,
            } => Violation {
                path: pointer.clone(),
                message: reason.clone(),
                expected: expected.clone(),
                received: received.clone(),
                hint: "fix this part using the ids and names in the current project structure"
                    .into(),
            },
            other => Violation {
                path: String::new(),
                message: format!("this change cannot be applied: {other}"),
                expected: "a change the product tree accepts".into(),
                received: String::new(),
                hint: "fix this part using the ids and names in the current project structure"
                    .into(),
            },
        }
    }

    fn check_edit(&self, edit: &PersonEdit) -> Result<(), String> {
        check_edit(self, edit)
    }

    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        self.fold_team(event)
    }

    fn id_choices(&self, call: &StoredCall) -> Vec<IdChoice> {
        id_choices(self, &call.member, Self::step_of(call.step))
    }

    fn demo_answer(&self, call: &StoredCall, envelope: &Envelope) -> DemoReply {
        let model = self.model_of(&call.member).map_or("", |m| m.model.as_str());
        crate::demo::DemoModel::variant(
            roundtable_engine::demo::rng::fnv1a(self.request.as_bytes()),
            model,
        )
        .answer_to(call, envelope)
        .into()
    }
}

/// The ids each place of `member`'s answer at `step` may name (spec `003`: prefer enumerated
/// ids), for providers that enforce a schema. Places that may name a `new-N` of the same answer
/// (tree operations, assignments) are left open: the validator judges those.
pub fn id_choices(s: &TeamState, member: &str, step: Step) -> Vec<IdChoice> {
    let known = s.known_now();
    let products: Vec<&str> = known.products.iter().map(String::as_str).collect();
    let versions: Vec<&str> = known.versions.iter().map(String::as_str).collect();
    let members: Vec<&str> = s.members.iter().map(|m| m.id.as_str()).collect();
    let mut recipients = members.clone();
    recipients.extend(
        ids::SPECIAL_RECIPIENTS
            .iter()
            .copied()
            .filter(|r| !members.contains(r)),
    );
    let collabs: Vec<&str> = known.collabs.iter().map(String::as_str).collect();
    let mut choices = vec![
        IdChoice::new("contextRequests/*/productId", products.clone()),
        IdChoice::new("collabs/*/refersToProduct", products.clone()),
        IdChoice::new("collabs/*/refersToVersion", versions.clone()),
        IdChoice::new("collabs/*/referencesProductIds/*", products.clone()),
        IdChoice::new("collabs/*/addresseeIds/*", members.clone()),
        IdChoice::new("collabs/*/respondingToCollabIds/*", collabs.clone()),
        IdChoice::new("remarks/*/recipients/*", recipients),
    ];
    let workers = s.workers();
    let reviewed = |choices: &mut Vec<IdChoice>, list: &str| {
        let targets = s.to_review(member, step);
        let products: BTreeSet<&str> = targets.iter().map(|w| w.product_id.as_str()).to_set();
        choices.push(IdChoice::new(&format!("{list}/*/productId"), products));
        choices.push(IdChoice::new(
            &format!("{list}/*/versionId"),
            targets.iter().map(|w| w.version_id.as_str()),
        ));
    };
    match step {
        Step::Bootstrap => {
            // The maps' keys (`@keys`): personas are for members, domains for operatives.
            choices.push(IdChoice::new("personas/@keys", members.clone()));
            choices.push(IdChoice::new("operativeDomains/@keys", workers.clone()));
            choices.push(IdChoice::new("initialProducts/*/owner", workers));
        }
        Step::Reflect => {
            let wrote: BTreeSet<&str> = s
                .written
                .iter()
                .filter(|w| w.member == member && w.round + 1 == s.core.round)
                .map(|w| w.product_id.as_str())
                .to_set();
            choices.push(IdChoice::new("reflections/*/refersToProduct", wrote));
            choices.push(IdChoice::new(
                "reflections/*/feedbackResponses/*/collabId",
                collabs,
            ));
        }
        Step::PlanAssign => {
            choices.push(IdChoice::new("bootstrapOverrides/personas/@keys", members));
            choices.push(IdChoice::new(
                "bootstrapOverrides/operativeDomains/@keys",
                workers.clone(),
            ));
            choices.push(IdChoice::new("assignments/*/assignee", workers));
            choices.push(IdChoice::new("acceptance/*/productId", products.clone()));
            choices.push(IdChoice::new("acceptance/*/versionId", versions));
            choices.push(IdChoice::new("chairVersions/*/productId", products));
        }
        Step::Write => {
            let mine: BTreeSet<&str> = s
                .assignments_of_round(s.core.round)
                .filter(|a| a.assignee == member)
                .map(|a| a.product_id.as_str())
                .to_set();
            choices.push(IdChoice::new("versions/*/productId", mine));
        }
        Step::PeerReview => reviewed(&mut choices, "reviews"),
        Step::Inspection => reviewed(&mut choices, "inspections"),
        Step::Presentation => choices.push(IdChoice::new("messages/*/asAgent", [member])),
    }
    choices
}

/// The validator's report of a step from the engine's findings (same violations).
pub fn report_of(step: Step, findings: &Findings) -> Report<Step> {
    Report {
        step,
        errors: findings.errors.clone(),
        warnings: findings.warnings.clone(),
    }
}

/// `member`'s assignments of this round in the order the chair gave them: a Write call lists
/// (and requires) the first [`prompt::ASSIGNED_LISTED_MAX`].
pub fn write_assignments<'a>(s: &'a TeamState, member: &str) -> Vec<&'a Assignment> {
    s.assignments_of_round(s.core.round)
        .filter(|a| a.assignee == member)
        .collect()
}

/// The fields of `step`'s final output, in name order: from the validator's shape of it (the
/// committed schema's, generated), so the app carries no JSON Schema text to read them from.
fn final_fields(step: Step) -> Vec<&'static str> {
    let mut fields: Vec<&'static str> = shape::final_output(step)
        .fields
        .iter()
        .map(|f| f.name)
        .filter(|name| *name != "responseType")
        .collect();
    roundtable_engine::order::sort(&mut fields);
    fields
}

/// The report a repair prompt words: the errors, then the fields that were ignored (a model
/// that answered in another step's shape reads which fields were dropped, not only what is
/// missing), led by a line naming the step whose shape the answer has.
fn repair_report(step: Step, findings: &Findings) -> Report<Step> {
    let mut report = report_of(step, findings);
    let ignored: Vec<&Violation> = findings
        .warnings
        .iter()
        .filter(|w| w.message.starts_with("unknown field "))
        .collect();
    let top: Vec<&str> = ignored
        .iter()
        .filter_map(|w| w.path.strip_prefix('/'))
        .filter(|p| !p.contains('/'))
        .collect();
    if !top.is_empty() {
        // Another step's shape, not one stray field: every ignored field is that step's, and
        // one of them is that step's alone (a shared list such as `collabs` proves nothing).
        let has = |o: Step, f: &str| final_fields(o).contains(&f);
        let other = Step::ALL.into_iter().find(|o| {
            *o != step
                && top.iter().all(|f| has(*o, f))
                && top
                    .iter()
                    .any(|f| Step::ALL.into_iter().filter(|s| has(*s, f)).count() == 1)
        });
        if let Some(other) = other {
            let mine = final_fields(step);
            report.errors.insert(
                0,
                Violation::at(
                    String::new(),
                    format!(
                        "this answer has the shape of the {} step ({}), not of the {} step",
                        other.title(),
                        top.join(", "),
                        step.title()
                    ),
                    &format!("the {} step's fields: {}", step.title(), mine.join(", ")),
                    &format!("{} fields: {}", other.title(), top.join(", ")),
                    &format!(
                        "answer the {} step, as its prompt shows; the {} fields are ignored",
                        step.title(),
                        other.title()
                    ),
                ),
            );
        }
    }
    report.errors.extend(ignored.into_iter().cloned());
    report
}

/// A refused tree change as the fold reports it.
fn tree_refused(error: TreeError) -> FoldError {
    error.into()
}

/// Checks a person's edit against the state before it is recorded.
pub fn check_edit(s: &TeamState, edit: &PersonEdit) -> Result<(), String> {
    match edit {
        PersonEdit::Charter { charter } => {
            use crate::wire::limits::{MISSION_MAX, OBJECTIVES_MAX};
            if !charter.is_complete() {
                return Err(
                    "a charter needs a mission, objectives and constraints; none may be empty"
                        .into(),
                );
            }
            if charter.mission.chars().count() > MISSION_MAX {
                return Err(format!(
                    "the mission is longer than {MISSION_MAX} characters"
                ));
            }
            // The same limit the chair's charter answers are held to.
            if charter.objectives.chars().count() > OBJECTIVES_MAX {
                return Err(format!(
                    "the objectives are longer than {OBJECTIVES_MAX} characters"
                ));
            }
            Ok(())
        }
        PersonEdit::AcceptVersion {
            product_id,
            version_id,
        } => s
            .tree
            .can_accept(product_id, version_id)
            .map_err(|e| e.to_string()),
        PersonEdit::RejectVersion { product_id, .. } => match s.tree.product(product_id) {
            Some(p) if p.status != ProductStatus::Removed => Ok(()),
            _ => Err(format!("there is no product {product_id}")),
        },
        PersonEdit::RemarkToChair { content } => {
            if content.trim().is_empty() {
                Err("the remark is empty".into())
            } else {
                Ok(())
            }
        }
        PersonEdit::Member(change) => {
            if !s.members.iter().any(|m| m.id == change.member) {
                return Err(format!("there is no member {}", change.member));
            }
            change
                .problem(crate::wire::limits::PERSONA_MAX)
                .map_or(Ok(()), Err)
        }
    }
}

/// The engine's own rules on a valid output: what this member may change at this step.
pub fn check_output(
    s: &TeamState,
    member: &str,
    step: Step,
    output: &FinalOutput,
) -> Vec<Violation> {
    let mut errors = Vec::new();
    if output.step() != step {
        errors.push(Violation::at(
            String::new(),
            format!(
                "this answer is for {} but the step is {}",
                output.step(),
                step
            ),
            step.wire_name(),
            output.step().wire_name(),
            "answer the step you were asked",
        ));
        return errors;
    }
    let team: BTreeSet<&str> = s.members.iter().map(|m| m.id.as_str()).to_set();
    let operatives = s.workers();
    let workers = Workers {
        team: &team,
        operatives: &operatives,
    };
    match output {
        FinalOutput::Bootstrap(b) => {
            not_blank("/mission", "mission", &b.mission, &mut errors);
            not_blank("/objectives", "objectives", &b.objectives, &mut errors);
            not_blank("/constraints", "constraints", &b.constraints, &mut errors);
            workers.check_people(
                "",
                b.personas.keys(),
                b.operative_domains.keys(),
                &mut errors,
            );
            let mut names = BTreeSet::new();
            for (i, p) in b.initial_products.iter().enumerate() {
                let key = p.name.trim().to_lowercase();
                if key.is_empty() || !names.insert(key) {
                    errors.push(Violation::at(
                        format!("/initialProducts/{i}/name"),
                        "initial product names must be non-empty and distinct".into(),
                        "a new, distinct name",
                        &p.name,
                        "give every initial product its own name",
                    ));
                }
                if let Some(owner) = &p.owner {
                    workers.check_worker(
                        &format!("/initialProducts/{i}/owner"),
                        owner,
                        &mut errors,
                    );
                }
            }
        }
        FinalOutput::Reflect(r) => {
            let wrote: BTreeSet<&str> = s
                .written
                .iter()
                .filter(|w| w.member == member && w.round + 1 == s.core.round)
                .map(|w| w.product_id.as_str())
                .to_set();
            for (i, refl) in r.reflections.iter().enumerate() {
                if !wrote.contains(refl.refers_to_product.as_str()) {
                    errors.push(Violation::at(
                        format!("/reflections/{i}/refersToProduct"),
                        format!("you did not write {} last round", refl.refers_to_product),
                        "a product you wrote last round",
                        &refl.refers_to_product,
                        "reflect only on the products listed under 'Products you worked on last round'",
                    ));
                }
            }
            check_collabs(s, member, &r.collabs, &mut errors);
        }
        FinalOutput::PlanAssign(p) => {
            let new_ids: BTreeSet<&str> = p
                .tree_operations
                .iter()
                .filter_map(|op| match op {
                    TreeOperation::Add { new_id, .. } => Some(new_id.as_str()),
                    _ => None,
                })
                .to_set();
            if let Some(o) = &p.bootstrap_overrides {
                if let Some(m) = &o.mission {
                    not_blank("/bootstrapOverrides/mission", "mission", m, &mut errors);
                }
                if let Some(m) = &o.objectives {
                    not_blank(
                        "/bootstrapOverrides/objectives",
                        "objectives",
                        m,
                        &mut errors,
                    );
                }
                workers.check_people(
                    "/bootstrapOverrides",
                    o.personas.iter().flat_map(|m| m.keys()),
                    o.operative_domains.iter().flat_map(|m| m.keys()),
                    &mut errors,
                );
            }
            for (i, op) in p.tree_operations.iter().enumerate() {
                let assignee = match op {
                    TreeOperation::Add { product, .. } => product.assignee.as_ref(),
                    TreeOperation::Update { product, .. } => {
                        product.assignee.as_ref().and_then(Option::as_ref)
                    }
                    _ => None,
                };
                if let Some(a) = assignee {
                    workers.check_worker(
                        &format!("/treeOperations/{i}/product/assignee"),
                        a,
                        &mut errors,
                    );
                }
            }
            let mut assigned = BTreeSet::new();
            for (i, a) in p.assignments.iter().enumerate() {
                workers.check_worker(
                    &format!("/assignments/{i}/assignee"),
                    &a.assignee,
                    &mut errors,
                );
                if a.product_id == crate::tree::ROOT_ID {
                    errors.push(Violation::at(
                        format!("/assignments/{i}/productId"),
                        format!(
                            "{} is the root: the whole project, not a piece of work",
                            a.product_id
                        ),
                        "the id of a product under the root",
                        &a.product_id,
                        "assign the products under the root; add one with ADD if the work has none",
                    ));
                    continue;
                }
                let known_product = new_ids.contains(a.product_id.as_str())
                    || s.tree
                        .product(&a.product_id)
                        .is_some_and(|p| p.status != ProductStatus::Removed);
                if !known_product {
                    errors.push(Violation::at(
                        format!("/assignments/{i}/productId"),
                        format!("there is no product {}", a.product_id),
                        "an existing product id or a new-N added in treeOperations",
                        &a.product_id,
                        "use ids from the current project structure",
                    ));
                }
                if !assigned.insert(a.product_id.as_str()) {
                    errors.push(Violation::at(
                        format!("/assignments/{i}/productId"),
                        format!("{} is assigned twice", a.product_id),
                        "each product at most once",
                        &a.product_id,
                        "give each product one assignee per round",
                    ));
                }
            }
            // The root has no versions: it is accepted when every child is.
            for (i, cv) in p.chair_versions.iter().flatten().enumerate() {
                if cv.product_id == ROOT_ID {
                    errors.push(Violation::at(
                        format!("/chairVersions/{i}/productId"),
                        format!("{ROOT_ID} is the root: it has no versions"),
                        "the id of a product under the root",
                        &cv.product_id,
                        "write a version of a product under the root",
                    ));
                }
            }
            let mut decided = BTreeSet::new();
            for (i, d) in p.acceptance.iter().enumerate() {
                if d.product_id == ROOT_ID {
                    errors.push(Violation::at(
                        format!("/acceptance/{i}/productId"),
                        format!(
                            "{ROOT_ID} is the root: it has no versions to accept or reject; it is accepted when every child is"
                        ),
                        "the id of a product under the root with a version awaiting acceptance",
                        &d.product_id,
                        "decide on the versions awaiting acceptance, listed by product",
                    ));
                    continue;
                }
                if !decided.insert(d.product_id.as_str()) {
                    errors.push(Violation::at(
                        format!("/acceptance/{i}/productId"),
                        format!("{} is decided twice in one answer", d.product_id),
                        "each product at most once in acceptance",
                        &d.product_id,
                        "keep one decision per product: accept it or reject it",
                    ));
                }
                if d.accepted && d.version_id.is_none() {
                    let has_version = s
                        .tree
                        .product(&d.product_id)
                        .is_some_and(|p| p.latest_version().is_some());
                    if !has_version {
                        errors.push(Violation::at(
                            format!("/acceptance/{i}/versionId"),
                            format!("{} has no version to accept", d.product_id),
                            "the id of the version you accept",
                            "nothing",
                            "accept only products that have a version",
                        ));
                    }
                }
            }
        }
        FinalOutput::Write(w) => {
            let mine: BTreeSet<&str> = s
                .assignments_of_round(s.core.round)
                .filter(|a| a.assignee == member)
                .map(|a| a.product_id.as_str())
                .to_set();
            // What the call listed is what it must write; any other assignment may be written.
            let listed: Vec<&str> = write_assignments(s, member)
                .into_iter()
                .take(prompt::ASSIGNED_LISTED_MAX)
                .map(|a| a.product_id.as_str())
                .collect();
            let mut seen = BTreeSet::new();
            for (i, v) in w.versions.iter().enumerate() {
                if !mine.contains(v.product_id.as_str()) {
                    errors.push(Violation::at(
                        format!("/versions/{i}/productId"),
                        format!("{} is not assigned to you this round", v.product_id),
                        &format!("one of: {}", mine.iter().copied().collect::<Vec<_>>().join(", ")),
                        &v.product_id,
                        "write versions only for the products assigned to you; comment on others with a collab",
                    ));
                } else if !seen.insert(v.product_id.as_str()) {
                    errors.push(Violation::at(
                        format!("/versions/{i}/productId"),
                        format!("two versions of {} in one answer", v.product_id),
                        "one version per product",
                        &v.product_id,
                        "merge them into one version",
                    ));
                }
            }
            let missing: Vec<&str> = listed
                .iter()
                .copied()
                .filter(|p| !seen.contains(p))
                .collect();
            if !missing.is_empty() {
                errors.push(Violation::at(
                    "/versions".into(),
                    format!(
                        "a version of {} is missing (assigned to you this round)",
                        missing.join(", ")
                    ),
                    "a version of each product assigned to you",
                    &format!("{} version(s)", w.versions.len()),
                    "write one new version of every product assigned to you this round",
                ));
            }
            check_collabs(s, member, &w.collabs, &mut errors);
        }
        FinalOutput::PeerReview(p) => {
            let targets: BTreeSet<(&str, &str)> = s
                .to_review(member, Step::PeerReview)
                .into_iter()
                .map(|w| (w.product_id.as_str(), w.version_id.as_str()))
                .to_set();
            for (i, r) in p.reviews.iter().enumerate() {
                if !targets.contains(&(r.product_id.as_str(), r.version_id.as_str())) {
                    errors.push(Violation::at(
                        format!("/reviews/{i}"),
                        format!(
                            "{} of {} is not a version for you to review",
                            r.version_id, r.product_id
                        ),
                        "a productId/versionId pair from 'Versions to review'",
                        &format!("{}/{}", r.product_id, r.version_id),
                        "review only others' versions written this round, as listed",
                    ));
                }
            }
            check_collabs(s, member, &p.collabs, &mut errors);
        }
        FinalOutput::Inspection(ins) => {
            let targets: BTreeSet<(&str, &str)> = s
                .to_review(member, Step::Inspection)
                .into_iter()
                .map(|w| (w.product_id.as_str(), w.version_id.as_str()))
                .to_set();
            for (i, r) in ins.inspections.iter().enumerate() {
                if !targets.contains(&(r.product_id.as_str(), r.version_id.as_str())) {
                    errors.push(Violation::at(
                        format!("/inspections/{i}"),
                        format!(
                            "{} of {} is not a version of this round",
                            r.version_id, r.product_id
                        ),
                        "a productId/versionId pair from 'Versions to inspect'",
                        &format!("{}/{}", r.product_id, r.version_id),
                        "inspect only the versions listed",
                    ));
                }
            }
            check_collabs(s, member, &ins.collabs, &mut errors);
        }
        FinalOutput::Presentation(p) => {
            for (i, m) in p.messages.iter().enumerate() {
                if m.as_agent != member {
                    errors.push(Violation::at(
                        format!("/messages/{i}/asAgent"),
                        format!("{} is not you: you present as yourself", m.as_agent),
                        member,
                        &m.as_agent,
                        &format!("set asAgent to {member}"),
                    ));
                }
            }
        }
    }
    errors
}

/// A charter field must say something: the whole team works from it.
fn not_blank(path: &str, what: &str, text: &str, errors: &mut Vec<Violation>) {
    if text.trim().is_empty() {
        // A blank text shows as blank: `"   "` alone reads as nothing at all.
        let received = if text.is_empty() {
            format!("{text:?}")
        } else {
            format!("{text:?} (blank)")
        };
        errors.push(Violation::at(
            path.into(),
            format!("the {what} field is empty"),
            "a non-empty text",
            &received,
            &format!("write the {what}; the whole team works from it"),
        ));
    }
}

/// Who may do which work: the team's member ids and, among them, the operatives.
struct Workers<'a> {
    team: &'a BTreeSet<&'a str>,
    operatives: &'a BTreeSet<&'a str>,
}

impl Workers<'_> {
    /// Personas are for members; domains are for operatives (keys of Bootstrap's maps or of the
    /// chair's overrides, under `prefix`).
    fn check_people<'k>(
        &self,
        prefix: &str,
        personas: impl Iterator<Item = &'k String>,
        domains: impl Iterator<Item = &'k String>,
        errors: &mut Vec<Violation>,
    ) {
        let pointer = |map: &str, key: &str| {
            format!(
                "{prefix}/{map}/{}",
                key.replace('~', "~0").replace('/', "~1")
            )
        };
        for key in personas {
            if !self.team.contains(key.as_str()) {
                errors.push(Violation::at(
                    pointer("personas", key),
                    format!("{key} is not a member of the team"),
                    "a member id",
                    key,
                    "write personas only for the members listed in the team",
                ));
            }
        }
        for key in domains {
            if !self.operatives.contains(key.as_str()) {
                errors.push(Violation::at(
                    pointer("operativeDomains", key),
                    format!("{key} is not an operative: domains are for operatives"),
                    "an operative's id",
                    key,
                    "give domains only to the operatives listed in the team",
                ));
            }
        }
    }

    /// Work (a product to own or write) goes to operatives only: not the chair, the inspector
    /// (who would check its own version), the envoy or the person.
    fn check_worker(&self, path: &str, who: &str, errors: &mut Vec<Violation>) {
        if self.operatives.contains(who) {
            return;
        }
        let why = if self.team.contains(who) {
            format!("{who} is not an operative: only operatives are given work")
        } else if who == "user-1" {
            "work cannot be given to the person: ask them with a halt instead".to_string()
        } else {
            format!("{who} is not a member of the team")
        };
        errors.push(Violation::at(
            path.into(),
            why,
            "an operative's id",
            who,
            "give products to the operatives listed in the team",
        ));
    }
}

/// Collabs must be about live products, name a version of that product, and not repeat a comment
/// the member already made on it (spec 003: no duplicate comments).
fn check_collabs(
    s: &TeamState,
    member: &str,
    collabs: &[CollabOutput],
    errors: &mut Vec<Violation>,
) {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, c) in collabs.iter().enumerate() {
        let Some(product) = s
            .tree
            .product(&c.refers_to_product)
            .filter(|p| p.status != ProductStatus::Removed)
        else {
            errors.push(Violation::at(
                format!("/collabs/{i}/refersToProduct"),
                format!("there is no product {}", c.refers_to_product),
                "a product id of the current structure",
                &c.refers_to_product,
                "use ids from the current project structure",
            ));
            continue;
        };
        if let Some(v) = &c.refers_to_version {
            if !product.versions.iter().any(|x| x == v) {
                errors.push(Violation::at(
                    format!("/collabs/{i}/refersToVersion"),
                    format!("{v} is not a version of {}", c.refers_to_product),
                    &format!("one of: {}", product.versions.join(", ")),
                    v,
                    "name a version of the product the collab is about, or leave refersToVersion out",
                ));
            }
        }
        let key = (c.refers_to_product.clone(), c.comment.trim().to_string());
        let repeated = !seen.insert(key.clone())
            || s.tree
                .collabs_on(&c.refers_to_product)
                .any(|x| x.author == member && x.comment.trim() == key.1);
        if repeated {
            errors.push(Violation::at(
                format!("/collabs/{i}/comment"),
                format!("you already made this comment on {}", c.refers_to_product),
                "a new comment",
                &one_line(&c.comment, 60),
                "do not repeat a comment; if you agree with something, say so briefly in a new one",
            ));
        }
    }
}

/// Answers a `request_context` with the asked slices (each at most a few thousand characters).
pub fn serve_context(
    s: &TeamState,
    member: &str,
    requests: &[ContextRequest],
) -> Vec<ContextSlice> {
    const MAX: usize = 12_000;
    requests
        .iter()
        .map(|r| {
            let text = match s.tree.product(&r.product_id) {
                None => format!("There is no product {}.", r.product_id),
                Some(p) => match r.need {
                    ContextNeed::FullContent => {
                        match p.latest_version().and_then(|v| s.tree.version(v)) {
                            Some(v) => format!(
                                "{} \"{}\" by {} (round {}):\n{}",
                                v.id, v.title, v.author, v.round, v.content
                            ),
                            None => format!("{} has no version yet.", p.id),
                        }
                    }
                    ContextNeed::VersionHistory => {
                        let lines: Vec<String> = p
                            .versions
                            .iter()
                            .filter_map(|v| s.tree.version(v))
                            .map(|v| {
                                format!(
                                    "- {} (round {}, by {}) \"{}\": {}{}",
                                    v.id,
                                    v.round,
                                    v.author,
                                    v.title,
                                    one_line(&v.change_summary, 300),
                                    v.reflection_note
                                        .as_deref()
                                        .map(|n| format!(" | reflection: {}", one_line(n, 300)))
                                        .unwrap_or_default()
                                )
                            })
                            .collect();
                        if lines.is_empty() {
                            format!("{} has no version yet.", p.id)
                        } else {
                            lines.join("\n")
                        }
                    }
                    ContextNeed::AllFeedback => {
                        let lines: Vec<String> = s
                            .tree
                            .collabs_on(&p.id)
                            .map(|c| {
                                format!(
                                    "- {} by {} (round {}, {:?}, importance {}): {}",
                                    c.id, c.author, c.round, c.collab_type, c.importance, c.comment
                                )
                            })
                            .collect();
                        if lines.is_empty() {
                            format!("Nobody commented on {} yet.", p.id)
                        } else {
                            lines.join("\n")
                        }
                    }
                    ContextNeed::PeerContent => {
                        // The branch first, one line per child with what is below it counted,
                        // so a branch folded in the prompt opens level by level.
                        let mut parts = Vec::new();
                        let outline = prompt::branch_outline(s, member, &p.id);
                        if !outline.is_empty() {
                            parts.push(format!("Below {} \"{}\":\n{outline}", p.id, p.name));
                        }
                        let family =
                            std::iter::once(p).chain(s.tree.products().iter().filter(|c| {
                                c.parent.as_deref() == Some(p.id.as_str())
                                    && c.status != ProductStatus::Removed
                            }));
                        for q in family {
                            if let Some(v) = q.latest_version().and_then(|v| s.tree.version(v)) {
                                if v.author != member {
                                    parts.push(format!(
                                        "{} \"{}\" — {} by {}:\n{}",
                                        q.id, q.name, v.id, v.author, v.content
                                    ));
                                }
                            }
                        }
                        if parts.is_empty() {
                            format!(
                                "{} has no children, and no other member has written it yet.",
                                p.id
                            )
                        } else {
                            parts.join("\n\n")
                        }
                    }
                },
            };
            ContextSlice {
                product_id: r.product_id.clone(),
                need: r.need,
                text: cut(&text, MAX),
            }
        })
        .collect()
}

#[cfg(test)]
mod known_cache_tests {
    use super::*;
    use std::cell::Cell;

    /// The ids kept between answers (added to as the tree grows) are at every call exactly what
    /// listing the tree afresh gives, including on a clone of the state.
    #[test]
    fn the_kept_known_ids_always_equal_a_fresh_listing() {
        let cfg = TeamConfig::standard(
            "Plan a one-day design workshop for 20 people",
            3,
            true,
            false,
            ModelRef {
                provider: roundtable_engine::demo::PROVIDER.into(),
                model: "demo-1".into(),
            },
        );
        let mut s = TeamSession::new(cfg, 0).unwrap();
        let (mut now, checked) = (1, Cell::new(0));
        roundtable_engine::demo::play_with(
            &mut s,
            |any, call| {
                let st = any.as_any().downcast_ref::<TeamState>().unwrap();
                assert_eq!(*st.known_now(), st.known(), "at {}", call.call.id);
                assert_eq!(*st.known_now(), st.known(), "asked again");
                assert_eq!(*st.clone().known_now(), st.known(), "on a clone");
                checked.set(checked.get() + 1);
                any.demo_answer(&call.call, &call.envelope)
            },
            &mut now,
            400,
        )
        .unwrap();
        assert!(checked.get() > 20, "{} calls", checked.get());
    }
}
