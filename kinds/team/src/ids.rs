//! The team's id scope: which fields of its answer shapes name something of the session (a
//! product, a version, a collab, a member, a `new-N` of the same answer), and which field is a
//! version's content and its rule ([`CONTENT`]), which the validator holds to rules a JSON Schema
//! cannot say.
//!
//! The shapes themselves come from the serde types (`crate::wire`) through their
//! JSON Schema; the team's validator tables (`shape.rs`) are generated from that schema plus this
//! scope (`shape_gen.rs`), so a field's type, limits and optionality are written once, on the
//! type. Each entry is `(schema definition, field, what the string names)`; for a list of ids the
//! kind is that of each item. A test fails when an entry names a field the schema does not have.
//!
//! [`TeamIds`] is the scope the validator's walker asks about each of those strings as it passes
//! it (`validate::check::IdScope`): the team's id rules live here, not in the walker — which ids
//! must exist ([`Known`]), `new-N` ids added by a PlanAssign's own ADDs and named by its later
//! parts, and the special addresses a remark may go to.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use super::wire::limits;

use serde::{Deserialize, Serialize};

use roundtable_engine::validate::check::{At, IdScope};
use roundtable_engine::validate::json::{self, Seg};
use roundtable_engine::validate::shape::ContentRule;
use roundtable_engine::validate::Violation;

/// The ids a session knows, to check that every id an answer names exists. When the caller has no
/// session (the JS API without `known`), pass `None` and only the shape is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// Product temp ids (`p0`, `p1`, …).
    #[serde(default)]
    pub products: BTreeSet<String>,
    /// Version temp ids (`v1`, …).
    #[serde(default)]
    pub versions: BTreeSet<String>,
    /// Member ids (`chair`, `operative-1`, `inspector`, `envoy`, `user-1`).
    #[serde(default)]
    pub members: BTreeSet<String>,
    /// Collab temp ids (`c1`, …).
    #[serde(default)]
    pub collabs: BTreeSet<String>,
}

/// Which kind of id a string names, i.e. which set of [`Known`] it must be in. The validator's
/// tables carry it as its number (`Ty::Id(IdKind::Product as u8)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum IdKind {
    /// An existing product.
    Product,
    /// An existing product, or a `new-N` added by any ADD of the same answer.
    ProductOrNew,
    /// Inside a tree operation: an existing product or a `new-N` added by an earlier ADD.
    TreeProduct,
    /// The `newId` of an ADD: `new-N`, unique in the answer.
    NewId,
    /// An existing version.
    Version,
    /// An existing collab.
    Collab,
    /// An existing member.
    Member,
    /// A member or one of the special addresses (`user`, `team`, `u:all`, …).
    Recipient,
}

impl IdKind {
    const ALL: [IdKind; 8] = [
        IdKind::Product,
        IdKind::ProductOrNew,
        IdKind::TreeProduct,
        IdKind::NewId,
        IdKind::Version,
        IdKind::Collab,
        IdKind::Member,
        IdKind::Recipient,
    ];

    fn of(tag: u8) -> IdKind {
        IdKind::ALL
            .get(usize::from(tag))
            .copied()
            .expect("the tables name only the team's id kinds")
    }
}

/// Addresses that are not members but may receive remarks and halts.
pub(crate) const SPECIAL_RECIPIENTS: &[&str] = &["user", "user-1", "u:all", "team", "chair"];

/// How long a `received` gets.
const RECEIVED_MAX: usize = 80;

/// The team's id scope for one walk of one answer: the ids the session knows (`None`: only the
/// shape of the ids is checked) and the `new-N`s the answer adds as it goes.
pub(crate) struct TeamIds<'a, 'k> {
    known: Option<&'k Known>,
    /// `newId`s seen, with the index of the operation that adds each.
    new_ids: HashMap<Cow<'a, str>, usize>,
    /// References to a `new-N` that can only be judged once the whole answer is read.
    pending: Vec<Pending<'a>>,
}

/// A reference to a `new-N` not added (yet) when it was read.
struct Pending<'a> {
    /// Where the reference stands in the text.
    at: usize,
    path: String,
    id: Cow<'a, str>,
    /// Index of the tree operation naming it, or `usize::MAX` outside `treeOperations`.
    op: usize,
}

impl<'k> TeamIds<'_, 'k> {
    /// A scope checking ids against `known` (or only their form, with `None`).
    pub(crate) fn new(known: Option<&'k Known>) -> Self {
        TeamIds {
            known,
            new_ids: HashMap::new(),
            pending: Vec::new(),
        }
    }
}

/// Index of the tree operation at `path`, or `usize::MAX` outside `treeOperations`.
fn tree_op(path: &[Seg<'_>]) -> usize {
    match path {
        [Seg::Key("treeOperations", _), Seg::Idx(i), ..] => *i,
        _ => usize::MAX,
    }
}

impl<'a> IdScope<'a> for TeamIds<'a, '_> {
    fn id(&mut self, tag: u8, id: Cow<'a, str>, at: &mut At<'_, 'a>) {
        let kind = IdKind::of(tag);
        if kind == IdKind::NewId {
            self.new_id(id, at);
            return;
        }
        let Some(known) = self.known else { return };
        let exists = match kind {
            IdKind::Product | IdKind::ProductOrNew | IdKind::TreeProduct => {
                known.products.contains(id.as_ref())
            }
            IdKind::Version => known.versions.contains(id.as_ref()),
            IdKind::Collab => known.collabs.contains(id.as_ref()),
            IdKind::Member => known.members.contains(id.as_ref()),
            IdKind::Recipient => {
                known.members.contains(id.as_ref()) || SPECIAL_RECIPIENTS.contains(&id.as_ref())
            }
            IdKind::NewId => true,
        };
        if exists {
            return;
        }
        if matches!(kind, IdKind::ProductOrNew | IdKind::TreeProduct) && id.starts_with("new-") {
            let op = if kind == IdKind::TreeProduct {
                tree_op(at.path)
            } else {
                usize::MAX
            };
            // Usually the ADD came first: settle it now, without remembering anything.
            if self
                .new_ids
                .get(&id)
                .is_some_and(|&added| op == usize::MAX || added < op)
            {
                return;
            }
            let path = at.pointer();
            let pos = at.pos();
            self.pending.push(Pending {
                at: pos,
                path,
                id,
                op,
            });
            return;
        }
        let path = at.pointer();
        let v = dangling(path, kind, &id, known);
        at.error(v);
    }

    fn declaring_field(&self) -> Option<&'static str> {
        Some("newId")
    }

    fn declare(&mut self, id: Cow<'a, str>, path: &[Seg<'a>]) {
        self.new_ids.entry(id).or_insert_with(|| tree_op(path));
    }

    fn finish(&mut self, at: &mut At<'_, 'a>) {
        let Some(known) = self.known else { return };
        for p in std::mem::take(&mut self.pending) {
            match self.new_ids.get(&p.id).copied() {
                Some(added) if p.op == usize::MAX || added < p.op => {}
                Some(added) => at.error_at(
                    p.at,
                    Violation::new(
                        p.path,
                        format!("{} is added by a later tree operation", p.id),
                        "a new-N added by an earlier ADD".into(),
                        format!("{:?}", p.id),
                        format!(
                            "Move the ADD of {} (/treeOperations/{added}) before the operations that use it.",
                            p.id
                        ),
                    ),
                ),
                None => {
                    let kind = if p.op == usize::MAX {
                        IdKind::ProductOrNew
                    } else {
                        IdKind::TreeProduct
                    };
                    at.error_at(p.at, dangling(p.path, kind, &p.id, known));
                }
            }
        }
    }

    fn expected(&self, tag: u8) -> &'static str {
        match IdKind::of(tag) {
            IdKind::NewId => "a string new-N",
            _ => "a string id",
        }
    }
}

impl<'a> TeamIds<'a, '_> {
    fn new_id(&mut self, id: Cow<'a, str>, at: &mut At<'_, 'a>) {
        let well_formed = id
            .strip_prefix("new-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !well_formed {
            let v = Violation::new(
                at.pointer(),
                format!("newId {id:?} is not of the form new-N"),
                "new-N, e.g. new-1".into(),
                json::shorten(&format!("{id:?}"), RECEIVED_MAX),
                "Name new products new-1, new-2, … in the order you add them; the engine gives them real ids.".into(),
            );
            at.error(v);
            return;
        }
        if let Some(&first) = self.new_ids.get(&id) {
            let v = Violation::new(
                at.pointer(),
                format!("newId {id} is used twice"),
                "a newId not used before in this answer".into(),
                format!("{id:?}"),
                format!("/treeOperations/{first} already adds {id}; give this product the next free number."),
            );
            at.error(v);
            return;
        }
        let op = tree_op(at.path);
        self.new_ids.insert(id, op);
    }
}

/// The violation of an id that names nothing the session knows.
fn dangling(path: String, kind: IdKind, id: &str, known: &Known) -> Violation {
    let (noun, set) = match kind {
        IdKind::Version => ("version", &known.versions),
        IdKind::Collab => ("collab", &known.collabs),
        IdKind::Member | IdKind::Recipient => ("member", &known.members),
        _ => ("product", &known.products),
    };
    let mut some: Vec<&str> = set.iter().take(8).map(String::as_str).collect();
    if kind == IdKind::Recipient {
        some.extend(
            SPECIAL_RECIPIENTS
                .iter()
                .copied()
                .filter(|s| !set.contains(*s))
                .take(3),
        );
    }
    let more = if set.len() > 8 { ", …" } else { "" };
    let list = if some.is_empty() {
        "none".to_string()
    } else {
        format!("{}{more}", some.join(", "))
    };
    let name = path
        .rsplit('/')
        .find(|s| s.parse::<usize>().is_err())
        .unwrap_or("id")
        .to_string();
    let expected = match kind {
        IdKind::ProductOrNew => {
            "an existing product id, or a new-N added by treeOperations".to_string()
        }
        IdKind::TreeProduct => {
            "an existing product id, or a new-N added by an earlier ADD".to_string()
        }
        IdKind::Recipient => "a member id, or user, team, chair, u:all".to_string(),
        _ => format!("an existing {noun} id"),
    };
    let hint = if id.starts_with("new-") && kind == IdKind::Product {
        format!("new-N ids exist only inside the PlanAssign answer that adds them. Known {noun}s: {list}.")
    } else {
        format!("Use an id the session knows. Known {noun}s: {list}.")
    };
    Violation::new(
        path,
        format!("{name} names {noun} {id:?}, which does not exist"),
        expected,
        json::shorten(&format!("{id:?}"), RECEIVED_MAX),
        hint,
    )
}

/// The id fields of the team's answers, by `$defs` name and wire field name.
#[cfg(test)]
pub(crate) const ID_FIELDS: &[(&str, &str, IdKind)] = &[
    ("ContextRequest", "productId", IdKind::Product),
    ("CollabOutput", "refersToProduct", IdKind::Product),
    ("CollabOutput", "refersToVersion", IdKind::Version),
    ("CollabOutput", "referencesProductIds", IdKind::Product),
    ("CollabOutput", "addresseeIds", IdKind::Member),
    ("CollabOutput", "respondingToCollabIds", IdKind::Collab),
    ("RemarkOutput", "recipients", IdKind::Recipient),
    // Tree operations: a product that exists, or a `new-N` added by an earlier ADD.
    ("TreeOperation", "newId", IdKind::NewId),
    ("TreeOperation", "parentId", IdKind::TreeProduct),
    ("TreeOperation", "productId", IdKind::TreeProduct),
    ("NewProduct", "assignee", IdKind::Member),
    ("ProductPatch", "assignee", IdKind::Member),
    // PlanAssign may name a product its own tree operations add.
    ("AttachedContext", "productId", IdKind::Product),
    ("AssignmentOutput", "productId", IdKind::ProductOrNew),
    ("AssignmentOutput", "assignee", IdKind::Member),
    ("AcceptanceDecision", "productId", IdKind::ProductOrNew),
    ("AcceptanceDecision", "versionId", IdKind::Version),
    ("ChairVersion", "productId", IdKind::ProductOrNew),
    ("InitialProduct", "owner", IdKind::Member),
    ("FeedbackResponse", "collabId", IdKind::Collab),
    ("Reflection", "refersToProduct", IdKind::Product),
    ("WrittenVersion", "productId", IdKind::Product),
    ("Review", "productId", IdKind::Product),
    ("Review", "versionId", IdKind::Version),
    ("Inspection", "productId", IdKind::Product),
    ("Inspection", "versionId", IdKind::Version),
    ("PresentationMessage", "asAgent", IdKind::Member),
];

/// A version's content: at least `limits::CONTENT_MIN` chars of plain text, never JSON.
#[cfg(test)]
pub(crate) const CONTENT_FIELDS: &[(&str, &str)] = &[("NewVersion", "content")];

/// The rule of a version's content (the validator's `Ty::Content`): its limits, and how to fix a
/// content under or over them.
pub(crate) static CONTENT: ContentRule = ContentRule {
    min: limits::CONTENT_MIN,
    max: limits::CONTENT_MAX,
    too_short_hint: "Write the whole content of the version, not a summary or a placeholder.",
    too_long_hint:
        "Split the product: keep this version to its essentials and ADD child products for the rest.",
};
