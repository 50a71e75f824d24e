//! What the demo model reads from a call: the step, who it is, the person's request and the part of
//! the session its prompt shows it.
//!
//! The demo does not parse prose. The engine keeps a structured state envelope with every call (spec
//! `003`'s session context artifact); [`super::adapter`] reads that envelope into a [`DemoInput`], the
//! same facts a real model reads in its prompt. Keeping this struct our own means the generator can
//! be tested on hand-made inputs and the adapter is the only place that follows the envelope's shape.

use serde::{Deserialize, Serialize};

use crate::wire::{CollabType, ProductType, Step};

/// A member's place in the team, as far as the demo needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DemoRole {
    /// Plans, assigns, accepts.
    Chair,
    /// Writes products.
    Operative,
    /// Checks versions against their definition of done.
    Inspector,
    /// Presents the result.
    Envoy,
}

/// One team member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemoMember {
    /// Member id (`chair`, `operative-1`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Team role.
    pub role: DemoRole,
}

/// A reviewer's or inspector's verdict on a product's latest version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Good as it is.
    Approved,
    /// Needs another version.
    NeedsRevision,
    /// Cannot go on.
    Blocked,
}

/// One product of the tree, with what the demo needs to plan, write and judge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DemoProduct {
    /// Temp id (`p1`).
    pub id: String,
    /// Name.
    pub name: String,
    /// Kind; Collection and Orchestration products group others and are never written.
    pub product_type: ProductType,
    /// Parent temp id; `None` at the top of the tree.
    pub parent_id: Option<String>,
    /// Owner (or current assignee) member id.
    pub owner: Option<String>,
    /// Definition of done.
    pub dod: String,
    /// Version temp ids, oldest first.
    pub versions: Vec<String>,
    /// The accepted version, if any.
    pub accepted_version: Option<String>,
    /// Who wrote the latest version.
    pub latest_author: Option<String>,
    /// Verdicts (peer reviews, inspection) on the latest version.
    pub verdicts: Vec<Verdict>,
    /// What reviewers and the inspector said when they asked for changes to the latest version.
    pub notes: Vec<String>,
    /// The latest version's text, when the call shows it (the chair's PlanAssign does): what the
    /// chair checks against the definition of done before it accepts.
    #[serde(default)]
    pub latest_content: Option<String>,
}

impl DemoProduct {
    /// The latest version id.
    pub fn latest(&self) -> Option<&str> {
        self.versions.last().map(String::as_str)
    }

    /// True for products that get versions (Content, Decision).
    pub fn is_writable(&self) -> bool {
        matches!(
            self.product_type,
            ProductType::Content | ProductType::Decision
        )
    }

    /// True when the latest version is the accepted one.
    pub fn is_settled(&self) -> bool {
        self.latest().is_some() && self.accepted_version.as_deref() == self.latest()
    }
}

/// A version the member is asked to review or inspect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionRef {
    /// Product temp id.
    pub product_id: String,
    /// Version temp id.
    pub version_id: String,
    /// Its author, when known.
    pub author: Option<String>,
}

/// A collab the member received (on a product it wrote or was assigned).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemoCollab {
    /// Collab temp id (`c3`).
    pub id: String,
    /// Product it is about.
    pub product_id: String,
    /// Who wrote it.
    pub author: String,
    /// Kind.
    pub collab_type: CollabType,
    /// Its shortest summary (or the start of its comment).
    pub summary: String,
}

/// Everything one call shows the demo model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DemoInput {
    /// The step asked.
    pub step: Step,
    /// Who answers.
    pub member_id: String,
    /// The person's original request.
    pub request: String,
    /// The person's answer to the Bootstrap question, once given.
    pub person_answer: Option<String>,
    /// True once a question halt was asked in this session (the demo asks only one).
    pub question_asked: bool,
    /// Current round (Bootstrap is round 0, the first working round is 1).
    pub round: u32,
    /// The session's round limit (0: unknown); the chair paces itself to finish within it.
    pub max_rounds: u32,
    /// The team.
    pub members: Vec<DemoMember>,
    /// The product tree, in tree order.
    pub products: Vec<DemoProduct>,
    /// Write: products assigned to this member this round.
    pub assigned: Vec<String>,
    /// Reflect: products this member wrote last round.
    pub written_last_round: Vec<String>,
    /// PeerReview: versions to review.
    pub to_review: Vec<VersionRef>,
    /// Inspection: versions to inspect.
    pub to_inspect: Vec<VersionRef>,
    /// Collabs this member received (for the chair: those it sees on the products it plans).
    pub collabs: Vec<DemoCollab>,
    /// How many more `request_context` answers the engine allows for this step (0: answer now).
    pub context_requests_left: u32,
    /// True when this call already carries slices the member asked for.
    pub context_received: bool,
    /// The validation report when this call is a repair of a refused answer.
    pub repair: Option<String>,
    /// Length of the prompt in chars, for the usage estimate.
    pub prompt_chars: usize,
}

impl DemoInput {
    /// The names of who writes the team's products (the operatives; everyone when there are
    /// none), to name as owners.
    pub fn writer_names(&self) -> Vec<String> {
        let ops: Vec<String> = self
            .members
            .iter()
            .filter(|m| m.role == DemoRole::Operative)
            .map(|m| m.name.clone())
            .collect();
        if ops.is_empty() {
            self.members.iter().map(|m| m.name.clone()).collect()
        } else {
            ops
        }
    }

    /// A product by id.
    pub fn product(&self, id: &str) -> Option<&DemoProduct> {
        self.products.iter().find(|p| p.id == id)
    }

    /// Operative ids in team order.
    pub fn operatives(&self) -> Vec<&str> {
        self.members
            .iter()
            .filter(|m| m.role == DemoRole::Operative)
            .map(|m| m.id.as_str())
            .collect()
    }

    /// A member's display name, or its id.
    pub fn name_of<'a>(&'a self, id: &'a str) -> &'a str {
        self.members
            .iter()
            .find(|m| m.id == id)
            .map(|m| m.name.as_str())
            .unwrap_or(id)
    }
}
