//! The team's id scope: which fields of its answer shapes name something of the session (a
//! product, a version, a collab, a member, a `new-N` of the same answer), and which field is a
//! version's content, which the validator holds to rules a JSON Schema cannot say.
//!
//! The shapes themselves come from the serde types (`crate::schema`) through their JSON Schema;
//! the validator's tables are generated from that schema plus this scope
//! (`crate::validate::shape`), so a field's type, limits and optionality are written once, on the
//! type. Each entry is `(schema definition, field, what the string names)`; for a list of ids the
//! kind is that of each item. A test fails when an entry names a field the schema does not have.

use crate::validate::shape::IdKind;

/// The id fields of the team's answers, by `$defs` name and wire field name.
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
pub(crate) const CONTENT_FIELDS: &[(&str, &str)] = &[("NewVersion", "content")];
