//! The demo model on its own: determinism, topics, mistakes and repairs, and whole sessions played
//! against a small in-test session (not the engine) where every answer goes through the real
//! validator with the session's ids.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use roundtable_core::protocol::team::check::RepairPrompt as _;
use roundtable_core::protocol::team::check::{validate_step, Known};
use roundtable_core::protocol::team::demo::{
    DemoCollab, DemoInput, DemoMember, DemoModel, DemoProduct, DemoRole, Mistake, TopicKind,
    Verdict, VersionRef, MISTAKE_ONE_IN,
};
use roundtable_core::protocol::team::wire::{
    FinalOutput, HaltType, InspectionAssessment, ProductType, ReviewAssessment, Step, StepAnswer,
    TreeOperation,
};

/// A team: operatives, and whether there is an inspector and an envoy.
fn team(operatives: usize, inspector: bool, envoy: bool) -> Vec<DemoMember> {
    let mut m = vec![DemoMember {
        id: "chair".into(),
        name: "Ada".into(),
        role: DemoRole::Chair,
    }];
    for i in 1..=operatives {
        m.push(DemoMember {
            id: format!("operative-{i}"),
            name: format!("Op {i}"),
            role: DemoRole::Operative,
        });
    }
    if inspector {
        m.push(DemoMember {
            id: "inspector".into(),
            name: "Ines".into(),
            role: DemoRole::Inspector,
        });
    }
    if envoy {
        m.push(DemoMember {
            id: "envoy".into(),
            name: "Eve".into(),
            role: DemoRole::Envoy,
        });
    }
    m
}

/// A collab as the little session keeps it.
struct Collab {
    collab: DemoCollab,
    round: u32,
    addressees: Vec<String>,
}

/// What happened on one call, for the assertions.
#[derive(Debug, Clone)]
struct Record {
    step: Step,
    mistake: Option<Mistake>,
    repaired: bool,
    asked_context: bool,
}

/// A minimal team session driving the demo model: enough bookkeeping to give each call the inputs
/// the engine would, and to check every answer with the validator.
struct Sim {
    model: DemoModel,
    request: String,
    members: Vec<DemoMember>,
    products: Vec<DemoProduct>,
    collabs: Vec<Collab>,
    next_p: usize,
    next_v: usize,
    next_c: usize,
    round: u32,
    person_answer: Option<String>,
    question_asked: bool,
    wrote: BTreeMap<String, Vec<String>>,
    records: Vec<Record>,
    /// First clean answer text per step (and `"bootstrap_question"`), for snapshots.
    clean: BTreeMap<String, String>,
    adds: usize,
    done_round: Option<u32>,
    presentation_messages: usize,
}

impl Sim {
    fn new(seed: u64, request: &str, members: Vec<DemoMember>) -> Sim {
        Sim {
            model: DemoModel::new(seed),
            request: request.into(),
            members,
            products: vec![DemoProduct {
                id: "p0".into(),
                name: "Request".into(),
                product_type: ProductType::Collection,
                parent_id: None,
                owner: None,
                dod: String::new(),
                versions: vec![],
                accepted_version: None,
                latest_author: None,
                verdicts: vec![],
                notes: vec![],
                latest_content: None,
            }],
            collabs: vec![],
            next_p: 1,
            next_v: 1,
            next_c: 1,
            round: 0,
            person_answer: None,
            question_asked: false,
            wrote: BTreeMap::new(),
            records: vec![],
            clean: BTreeMap::new(),
            adds: 0,
            done_round: None,
            presentation_messages: 0,
        }
    }

    fn known(&self) -> Known {
        Known {
            products: self.products.iter().map(|p| p.id.clone()).collect(),
            versions: self
                .products
                .iter()
                .flat_map(|p| p.versions.iter().cloned())
                .collect(),
            members: self
                .members
                .iter()
                .map(|m| m.id.clone())
                .chain(["user-1".to_string()])
                .collect(),
            collabs: self.collabs.iter().map(|c| c.collab.id.clone()).collect(),
        }
    }

    fn input(&self, step: Step, member: &str) -> DemoInput {
        let owned: BTreeSet<&str> = self
            .products
            .iter()
            .filter(|p| p.owner.as_deref() == Some(member))
            .map(|p| p.id.as_str())
            .collect();
        let collabs = self
            .collabs
            .iter()
            .filter(|c| c.round + 1 >= self.round)
            .filter(|c| {
                c.addressees.iter().any(|a| a == member)
                    || (c.addressees.is_empty() && owned.contains(c.collab.product_id.as_str()))
                    || (member == "chair" && step == Step::PlanAssign)
            })
            .map(|c| c.collab.clone())
            .collect();
        DemoInput {
            step,
            member_id: member.into(),
            request: self.request.clone(),
            person_answer: self.person_answer.clone(),
            question_asked: self.question_asked,
            round: self.round,
            max_rounds: 8,
            members: self.members.clone(),
            products: self.products.clone(),
            assigned: vec![],
            written_last_round: vec![],
            to_review: vec![],
            to_inspect: vec![],
            collabs,
            context_requests_left: 2,
            context_received: false,
            repair: None,
            prompt_chars: 4000,
        }
    }

    /// Asks the model, serving context and repairs the way the engine does; returns the final
    /// answer (a final output or a halt).
    fn call(&mut self, mut input: DemoInput) -> StepAnswer {
        let known = self.known();
        let mut repairs = 0;
        loop {
            let answer = self.model.answer(&input);
            assert_eq!(
                answer,
                self.model.answer(&input),
                "the same call must give the same answer"
            );
            let verdict = validate_step(input.step, &answer.text, Some(&known));
            let record = Record {
                step: input.step,
                mistake: answer.mistake,
                repaired: input.repair.is_some(),
                asked_context: false,
            };
            match verdict {
                Err(report) => {
                    let mistake = answer.mistake.unwrap_or_else(|| {
                        panic!(
                            "an answer without an intended mistake was refused:\n{}\n{:#?}",
                            answer.text, report.errors
                        )
                    });
                    assert!(!mistake.is_recoverable(), "{mistake:?} should be recovered");
                    assert!(input.repair.is_none(), "a repair answer was refused");
                    self.records.push(record);
                    repairs += 1;
                    assert!(repairs <= 1);
                    input.repair = Some(report.repair_prompt());
                }
                Ok(v) => {
                    match answer.mistake {
                        None => assert!(
                            v.warnings.is_empty(),
                            "clean answer had warnings: {:#?}\n{}",
                            v.warnings,
                            answer.text
                        ),
                        Some(m) => {
                            assert!(m.is_recoverable(), "{m:?} passed the validator");
                            assert!(!v.warnings.is_empty(), "a fence must leave a warning");
                        }
                    }
                    if let StepAnswer::RequestContext { .. } = v.answer {
                        assert!(input.context_requests_left > 0 && !input.context_received);
                        self.records.push(Record {
                            asked_context: true,
                            ..record
                        });
                        input.context_received = true;
                        input.context_requests_left -= 1;
                        continue;
                    }
                    self.records.push(record);
                    if answer.mistake.is_none() {
                        let key = match &v.answer {
                            StepAnswer::Halt { halt } if halt.halt_type == HaltType::Question => {
                                "bootstrap_question".to_string()
                            }
                            StepAnswer::Halt { .. } => "plan_assign_done".to_string(),
                            _ if matches!(input.step, Step::Bootstrap | Step::Presentation) => {
                                input.step.wire_name().to_string()
                            }
                            _ => format!("{}_r{}", input.step.wire_name(), input.round),
                        };
                        self.clean.entry(key).or_insert(answer.text.clone());
                    }
                    return v.answer;
                }
            }
        }
    }

    fn add_collabs(
        &mut self,
        member: &str,
        collabs: &[roundtable_core::protocol::team::wire::CollabOutput],
    ) {
        for c in collabs {
            let id = format!("c{}", self.next_c);
            self.next_c += 1;
            self.collabs.push(Collab {
                collab: DemoCollab {
                    id,
                    product_id: c.refers_to_product.clone(),
                    author: member.into(),
                    collab_type: c.collab_type,
                    summary: c.shortest_summary.clone(),
                },
                round: self.round,
                addressees: c.addressee_ids.clone().unwrap_or_default(),
            });
        }
    }

    fn product_mut(&mut self, id: &str) -> &mut DemoProduct {
        self.products
            .iter_mut()
            .find(|p| p.id == id)
            .unwrap_or_else(|| panic!("unknown product {id}"))
    }

    fn ids(&self, role: DemoRole) -> Vec<String> {
        self.members
            .iter()
            .filter(|m| m.role == role)
            .map(|m| m.id.clone())
            .collect()
    }

    /// Plays the whole session; panics on anything the engine would refuse.
    fn run(&mut self) {
        loop {
            let input = self.input(Step::Bootstrap, "chair");
            match self.call(input) {
                StepAnswer::Halt { halt } => {
                    assert_eq!(halt.halt_type, HaltType::Question);
                    assert!(!self.question_asked, "only one question");
                    assert_eq!(halt.to, vec!["user-1".to_string()]);
                    let options = halt.options.expect("options");
                    assert!((2..=4).contains(&options.len()));
                    self.question_asked = true;
                    self.person_answer = Some(options[0].clone());
                }
                StepAnswer::FinalOutput {
                    output: FinalOutput::Bootstrap(b),
                } => {
                    assert!(self.question_asked);
                    let ops = self.ids(DemoRole::Operative);
                    for p in &b.initial_products {
                        let owner = p.owner.clone().expect("an owner");
                        assert!(ops.contains(&owner));
                        let id = format!("p{}", self.next_p);
                        self.next_p += 1;
                        self.products.push(DemoProduct {
                            id,
                            name: p.name.clone(),
                            product_type: p.product_type,
                            parent_id: Some("p0".into()),
                            owner: Some(owner),
                            dod: p.dod.clone(),
                            versions: vec![],
                            accepted_version: None,
                            latest_author: None,
                            verdicts: vec![],
                            notes: vec![],
                            latest_content: None,
                        });
                    }
                    assert_eq!(b.operative_domains.len(), ops.len());
                    assert_eq!(b.personas.len(), self.members.len());
                    break;
                }
                other => panic!("unexpected bootstrap answer {other:?}"),
            }
        }

        for round in 1..=8u32 {
            self.round = round;
            // Reflect.
            let wrote = std::mem::take(&mut self.wrote);
            for (member, products) in &wrote {
                let mut input = self.input(Step::Reflect, member);
                input.written_last_round = products.clone();
                match self.call(input) {
                    StepAnswer::FinalOutput {
                        output: FinalOutput::Reflect(r),
                    } => {
                        assert_eq!(r.reflections.len(), products.len());
                        self.add_collabs(member, &r.collabs);
                    }
                    other => panic!("unexpected reflect answer {other:?}"),
                }
            }
            // PlanAssign.
            let plan = match self.call(self.input(Step::PlanAssign, "chair")) {
                StepAnswer::Halt { halt } => {
                    assert_eq!(halt.halt_type, HaltType::Done);
                    self.done_round = Some(round);
                    break;
                }
                StepAnswer::FinalOutput {
                    output: FinalOutput::PlanAssign(p),
                } => p,
                other => panic!("unexpected plan answer {other:?}"),
            };
            let mut new_ids = BTreeMap::new();
            for op in &plan.tree_operations {
                match op {
                    TreeOperation::Add {
                        new_id,
                        parent_id,
                        product,
                        ..
                    } => {
                        let id = format!("p{}", self.next_p);
                        self.next_p += 1;
                        new_ids.insert(new_id.clone(), id.clone());
                        self.adds += 1;
                        self.products.push(DemoProduct {
                            id,
                            name: product.name.clone(),
                            product_type: product.product_type,
                            parent_id: Some(parent_id.clone()),
                            owner: product.assignee.clone(),
                            dod: product.dod.clone(),
                            versions: vec![],
                            accepted_version: None,
                            latest_author: None,
                            verdicts: vec![],
                            notes: vec![],
                            latest_content: None,
                        });
                    }
                    other => panic!("the demo only adds: {other:?}"),
                }
            }
            for a in &plan.acceptance {
                let p = self.product_mut(&a.product_id);
                if a.accepted {
                    assert_eq!(a.version_id.as_deref(), p.latest());
                    p.accepted_version = a.version_id.clone();
                }
            }
            let mut assigned: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for a in &plan.assignments {
                let id = new_ids
                    .get(&a.product_id)
                    .cloned()
                    .unwrap_or(a.product_id.clone());
                assert!(
                    !self.products.iter().any(|p| p.id == id && p.is_settled()),
                    "assigned a settled product"
                );
                assigned.entry(a.assignee.clone()).or_default().push(id);
            }
            // Write.
            let mut written: Vec<VersionRef> = vec![];
            for (member, products) in &assigned {
                let mut input = self.input(Step::Write, member);
                input.assigned = products.clone();
                let w = match self.call(input) {
                    StepAnswer::FinalOutput {
                        output: FinalOutput::Write(w),
                    } => w,
                    other => panic!("unexpected write answer {other:?}"),
                };
                assert_eq!(w.versions.len(), products.len());
                for v in &w.versions {
                    assert!(v.new_version.content.contains("## "));
                    let vid = format!("v{}", self.next_v);
                    self.next_v += 1;
                    let p = self.product_mut(&v.product_id);
                    p.versions.push(vid.clone());
                    p.latest_author = Some(member.clone());
                    p.verdicts.clear();
                    p.notes.clear();
                    written.push(VersionRef {
                        product_id: v.product_id.clone(),
                        version_id: vid,
                        author: Some(member.clone()),
                    });
                }
                self.add_collabs(member, &w.collabs);
                self.wrote.insert(member.clone(), products.clone());
            }
            // PeerReview.
            for op in self.ids(DemoRole::Operative) {
                let others: Vec<VersionRef> = written
                    .iter()
                    .filter(|v| v.author.as_deref() != Some(op.as_str()))
                    .cloned()
                    .collect();
                if others.is_empty() {
                    continue;
                }
                let mut input = self.input(Step::PeerReview, &op);
                input.to_review = others.clone();
                let r = match self.call(input) {
                    StepAnswer::FinalOutput {
                        output: FinalOutput::PeerReview(r),
                    } => r,
                    other => panic!("unexpected review answer {other:?}"),
                };
                assert_eq!(r.reviews.len(), others.len());
                for review in &r.reviews {
                    let p = self.product_mut(&review.product_id);
                    if review.assessment == ReviewAssessment::Approved {
                        p.verdicts.push(Verdict::Approved);
                    } else {
                        p.verdicts.push(Verdict::NeedsRevision);
                        p.notes.push(review.summary.clone());
                    }
                }
                self.add_collabs(&op, &r.collabs);
            }
            // Inspection.
            if !written.is_empty() {
                let inspector = self
                    .ids(DemoRole::Inspector)
                    .first()
                    .cloned()
                    .unwrap_or("chair".into());
                let mut input = self.input(Step::Inspection, &inspector);
                input.to_inspect = written.clone();
                let ins = match self.call(input) {
                    StepAnswer::FinalOutput {
                        output: FinalOutput::Inspection(i),
                    } => i,
                    other => panic!("unexpected inspection answer {other:?}"),
                };
                assert_eq!(ins.inspections.len(), written.len());
                for i in &ins.inspections {
                    let p = self.product_mut(&i.product_id);
                    p.verdicts.push(match i.assessment {
                        InspectionAssessment::Approved => Verdict::Approved,
                        InspectionAssessment::NeedsRevision => Verdict::NeedsRevision,
                        InspectionAssessment::Blocked => Verdict::Blocked,
                    });
                }
                self.add_collabs(&inspector, &ins.collabs);
            }
        }
        let presenter = self
            .ids(DemoRole::Envoy)
            .first()
            .cloned()
            .unwrap_or("chair".into());
        match self.call(self.input(Step::Presentation, &presenter)) {
            StepAnswer::FinalOutput {
                output: FinalOutput::Presentation(p),
            } => {
                assert!(p.messages.iter().all(|m| m.as_agent == presenter));
                self.presentation_messages = p.messages.len();
            }
            other => panic!("unexpected presentation answer {other:?}"),
        }
    }
}

const REQUESTS: [&str; 6] = [
    "Plan a half-day workshop on data privacy for nurses.",
    "Write a short report about remote work and productivity in small firms",
    "We need a launch plan for our budgeting app next spring",
    "A 4-day trip to Lisbon in May with my parents",
    "Make me a study plan to pass the AWS Solutions Architect exam",
    "Organise the renovation of our community garden shed",
];

#[test]
fn whole_sessions_finish_in_about_three_rounds_for_every_team_shape() {
    let mut seed = 11;
    for operatives in 1..=6 {
        for (inspector, envoy) in [(true, true), (false, false), (true, false)] {
            let request = REQUESTS[(operatives + usize::from(inspector)) % REQUESTS.len()];
            let mut sim = Sim::new(seed, request, team(operatives, inspector, envoy));
            seed += 1;
            sim.run();
            let done = sim.done_round.expect("the chair halts done");
            assert!(
                (3..=5).contains(&done),
                "done in round {done} ({operatives} ops)"
            );
            assert_eq!(sim.adds, 1, "one product added in round 2");
            assert!(sim
                .products
                .iter()
                .filter(|p| p.is_writable())
                .all(|p| p.is_settled()));
            assert!((2..=4).contains(&sim.presentation_messages));
        }
    }
}

#[test]
fn across_sessions_the_demo_asks_for_context_and_makes_mistakes_at_the_expected_rate() {
    let mut calls = 0usize;
    let mut mistakes = 0usize;
    let mut kinds = BTreeSet::new();
    let mut context_steps = BTreeSet::new();
    for seed in 0..40u64 {
        let mut sim = Sim::new(
            seed,
            REQUESTS[seed as usize % REQUESTS.len()],
            team(1 + seed as usize % 4, seed % 2 == 0, seed % 3 == 0),
        );
        sim.run();
        // A repair never errs again, and never follows a repair.
        for w in sim.records.windows(2) {
            if w[0].mistake.is_some_and(|m| !m.is_recoverable()) {
                assert!(w[1].repaired && w[1].mistake.is_none() && w[1].step == w[0].step);
            }
        }
        for r in &sim.records {
            if r.asked_context {
                context_steps.insert(r.step);
            }
            if !r.repaired && !r.asked_context {
                calls += 1;
                if let Some(m) = r.mistake {
                    mistakes += 1;
                    kinds.insert(m);
                }
            }
        }
    }
    let rate = mistakes as f64 / calls as f64;
    let expected = 1.0 / MISTAKE_ONE_IN as f64;
    assert!(
        (expected * 0.6..expected * 1.5).contains(&rate),
        "mistake rate {rate:.3} over {calls} calls"
    );
    assert_eq!(kinds.len(), 4, "every kind of mistake shows up: {kinds:?}");
    assert!(context_steps.contains(&Step::Write), "{context_steps:?}");
}

#[test]
fn the_same_seed_and_call_give_the_same_text_and_seeds_differ() {
    let mut a = Sim::new(5, REQUESTS[0], team(3, true, true));
    a.run();
    let mut b = Sim::new(5, REQUESTS[0], team(3, true, true));
    b.run();
    assert_eq!(a.clean, b.clean);
    let mut c = Sim::new(6, REQUESTS[0], team(3, true, true));
    c.run();
    assert_ne!(a.clean, c.clean);
}

#[test]
fn the_topic_shapes_the_products() {
    let cases = [
        (REQUESTS[0], TopicKind::Workshop, "Agenda and timing"),
        (REQUESTS[1], TopicKind::Report, "Executive summary"),
        (REQUESTS[2], TopicKind::Launch, "Positioning and message"),
        (REQUESTS[3], TopicKind::Trip, "Itinerary"),
        (REQUESTS[4], TopicKind::StudyPlan, "Goals and baseline"),
        (REQUESTS[5], TopicKind::Generic, "Scope and goals"),
    ];
    for (request, kind, first) in cases {
        assert_eq!(
            roundtable_core::protocol::team::demo::topics::detect(request).kind,
            kind
        );
        let mut sim = Sim::new(1, request, team(2, false, false));
        sim.run();
        assert_eq!(sim.products[1].name, first, "{request}");
        let subject = roundtable_core::protocol::team::demo::topics::subject(request);
        let write = &sim.clean["write_r1"];
        assert!(
            write.contains(&subject),
            "{subject:?} not in a written version"
        );
    }
}

#[test]
fn a_mistaken_answer_is_refused_and_its_repair_passes() {
    // Find, per kind, a call that makes it; check the validator's judgement and the repair.
    let mut seen = BTreeSet::new();
    for seed in 0..200u64 {
        let model = DemoModel::new(seed);
        let mut sim = Sim::new(seed, REQUESTS[2], team(2, true, false));
        sim.run();
        let known = sim.known();
        for step in [Step::PeerReview, Step::Inspection, Step::Reflect] {
            let mut input = sim.input(step, "operative-1");
            let pid = sim.products[1].id.clone();
            let vid = sim.products[1].latest().unwrap().to_string();
            input.to_review = vec![VersionRef {
                product_id: pid.clone(),
                version_id: vid.clone(),
                author: Some("operative-2".into()),
            }];
            input.to_inspect = input.to_review.clone();
            input.written_last_round = vec![pid];
            input.context_requests_left = 0;
            let answer = model.answer(&input);
            let Some(m) = answer.mistake else { continue };
            seen.insert(m);
            let verdict = validate_step(step, &answer.text, Some(&known));
            if m.is_recoverable() {
                assert!(verdict.is_ok());
                assert!(answer.text.contains("```json"));
                continue;
            }
            let report = verdict.expect_err("a mistake must be refused");
            input.repair = Some(report.repair_prompt());
            let fixed = model.answer(&input);
            assert_eq!(fixed.mistake, None);
            validate_step(step, &fixed.text, Some(&known)).expect("the repair passes");
        }
        if seen.len() == 4 {
            return;
        }
    }
    panic!("not every mistake kind was produced: {seen:?}");
}

#[test]
fn snapshots_of_one_answer_per_step() {
    let mut sim = Sim::new(3, REQUESTS[0], team(2, true, true));
    sim.run();
    for key in [
        "bootstrap_question",
        "bootstrap",
        "plan_assign_r1",
        "write_r1",
        "peer_review_r1",
        "inspection_r1",
        "reflect_r2",
        "plan_assign_r2",
        "write_r2",
        "plan_assign_done",
        "presentation",
    ] {
        let text = sim
            .clean
            .get(key)
            .unwrap_or_else(|| panic!("no clean {key} answer"));
        insta::assert_snapshot!(format!("demo_{key}"), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any seed, any request text, any team: the session validates at every call and finishes.
    #[test]
    fn any_seed_and_request_plays_to_done(
        seed in any::<u64>(),
        request in "[A-Za-z ,.]{0,120}",
        operatives in 1usize..=6,
        inspector in any::<bool>(),
        envoy in any::<bool>(),
    ) {
        let mut sim = Sim::new(seed, &request, team(operatives, inspector, envoy));
        sim.run();
        prop_assert!(sim.done_round.is_some_and(|r| r <= 5));
    }
}
