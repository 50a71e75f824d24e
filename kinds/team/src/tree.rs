//! The product tree: what a team builds, as products with versions and the collabs about them.
//!
//! Products get stable temp ids in creation order (`p0` is the root, then `p1`, `p2`, …), versions
//! `v1`, `v2`, … and collabs `c1`, `c2`, … across the whole session, so every prompt, event and
//! export names the same thing the same way. The tree changes shape only through the four
//! [`TreeOperation`]s of the spec, applied all-or-nothing by [`ProductTree::apply`]: a list that
//! would leave a cycle, an orphan or two siblings with the same name changes nothing and says which
//! operation failed and why. Removing a product hides its subtree but keeps every version, so it can
//! be restored. The tree is at most [`limits::TREE_DEPTH_MAX`] levels deep. [`ProductTree::render`]
//! writes the tree as text at the three detail tiers of spec `003` (minimal, extra, full) plus a
//! one-line brief, choosing the tier per product so a prompt shows each member only what it needs;
//! a product's [`Folded`] counts what a prompt leaves out below it.

use roundtable_engine::order::Collect as _;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::check::Known;
use crate::wire::limits;
use crate::wire::{
    CollabOutput, CollabType, Directive, InitialProduct, ProductPatch, ProductType, TreeOperation,
};
use roundtable_engine::text::{one_line, wire_word, Text};

/// Id of the root product, which every other product descends from and which cannot be moved or
/// removed. Bootstrap's initial products become its children.
pub const ROOT_ID: &str = "p0";

/// Where a product stands, so the chair and the person see what is left to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProductStatus {
    /// No version yet.
    Pending,
    /// Has versions, the latest not accepted.
    InProgress,
    /// The chair (or the person) accepted a version and no newer one was written since.
    Accepted,
    /// Taken out of the tree by a REMOVE; restorable.
    Removed,
}

impl ProductStatus {
    /// The status as one word (`in_progress`), for prompts, badges and reports.
    pub fn word(self) -> &'static str {
        match self {
            ProductStatus::Pending => "pending",
            ProductStatus::InProgress => "in_progress",
            ProductStatus::Accepted => "accepted",
            ProductStatus::Removed => "removed",
        }
    }
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Product {
    /// Temp id (`p3`).
    pub id: String,
    /// Parent temp id; `None` only for the root.
    pub parent: Option<String>,
    /// Unique among its siblings.
    pub name: String,
    /// Kind of product.
    pub product_type: ProductType,
    /// Definition of done.
    pub dod: String,
    /// Longer description.
    pub description: Option<String>,
    /// Member responsible for it over the session.
    pub owner: Option<String>,
    /// Member who writes it next.
    pub assignee: Option<String>,
    /// Where it stands.
    pub status: ProductStatus,
    /// Its versions, oldest first.
    pub versions: Vec<String>,
    /// The accepted version, if any.
    pub accepted_version: Option<String>,
    /// Why the chair last rejected it, shown to the next writer.
    pub rejection_reason: Option<String>,
}

impl Product {
    /// The version a reader should see: the accepted one, else the latest.
    pub fn selected_version(&self) -> Option<&str> {
        self.accepted_version
            .as_deref()
            .or_else(|| self.versions.last().map(String::as_str))
    }

    /// The newest version, which is what reviewers and inspectors assess.
    pub fn latest_version(&self) -> Option<&str> {
        self.versions.last().map(String::as_str)
    }

    /// A version's number within this product (1 for its first), which is what a person
    /// counts; version ids (`v4`) count across the whole session.
    pub fn version_number(&self, version_id: &str) -> Option<usize> {
        self.versions
            .iter()
            .position(|v| v == version_id)
            .map(|i| i + 1)
    }
}

/// One written state of a product. Never changed after it is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Version {
    /// Temp id (`v7`).
    pub id: String,
    /// Product it belongs to.
    pub product_id: String,
    /// Title.
    pub title: String,
    /// Markdown content, shared with the answer that wrote it ([`Text`]).
    pub content: Text,
    /// What changed since the previous version.
    pub change_summary: String,
    /// Member who wrote it.
    pub author: String,
    /// Round it was written in.
    pub round: u32,
    /// The chair's directive it answered.
    pub directive: Option<Directive>,
    /// The author's reflection on it, added in a later Reflect.
    pub reflection_note: Option<String>,
}

/// A new version before it gets an id.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionDraft {
    /// Title.
    pub title: String,
    /// Markdown content.
    pub content: Text,
    /// What changed.
    pub change_summary: String,
    /// Member who wrote it.
    pub author: String,
    /// Round.
    pub round: u32,
    /// The directive it answers.
    pub directive: Option<Directive>,
    /// Reflection note, when known at writing time.
    pub reflection_note: Option<String>,
}

/// A comment on a product, with who wrote it and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collab {
    /// Temp id (`c4`).
    pub id: String,
    /// Member who wrote it.
    pub author: String,
    /// Round it was written in.
    pub round: u32,
    /// Product it is about.
    pub product_id: String,
    /// Version it is about.
    pub version_id: Option<String>,
    /// Kind of comment.
    pub collab_type: CollabType,
    /// 1–10.
    pub importance: i64,
    /// The comment.
    pub comment: String,
    /// One line for lists.
    pub summary: String,
    /// Members it is addressed to.
    pub addressees: Vec<String>,
    /// Collabs it answers.
    pub responding_to: Vec<String>,
}

/// How much of a product a prompt shows (spec `003`'s detail tiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// One line: id, name, type, status, owner. For the products a prompt lists only so the
    /// reader knows they exist (a neighbour of its work, a folded branch); below 003's minimal.
    Brief,
    /// Name, id, type, selected version, owner, description, DoD, summary, collab count, version ids.
    Minimal,
    /// Minimal plus the current version's content.
    Extra,
    /// Extra plus the changelog: every version's change summary, reflection note and collabs.
    Full,
}

/// One product as a prompt shows it, at a tier: what the envelope of a call carries and what
/// [`render_views`] writes as text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductView {
    /// `p0`, `p1`, …
    pub id: String,
    /// `None` for the root.
    pub parent_id: Option<String>,
    /// Depth in the tree (root = 0).
    pub depth: u32,
    /// Name.
    pub name: String,
    /// Kind.
    pub product_type: ProductType,
    /// Definition of done.
    pub dod: String,
    /// Description.
    pub description: Option<String>,
    /// Owner member id.
    pub owner: Option<String>,
    /// Assignee member id (current).
    pub assignee: Option<String>,
    /// The status word ([`ProductStatus::word`]).
    pub status: String,
    /// The accepted version, if any.
    pub accepted_version: Option<String>,
    /// The latest version, if any.
    pub latest_version: Option<String>,
    /// Every version id, oldest first.
    pub version_ids: Vec<String>,
    /// The accepted (else latest) version's change summary, on one line (003's "summary").
    pub summary: Option<String>,
    /// Why the chair last rejected it, so the next writer knows what to fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection_reason: Option<String>,
    /// How many collabs are about it.
    pub collab_count: usize,
    /// The tier this view was built at.
    pub tier: Tier,
    /// Extra/full tier: the latest version (title, content, change summary, author).
    pub current: Option<VersionView>,
    /// Full tier: every version, oldest first (content omitted except the latest).
    pub changelog: Vec<VersionView>,
    /// The products below this one that the prompt does not list, counted (a folded branch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folded: Option<Folded>,
}

/// The products below a listed product that a prompt leaves out, counted, so a reader knows what
/// is there without reading it, and can ask for the branch (`request_context`, `peer_content`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Folded {
    /// How many products are left out.
    pub products: usize,
    /// Of those, how many are accepted.
    pub accepted: usize,
    /// Of those, how many have a latest version not accepted yet.
    pub awaiting: usize,
    /// Of those, the ones the reader owns or is assignee of, by id: none of its own work is hidden.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub yours: Vec<String>,
}

impl Folded {
    /// Counts one more product left out.
    pub fn count(&mut self, p: &Product, yours: bool) {
        self.products += 1;
        match p.status {
            ProductStatus::Accepted => self.accepted += 1,
            ProductStatus::InProgress => self.awaiting += 1,
            _ => {}
        }
        if yours {
            self.yours.push(p.id.clone());
        }
    }

    /// `12 products (3 accepted, 9 awaiting acceptance; yours: p4, p9)`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.accepted > 0 {
            parts.push(format!("{} accepted", self.accepted));
        }
        if self.awaiting > 0 {
            parts.push(format!("{} awaiting acceptance", self.awaiting));
        }
        let mut out = format!(
            "{} product{}",
            self.products,
            if self.products == 1 { "" } else { "s" }
        );
        let mut inner = parts.join(", ");
        if !self.yours.is_empty() {
            if !inner.is_empty() {
                inner.push_str("; ");
            }
            let _ = write!(inner, "yours: {}", self.yours.join(", "));
        }
        if !inner.is_empty() {
            let _ = write!(out, " ({inner})");
        }
        out
    }
}

/// One version of a product as a prompt shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionView {
    /// `v3`.
    pub id: String,
    /// Title.
    pub title: String,
    /// Content (shared with the tree's version); empty in changelog entries other than the
    /// latest.
    pub content: Text,
    /// What changed.
    pub change_summary: String,
    /// Member id that wrote it.
    pub author: String,
    /// Round it was written in.
    pub round: u32,
    /// The directive it answered.
    pub directive: Option<Directive>,
    /// The author's reflection note.
    pub reflection_note: Option<String>,
    /// Full tier: the collabs about this version, one line each (`c4 concern by operative-2
    /// (7): summary`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collabs: Vec<String>,
}

impl VersionView {
    /// The view of `v`; changelog entries other than the latest leave the content out.
    pub fn of(v: &Version, with_content: bool) -> VersionView {
        VersionView {
            id: v.id.clone(),
            title: v.title.clone(),
            content: if with_content {
                v.content.clone()
            } else {
                Text::from("")
            },
            change_summary: v.change_summary.clone(),
            author: v.author.clone(),
            round: v.round,
            directive: v.directive.clone(),
            reflection_note: v.reflection_note.clone(),
            collabs: Vec::new(),
        }
    }
}

/// What a successful [`ProductTree::apply`] did, so later parts of the same answer (assignments,
/// acceptance) can resolve the `new-N` ids it introduced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// `new-N` → the product id it became.
    pub new_ids: BTreeMap<String, String>,
}

/// Why a tree change was refused. Operations are numbered from 0 in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum TreeError {
    /// One operation of a list failed; nothing of the list was applied.
    #[error("operation {index} ({action}) failed, nothing was applied: {reason}")]
    Operation {
        /// Position in the list.
        index: usize,
        /// `ADD`, `REMOVE`, `MOVE` or `UPDATE`.
        action: &'static str,
        /// What went wrong.
        reason: TreeProblem,
    },
    /// A change outside a tree operation (a version, a collab, an acceptance) was refused.
    #[error("{0}")]
    Change(TreeProblem),
}

/// One reason a tree change is impossible.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum TreeProblem {
    /// No product has that id (or `new-N` was not introduced earlier in the same list).
    #[error("there is no product {0}")]
    UnknownProduct(String),
    /// The product was removed; restore it first.
    #[error("product {0} was removed")]
    RemovedProduct(String),
    /// The root is fixed.
    #[error("the root product {ROOT_ID} cannot be moved, removed or changed")]
    Root,
    /// A MOVE under the product itself or one of its descendants.
    #[error("{product} cannot move under {parent}, which is itself or one of its descendants")]
    Cycle {
        /// Product being moved.
        product: String,
        /// Requested parent.
        parent: String,
    },
    /// Another child of the same parent already has that name.
    #[error("{}", duplicate_words(parent, name, existing, existing_name))]
    DuplicateSibling {
        /// Parent id.
        parent: String,
        /// The clashing name, as the change gave it.
        name: String,
        /// The sibling that has it.
        existing: String,
        /// The sibling's own name (it may differ in case, width or spacing from `name`).
        existing_name: String,
    },
    /// A name that is empty once trimmed.
    #[error("a product name cannot be empty")]
    EmptyName,
    /// `newId` not of the form `new-N`.
    #[error("newId \"{0}\" must look like new-1, new-2, …")]
    BadNewId(String),
    /// The same `newId` twice in one list.
    #[error("newId {0} is used twice in the same answer")]
    DuplicateNewId(String),
    /// No version has that id.
    #[error("there is no version {0}")]
    UnknownVersion(String),
    /// The version exists but belongs to another product.
    #[error("version {version} belongs to {owner}, not {product}")]
    VersionOfOtherProduct {
        /// Version id.
        version: String,
        /// Product named.
        product: String,
        /// Product it belongs to.
        owner: String,
    },
    /// The same author already wrote the same comment on the same product.
    #[error("{author} already wrote this comment on {product} ({existing})")]
    DuplicateCollab {
        /// Author.
        author: String,
        /// Product.
        product: String,
        /// The existing collab.
        existing: String,
    },
    /// An ADD or MOVE that would put a product deeper than [`limits::TREE_DEPTH_MAX`].
    #[error(
        "{product} would be at depth {depth} under {parent}, and the tree is at most {max} levels deep (the root is level 0); put it under a shallower parent",
        max = limits::TREE_DEPTH_MAX
    )]
    TooDeep {
        /// The product added (its `new-N`) or moved.
        product: String,
        /// The parent asked for.
        parent: String,
        /// The depth its deepest part would reach.
        depth: usize,
    },
    /// A restore of a product that is not removed, or whose parent is removed.
    #[error("{0} cannot be restored: it is not removed or its parent is removed")]
    NotRestorable(String),
}

/// The duplicate-sibling refusal in words: the existing child by its own name, and the new name
/// beside it when the two differ only as names that read the same (case, width, spacing).
fn duplicate_words(parent: &str, name: &str, existing: &str, existing_name: &str) -> String {
    if name == existing_name {
        format!("{parent} already has a child named \"{name}\" ({existing})")
    } else {
        format!(
            "{parent} already has a child {existing} named \"{existing_name}\"; \"{name}\" reads as the same name"
        )
    }
}

impl TreeProblem {
    /// What the tree accepts instead, for the `expected` of a repair.
    pub fn rule(&self) -> String {
        match self {
            TreeProblem::UnknownProduct(_) => {
                "an id listed in the current project structure (or a new-N this answer adds)".into()
            }
            TreeProblem::RemovedProduct(_) => "a product that is not removed".into(),
            TreeProblem::Root => format!("a product other than the root {ROOT_ID}"),
            TreeProblem::Cycle { product, .. } => {
                format!("a parent outside {product}'s own branch")
            }
            TreeProblem::DuplicateSibling { parent, .. } => {
                format!("a name no other child of {parent} has")
            }
            TreeProblem::EmptyName => "a name with words in it".into(),
            TreeProblem::BadNewId(_) => "new-1, new-2, …".into(),
            TreeProblem::DuplicateNewId(_) => "each newId once in an answer".into(),
            TreeProblem::UnknownVersion(_) => "an existing version id".into(),
            TreeProblem::VersionOfOtherProduct { product, .. } => {
                format!("a version of {product}")
            }
            TreeProblem::DuplicateCollab { .. } => "a comment not made before".into(),
            TreeProblem::TooDeep { .. } => format!(
                "a parent under which it and everything below it stay within level {} (the root is level 0)",
                limits::TREE_DEPTH_MAX
            ),
            TreeProblem::NotRestorable(_) => "a removed product whose parent is live".into(),
        }
    }

    /// What the refused change asked for, for the `received` of a repair.
    pub fn found(&self) -> String {
        match self {
            TreeProblem::UnknownProduct(id)
            | TreeProblem::RemovedProduct(id)
            | TreeProblem::BadNewId(id)
            | TreeProblem::DuplicateNewId(id)
            | TreeProblem::UnknownVersion(id)
            | TreeProblem::NotRestorable(id) => id.clone(),
            TreeProblem::Root => ROOT_ID.into(),
            TreeProblem::Cycle { product, parent } => format!("{product} under {parent}"),
            TreeProblem::DuplicateSibling { parent, name, .. } => {
                format!("\"{name}\" under {parent}")
            }
            TreeProblem::EmptyName => "\"\"".into(),
            TreeProblem::VersionOfOtherProduct { version, owner, .. } => {
                format!("{version} (of {owner})")
            }
            TreeProblem::DuplicateCollab { existing, .. } => format!("the comment of {existing}"),
            TreeProblem::TooDeep {
                product,
                parent,
                depth,
            } => format!("{product} under {parent}, at level {depth}"),
        }
    }
}

/// What [`ProductTree::roll_back`] puts back: the products as they were, and how many versions
/// and collabs there were (those are only ever appended to). Taking one copies the products, not
/// every version's content.
#[derive(Debug)]
pub struct Mark {
    products: Vec<Product>,
    versions: usize,
    collabs: usize,
}

/// The whole tree of a session: products (live and removed), every version and every collab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductTree {
    products: Vec<Product>,
    versions: Vec<Version>,
    collabs: Vec<Collab>,
}

fn index_of(id: &str, prefix: char) -> Option<usize> {
    let digits = id.strip_prefix(prefix)?;
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0') && digits.len() > 1
    {
        return None;
    }
    digits.parse().ok()
}

/// A product name as a reader compares names: trimmed, lowercased, runs of spaces made one, and
/// full-width letters, digits and signs (`Ａｇｅｎｄａ`) read as their ASCII forms. Two siblings
/// may not share a key.
fn name_key(name: &str) -> String {
    let folded: String = name
        .chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect();
    folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn is_new_id(id: &str) -> bool {
    id.strip_prefix("new-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

impl ProductTree {
    /// A tree holding only the root product `p0`, a Collection named after the session.
    pub fn new(root_name: &str) -> Self {
        let root = Product {
            id: ROOT_ID.to_string(),
            parent: None,
            name: root_name.to_string(),
            product_type: ProductType::Collection,
            dod: "Every child product is accepted.".to_string(),
            description: None,
            owner: Some("chair".to_string()),
            assignee: None,
            status: ProductStatus::Pending,
            versions: Vec::new(),
            accepted_version: None,
            rejection_reason: None,
        };
        ProductTree {
            products: vec![root],
            versions: Vec::new(),
            collabs: Vec::new(),
        }
    }

    /// A mark to undo the changes made after it: the products, versions and collabs changed or
    /// added since. (A reflection note set since is not undone: no change that may need undoing
    /// sets one.)
    pub fn mark(&self) -> Mark {
        Mark {
            products: self.products.clone(),
            versions: self.versions.len(),
            collabs: self.collabs.len(),
        }
    }

    /// Undoes every change made since `mark` was taken (see [`ProductTree::mark`]).
    pub fn roll_back(&mut self, mark: Mark) {
        self.products = mark.products;
        self.versions.truncate(mark.versions);
        self.collabs.truncate(mark.collabs);
    }

    /// Every product, removed ones included, in creation order.
    pub fn products(&self) -> &[Product] {
        &self.products
    }

    /// Every version in writing order.
    pub fn versions(&self) -> &[Version] {
        &self.versions
    }

    /// Every collab in writing order.
    pub fn collabs(&self) -> &[Collab] {
        &self.collabs
    }

    /// The product with this id, removed or not.
    pub fn product(&self, id: &str) -> Option<&Product> {
        index_of(id, 'p').and_then(|i| self.products.get(i))
    }

    /// The version with this id.
    pub fn version(&self, id: &str) -> Option<&Version> {
        index_of(id, 'v')
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| self.versions.get(i))
    }

    /// The collab with this id.
    pub fn collab(&self, id: &str) -> Option<&Collab> {
        index_of(id, 'c')
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| self.collabs.get(i))
    }

    /// Live (not removed) products in tree order: parents before children, siblings in creation
    /// order, with their depth (root = 0).
    pub fn walk(&self) -> Vec<(usize, &Product)> {
        let children = self.children_index();
        let mut out = Vec::with_capacity(self.products.len());
        let mut stack = vec![(0usize, 0usize)];
        while let Some((idx, depth)) = stack.pop() {
            let product = &self.products[idx];
            if product.status == ProductStatus::Removed {
                continue;
            }
            out.push((depth, product));
            for &child in children[idx].iter().rev() {
                stack.push((child, depth + 1));
            }
        }
        out
    }

    /// Collabs about a product, oldest first.
    pub fn collabs_on<'a>(&'a self, product_id: &'a str) -> impl Iterator<Item = &'a Collab> + 'a {
        self.collabs
            .iter()
            .filter(move |c| c.product_id == product_id)
    }

    /// The ids an answer may name: live products, every version, every collab (members are the
    /// session's business and stay empty here).
    pub fn known(&self) -> Known {
        Known {
            products: self
                .products
                .iter()
                .filter(|p| p.status != ProductStatus::Removed)
                .map(|p| p.id.clone())
                .to_set(),
            versions: self.versions.iter().map(|v| v.id.clone()).to_set(),
            members: BTreeSet::new(),
            collabs: self.collabs.iter().map(|c| c.id.clone()).to_set(),
        }
    }

    /// Adds one of Bootstrap's initial products under the root. A name already used at the top
    /// level is refused like any duplicate sibling.
    pub fn add_initial(&mut self, initial: &InitialProduct) -> Result<String, TreeError> {
        self.add_initials(std::slice::from_ref(initial))
            .map(|mut ids| ids.remove(0))
    }

    /// Adds all of Bootstrap's initial products under the root, all or none, in time linear in
    /// their number (names are checked against an index, the tree is copied once).
    pub fn add_initials(&mut self, list: &[InitialProduct]) -> Result<Vec<String>, TreeError> {
        let mut next = self.products.clone();
        let mut siblings = Siblings::of(&next);
        let mut ids = Vec::with_capacity(list.len());
        for initial in list {
            let id = insert_product(
                &mut next,
                &mut siblings,
                ROOT_ID,
                &initial.name,
                initial.product_type,
                &initial.dod,
                None,
                initial.owner.clone(),
                initial.owner.clone(),
            )
            .map_err(TreeError::Change)?;
            ids.push(id);
        }
        self.products = next;
        Ok(ids)
    }

    /// Applies a list of tree operations all-or-nothing. `new-N` ids introduced by an ADD may be
    /// used by later operations of the same list.
    pub fn apply(&mut self, operations: &[TreeOperation]) -> Result<Applied, TreeError> {
        let mut next = self.products.clone();
        let mut applied = Applied::default();
        let mut siblings = Siblings::of(&next);
        for (index, op) in operations.iter().enumerate() {
            if let Err(reason) = apply_one(&mut next, &mut siblings, &mut applied, op) {
                return Err(TreeError::Operation {
                    index,
                    action: action_name(op),
                    reason: reason.named_as_answered(&applied.new_ids),
                });
            }
        }
        self.products = next;
        Ok(applied)
    }

    /// Puts a removed product (and the subtree removed with it) back under its parent.
    pub fn restore(&mut self, product_id: &str) -> Result<(), TreeError> {
        let problem = |p| Err(TreeError::Change(p));
        let Some(idx) = index_of(product_id, 'p').filter(|&i| i < self.products.len()) else {
            return problem(TreeProblem::UnknownProduct(product_id.into()));
        };
        let product = &self.products[idx];
        let parent_alive = product
            .parent
            .as_deref()
            .and_then(|p| self.product(p))
            .is_some_and(|p| p.status != ProductStatus::Removed);
        if product.status != ProductStatus::Removed || !parent_alive {
            return problem(TreeProblem::NotRestorable(product_id.into()));
        }
        let parent = product.parent.clone().unwrap_or_default();
        let siblings = Siblings::of(&self.products);
        if let Some((existing, existing_name)) =
            siblings.named(&self.products, &parent, &product.name, Some(idx))
        {
            return problem(TreeProblem::DuplicateSibling {
                parent,
                name: product.name.clone(),
                existing,
                existing_name,
            });
        }
        for i in subtree(&self.products, idx) {
            let p = &mut self.products[i];
            p.status = status_from_versions(p);
        }
        Ok(())
    }

    /// Sets who writes a product next (`None` unassigns).
    pub fn set_assignee(
        &mut self,
        product_id: &str,
        assignee: Option<String>,
    ) -> Result<(), TreeError> {
        let idx = self.live_index(product_id)?;
        self.products[idx].assignee = assignee;
        Ok(())
    }

    /// Adds a version to a live product and returns its id. The product is in progress again
    /// until a version is accepted.
    pub fn add_version(
        &mut self,
        product_id: &str,
        draft: VersionDraft,
    ) -> Result<String, TreeError> {
        let idx = self.live_index(product_id)?;
        let id = format!("v{}", self.versions.len() + 1);
        self.versions.push(Version {
            id: id.clone(),
            product_id: product_id.to_string(),
            title: draft.title,
            content: draft.content,
            change_summary: draft.change_summary,
            author: draft.author,
            round: draft.round,
            directive: draft.directive,
            reflection_note: draft.reflection_note,
        });
        let product = &mut self.products[idx];
        product.versions.push(id.clone());
        product.status = ProductStatus::InProgress;
        Ok(id)
    }

    /// Records the author's reflection on a version (Reflect step).
    pub fn set_reflection_note(&mut self, version_id: &str, note: String) -> Result<(), TreeError> {
        let idx = index_of(version_id, 'v')
            .and_then(|i| i.checked_sub(1))
            .filter(|&i| i < self.versions.len())
            .ok_or_else(|| TreeError::Change(TreeProblem::UnknownVersion(version_id.into())))?;
        self.versions[idx].reflection_note = Some(note);
        Ok(())
    }

    /// Whether [`ProductTree::add_version`] would take a version of `product_id` (a live
    /// product), without changing anything: what a protocol checks before it applies an answer.
    pub fn check_live(&self, product_id: &str) -> Result<(), TreeError> {
        self.live_index(product_id).map(|_| ())
    }

    /// Whether [`ProductTree::add_collab`] would take each of `collabs` in turn (by `author`),
    /// without changing anything: the same refusal, naming the same ids, that adding them one by
    /// one would give — a comment repeated inside the list included.
    pub fn check_collabs(&self, author: &str, collabs: &[CollabOutput]) -> Result<(), TreeError> {
        for (i, collab) in collabs.iter().enumerate() {
            self.check_collab(author, collab)?;
            let product_id = collab.refers_to_product.as_str();
            if let Some(j) = collabs[..i].iter().position(|c| {
                c.refers_to_product == product_id && c.comment.trim() == collab.comment.trim()
            }) {
                return Err(TreeError::Change(TreeProblem::DuplicateCollab {
                    author: author.into(),
                    product: product_id.into(),
                    existing: format!("c{}", self.collabs.len() + j + 1),
                }));
            }
        }
        Ok(())
    }

    /// Why `collab` by `author` cannot be added, if it cannot: its product is not live, its
    /// version is not one of that product's, or the author made the same comment there before.
    fn check_collab(&self, author: &str, collab: &CollabOutput) -> Result<(), TreeError> {
        let product_id = collab.refers_to_product.as_str();
        self.live_index(product_id)?;
        if let Some(v) = collab.refers_to_version.as_deref() {
            self.check_version_of(v, product_id)?;
        }
        if let Some(existing) = self.collabs.iter().find(|c| {
            c.author == author
                && c.product_id == product_id
                && c.comment.trim() == collab.comment.trim()
        }) {
            return Err(TreeError::Change(TreeProblem::DuplicateCollab {
                author: author.into(),
                product: product_id.into(),
                existing: existing.id.clone(),
            }));
        }
        Ok(())
    }

    /// Adds a collab and returns its id; the same author writing the same comment on the same
    /// product twice is refused (spec `003`: no duplicate comments).
    pub fn add_collab(
        &mut self,
        author: &str,
        round: u32,
        collab: &CollabOutput,
    ) -> Result<String, TreeError> {
        self.check_collab(author, collab)?;
        let product_id = collab.refers_to_product.as_str();
        let id = format!("c{}", self.collabs.len() + 1);
        self.collabs.push(Collab {
            id: id.clone(),
            author: author.to_string(),
            round,
            product_id: product_id.to_string(),
            version_id: collab.refers_to_version.clone(),
            collab_type: collab.collab_type,
            importance: collab.importance,
            comment: collab.comment.clone(),
            summary: collab.shortest_summary.clone(),
            addressees: collab.addressee_ids.clone().unwrap_or_default(),
            responding_to: collab.responding_to_collab_ids.clone().unwrap_or_default(),
        });
        Ok(id)
    }

    /// Accepts a version of a product (the chair's PlanAssign or the person's edit).
    pub fn accept(&mut self, product_id: &str, version_id: &str) -> Result<(), TreeError> {
        self.can_accept(product_id, version_id)?;
        let idx = self.live_index(product_id)?;
        let product = &mut self.products[idx];
        product.accepted_version = Some(version_id.to_string());
        product.rejection_reason = None;
        product.status = status_from_versions(product);
        Ok(())
    }

    /// Why [`ProductTree::accept`] would refuse `version_id` of `product_id`, if it would: asked
    /// without changing (or copying) the tree.
    pub fn can_accept(&self, product_id: &str, version_id: &str) -> Result<(), TreeError> {
        self.live_index(product_id)?;
        self.check_version_of(version_id, product_id)
    }

    /// Rejects the product's latest version with a reason the next writer will see.
    pub fn reject(&mut self, product_id: &str, reason: &str) -> Result<(), TreeError> {
        let idx = self.live_index(product_id)?;
        let product = &mut self.products[idx];
        product.rejection_reason = Some(reason.to_string());
        if product.accepted_version.as_deref() == product.latest_version() {
            product.accepted_version = None;
        }
        product.status = status_from_versions(product);
        Ok(())
    }

    /// The tree as text, each product at the tier `tier_of` picks (spec `003`). Parents come
    /// before children and children are indented under them.
    pub fn render(&self, tier_of: impl Fn(&Product) -> Tier) -> String {
        render_views(&self.views(tier_of))
    }

    /// Every live product in tree order, each viewed at the tier `tier_of` picks.
    pub fn views(&self, tier_of: impl Fn(&Product) -> Tier) -> Vec<ProductView> {
        let mut collab_count = vec![0usize; self.products.len()];
        for c in &self.collabs {
            if let Some(i) = index_of(&c.product_id, 'p') {
                collab_count[i] += 1;
            }
        }
        self.walk()
            .into_iter()
            .map(|(depth, p)| {
                let count = index_of(&p.id, 'p').map_or(0, |i| collab_count[i]);
                self.product_view(p, depth as u32, tier_of(p), count)
            })
            .collect()
    }

    /// The root's status, which no version of its own sets (its definition of done is that every
    /// product under it is accepted): accepted when every live product under it is, in progress
    /// once any of them has a version, pending before.
    pub fn root_status(&self) -> ProductStatus {
        let mut work = self
            .products
            .iter()
            .filter(|p| p.id != ROOT_ID && p.status != ProductStatus::Removed)
            .peekable();
        if work.peek().is_none() {
            return ProductStatus::Pending;
        }
        let (mut all_accepted, mut started) = (true, false);
        for p in work {
            all_accepted &= p.status == ProductStatus::Accepted;
            started |= p.status != ProductStatus::Pending;
        }
        match (all_accepted, started) {
            (true, _) => ProductStatus::Accepted,
            (false, true) => ProductStatus::InProgress,
            (false, false) => ProductStatus::Pending,
        }
    }

    /// The view of one product at `tier`, for a prompt: extra adds the latest version, full adds
    /// the changelog. The root's status is [`ProductTree::root_status`].
    pub fn product_view(
        &self,
        p: &Product,
        depth: u32,
        tier: Tier,
        collab_count: usize,
    ) -> ProductView {
        let latest = p.latest_version().and_then(|v| self.version(v));
        let selected = p.selected_version().and_then(|v| self.version(v));
        ProductView {
            id: p.id.clone(),
            parent_id: p.parent.clone(),
            depth,
            name: p.name.clone(),
            product_type: p.product_type,
            dod: p.dod.clone(),
            description: p.description.clone(),
            owner: p.owner.clone(),
            assignee: p.assignee.clone(),
            status: if p.id == ROOT_ID {
                self.root_status().word().into()
            } else {
                p.status.word().into()
            },
            accepted_version: p.accepted_version.clone(),
            latest_version: p.latest_version().map(str::to_string),
            version_ids: p.versions.clone(),
            summary: selected.map(|v| one_line(&v.change_summary, 200)),
            rejection_reason: p.rejection_reason.clone(),
            collab_count,
            tier,
            current: if tier <= Tier::Minimal {
                None
            } else {
                latest.map(|v| VersionView::of(v, true))
            },
            changelog: if tier == Tier::Full {
                p.versions
                    .iter()
                    .filter_map(|v| self.version(v))
                    .map(|v| VersionView {
                        collabs: self
                            .collabs
                            .iter()
                            .filter(|c| c.version_id.as_deref() == Some(v.id.as_str()))
                            .map(|c| {
                                format!(
                                    "{} {} by {} ({}): {}",
                                    c.id,
                                    wire_word(&c.collab_type),
                                    c.author,
                                    c.importance,
                                    one_line(&c.summary, 120)
                                )
                            })
                            .collect(),
                        ..VersionView::of(v, false)
                    })
                    .collect()
            } else {
                Vec::new()
            },
            folded: None,
        }
    }

    fn live_index(&self, product_id: &str) -> Result<usize, TreeError> {
        live_index(&self.products, product_id).map_err(TreeError::Change)
    }

    fn check_version_of(&self, version_id: &str, product_id: &str) -> Result<(), TreeError> {
        let v = self
            .version(version_id)
            .ok_or_else(|| TreeError::Change(TreeProblem::UnknownVersion(version_id.into())))?;
        if v.product_id != product_id {
            return Err(TreeError::Change(TreeProblem::VersionOfOtherProduct {
                version: version_id.into(),
                product: product_id.into(),
                owner: v.product_id.clone(),
            }));
        }
        Ok(())
    }

    fn children_index(&self) -> Vec<Vec<usize>> {
        children_of(&self.products)
    }
}

fn children_of(products: &[Product]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); products.len()];
    for (i, p) in products.iter().enumerate() {
        if let Some(parent) = p.parent.as_deref().and_then(|id| index_of(id, 'p')) {
            children[parent].push(i);
        }
    }
    children
}

/// How many ancestors the product at `idx` has (the root: 0).
fn depth_of(products: &[Product], idx: usize) -> usize {
    let mut depth = 0;
    let mut cursor = products[idx]
        .parent
        .as_deref()
        .and_then(|p| index_of(p, 'p'));
    // A tree has no cycle; the bound only keeps a corrupt one from looping.
    while let Some(i) = cursor.filter(|_| depth <= products.len()) {
        depth += 1;
        cursor = products[i].parent.as_deref().and_then(|p| index_of(p, 'p'));
    }
    depth
}

/// How many levels of live products hang below the product at `idx` (a leaf: 0).
fn height_of(products: &[Product], idx: usize) -> usize {
    let children = children_of(products);
    let mut height = 0;
    let mut stack = vec![(idx, 0usize)];
    while let Some((i, h)) = stack.pop() {
        height = height.max(h);
        stack.extend(
            children[i]
                .iter()
                .filter(|&&c| products[c].status != ProductStatus::Removed)
                .map(|&c| (c, h + 1)),
        );
    }
    height
}

/// Indices of `idx` and every product below it (removed ones included).
fn subtree(products: &[Product], idx: usize) -> Vec<usize> {
    let children = children_of(products);
    let mut out = Vec::new();
    let mut stack = vec![idx];
    while let Some(i) = stack.pop() {
        out.push(i);
        stack.extend(children[i].iter().copied());
    }
    out
}

/// Product views as indented text, each at its tier (spec `003`): the one rendering every prompt
/// and [`ProductTree::render`] use.
pub fn render_views(products: &[ProductView]) -> String {
    let mut out = String::new();
    for p in products {
        let pad = "  ".repeat(p.depth as usize);
        let _ = write!(
            out,
            "{pad}- {} \"{}\" [{:?}, {}]",
            p.id, p.name, p.product_type, p.status
        );
        if let Some(o) = &p.owner {
            let _ = write!(out, " owner: {o}");
        }
        if p.tier == Tier::Brief {
            if let Some(f) = &p.folded {
                let _ = write!(out, " — folded, below it: {}", f.words());
            }
            out.push('\n');
            continue;
        }
        if let Some(a) = &p.assignee {
            if p.owner.as_ref() != Some(a) {
                let _ = write!(out, " assignee: {a}");
            }
        }
        if !p.version_ids.is_empty() {
            let _ = write!(out, " versions: {}", p.version_ids.join(","));
        }
        if let Some(a) = &p.accepted_version {
            let _ = write!(out, " accepted: {a}");
        }
        if p.collab_count > 0 {
            let _ = write!(out, " collabs: {}", p.collab_count);
        }
        out.push('\n');
        let _ = writeln!(out, "{pad}  DoD: {}", one_line(&p.dod, 300));
        if let Some(d) = p.description.as_deref().filter(|d| !d.trim().is_empty()) {
            let _ = writeln!(out, "{pad}  Description: {}", one_line(d, 300));
        }
        if let Some(sum) = &p.summary {
            let _ = writeln!(out, "{pad}  Summary: {sum}");
        }
        if let Some(reason) = &p.rejection_reason {
            let _ = writeln!(out, "{pad}  Last rejection: {}", one_line(reason, 300));
        }
        if let Some(f) = &p.folded {
            let _ = writeln!(out, "{pad}  Folded below: {}", f.words());
        }
        if let Some(v) = &p.current {
            let _ = writeln!(
                out,
                "{pad}  Current version {} \"{}\" by {} (round {}):",
                v.id, v.title, v.author, v.round
            );
            for line in v.content.lines() {
                let _ = writeln!(out, "{pad}    {line}");
            }
        }
        if !p.changelog.is_empty() {
            let _ = writeln!(out, "{pad}  History:");
            for v in &p.changelog {
                let _ = write!(
                    out,
                    "{pad}    - {} (round {}, by {}): {}",
                    v.id,
                    v.round,
                    v.author,
                    one_line(&v.change_summary, 200)
                );
                if let Some(n) = &v.reflection_note {
                    let _ = write!(out, " | reflection: {}", one_line(n, 200));
                }
                if let Some(d) = &v.directive {
                    let _ = write!(out, " | directive: {}", one_line(&d.objective, 160));
                }
                out.push('\n');
                for c in &v.collabs {
                    let _ = writeln!(out, "{pad}      {c}");
                }
            }
        }
    }
    out
}

fn status_from_versions(p: &Product) -> ProductStatus {
    match (&p.accepted_version, p.versions.last()) {
        (_, None) => ProductStatus::Pending,
        (Some(a), Some(last)) if a == last => ProductStatus::Accepted,
        _ => ProductStatus::InProgress,
    }
}

fn action_name(op: &TreeOperation) -> &'static str {
    match op {
        TreeOperation::Add { .. } => "ADD",
        TreeOperation::Remove { .. } => "REMOVE",
        TreeOperation::Move { .. } => "MOVE",
        TreeOperation::Update { .. } => "UPDATE",
    }
}

fn live_index(products: &[Product], id: &str) -> Result<usize, TreeProblem> {
    let idx = index_of(id, 'p')
        .filter(|&i| i < products.len())
        .ok_or_else(|| TreeProblem::UnknownProduct(id.into()))?;
    if products[idx].status == ProductStatus::Removed {
        return Err(TreeProblem::RemovedProduct(id.into()));
    }
    Ok(idx)
}

/// The live products under each parent by name as a reader compares names ([`name_key`]), so a
/// list of thousands of ADDs checks each new name in constant time instead of scanning the tree.
struct Siblings {
    by_name: HashMap<(String, String), Vec<usize>>,
}

impl Siblings {
    fn of(products: &[Product]) -> Self {
        let mut index = Siblings {
            by_name: HashMap::with_capacity(products.len()),
        };
        for (i, p) in products.iter().enumerate() {
            if let Some(parent) = &p.parent {
                index.add(parent, &p.name, i);
            }
        }
        index
    }

    fn add(&mut self, parent: &str, name: &str, idx: usize) {
        self.by_name
            .entry((parent.to_string(), name_key(name)))
            .or_default()
            .push(idx);
    }

    fn remove(&mut self, parent: &str, name: &str, idx: usize) {
        if let Some(list) = self.by_name.get_mut(&(parent.to_string(), name_key(name))) {
            list.retain(|&i| i != idx);
        }
    }

    /// The id of a live child of `parent` named like `name`, other than `except`.
    fn named(
        &self,
        products: &[Product],
        parent: &str,
        name: &str,
        except: Option<usize>,
    ) -> Option<(String, String)> {
        self.by_name
            .get(&(parent.to_string(), name_key(name)))?
            .iter()
            .find(|&&i| Some(i) != except && products[i].status != ProductStatus::Removed)
            .map(|&i| (products[i].id.clone(), products[i].name.clone()))
    }
}

#[allow(clippy::too_many_arguments)]
fn insert_product(
    products: &mut Vec<Product>,
    siblings: &mut Siblings,
    parent: &str,
    name: &str,
    product_type: ProductType,
    dod: &str,
    description: Option<String>,
    owner: Option<String>,
    assignee: Option<String>,
) -> Result<String, TreeProblem> {
    live_index(products, parent)?;
    if name.trim().is_empty() {
        return Err(TreeProblem::EmptyName);
    }
    if let Some((existing, existing_name)) = siblings.named(products, parent, name, None) {
        return Err(TreeProblem::DuplicateSibling {
            parent: parent.into(),
            name: name.into(),
            existing,
            existing_name,
        });
    }
    siblings.add(parent, name, products.len());
    let id = format!("p{}", products.len());
    products.push(Product {
        id: id.clone(),
        parent: Some(parent.to_string()),
        name: name.to_string(),
        product_type,
        dod: dod.to_string(),
        description,
        owner,
        assignee,
        status: ProductStatus::Pending,
        versions: Vec::new(),
        accepted_version: None,
        rejection_reason: None,
    });
    Ok(id)
}

impl TreeProblem {
    /// The problem as the answer named things: a product an earlier ADD of the same answer made
    /// is called by its `new-N`, never by an id the model has not seen yet.
    fn named_as_answered(self, new_ids: &BTreeMap<String, String>) -> TreeProblem {
        let name = |id: String| {
            new_ids
                .iter()
                .find(|(_, real)| **real == id)
                .map_or(id, |(new, _)| new.clone())
        };
        match self {
            TreeProblem::UnknownProduct(id) => TreeProblem::UnknownProduct(name(id)),
            TreeProblem::RemovedProduct(id) => TreeProblem::RemovedProduct(name(id)),
            TreeProblem::Cycle { product, parent } => TreeProblem::Cycle {
                product: name(product),
                parent: name(parent),
            },
            TreeProblem::DuplicateSibling {
                parent,
                name: n,
                existing,
                existing_name,
            } => TreeProblem::DuplicateSibling {
                parent: name(parent),
                name: n,
                existing: name(existing),
                existing_name,
            },
            TreeProblem::TooDeep {
                product,
                parent,
                depth,
            } => TreeProblem::TooDeep {
                product: name(product),
                parent: name(parent),
                depth,
            },
            other => other,
        }
    }
}

fn apply_one(
    products: &mut Vec<Product>,
    siblings: &mut Siblings,
    applied: &mut Applied,
    op: &TreeOperation,
) -> Result<(), TreeProblem> {
    let resolve = |id: &str| {
        applied
            .new_ids
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    };
    match op {
        TreeOperation::Add {
            new_id,
            parent_id,
            product,
            ..
        } => {
            if !is_new_id(new_id) {
                return Err(TreeProblem::BadNewId(new_id.clone()));
            }
            if applied.new_ids.contains_key(new_id) {
                return Err(TreeProblem::DuplicateNewId(new_id.clone()));
            }
            let parent = resolve(parent_id);
            let depth = live_index(products, &parent).map_or(0, |i| depth_of(products, i)) + 1;
            if depth > limits::TREE_DEPTH_MAX {
                return Err(TreeProblem::TooDeep {
                    product: new_id.clone(),
                    parent,
                    depth,
                });
            }
            let id = insert_product(
                products,
                siblings,
                &parent,
                &product.name,
                product.product_type,
                &product.dod,
                product.description.clone(),
                product.assignee.clone(),
                product.assignee.clone(),
            )?;
            applied.new_ids.insert(new_id.clone(), id);
        }
        TreeOperation::Remove { product_id, .. } => {
            let idx = live_index(products, &resolve(product_id))?;
            if idx == 0 {
                return Err(TreeProblem::Root);
            }
            for i in subtree(products, idx) {
                products[i].status = ProductStatus::Removed;
            }
        }
        TreeOperation::Move {
            product_id,
            parent_id,
            ..
        } => {
            let id = resolve(product_id);
            let idx = live_index(products, &id)?;
            if idx == 0 {
                return Err(TreeProblem::Root);
            }
            let parent = resolve(parent_id);
            let parent_idx = live_index(products, &parent)?;
            let mut cursor = Some(parent_idx);
            while let Some(c) = cursor {
                if c == idx {
                    return Err(TreeProblem::Cycle {
                        product: id,
                        parent,
                    });
                }
                cursor = products[c].parent.as_deref().and_then(|p| index_of(p, 'p'));
            }
            let depth = depth_of(products, parent_idx) + 1 + height_of(products, idx);
            if depth > limits::TREE_DEPTH_MAX {
                return Err(TreeProblem::TooDeep {
                    product: id,
                    parent,
                    depth,
                });
            }
            if let Some((existing, existing_name)) =
                siblings.named(products, &parent, &products[idx].name, Some(idx))
            {
                let name = products[idx].name.clone();
                return Err(TreeProblem::DuplicateSibling {
                    parent,
                    name,
                    existing,
                    existing_name,
                });
            }
            if let Some(old) = &products[idx].parent {
                siblings.remove(old, &products[idx].name, idx);
            }
            siblings.add(&parent, &products[idx].name, idx);
            products[idx].parent = Some(parent);
        }
        TreeOperation::Update {
            product_id,
            product: patch,
            ..
        } => {
            let id = resolve(product_id);
            if id == ROOT_ID {
                return Err(TreeProblem::Root);
            }
            let idx = live_index(products, &id)?;
            update_product(products, siblings, idx, patch)?;
        }
    }
    Ok(())
}

fn update_product(
    products: &mut [Product],
    siblings: &mut Siblings,
    idx: usize,
    patch: &ProductPatch,
) -> Result<(), TreeProblem> {
    if let Some(name) = &patch.name {
        if name.trim().is_empty() {
            return Err(TreeProblem::EmptyName);
        }
        if let Some(parent) = products[idx].parent.clone() {
            if let Some((existing, existing_name)) =
                siblings.named(products, &parent, name, Some(idx))
            {
                return Err(TreeProblem::DuplicateSibling {
                    parent,
                    name: name.clone(),
                    existing,
                    existing_name,
                });
            }
            siblings.remove(&parent, &products[idx].name, idx);
            siblings.add(&parent, name, idx);
        }
    }
    let p = &mut products[idx];
    if let Some(name) = &patch.name {
        p.name = name.clone();
    }
    if let Some(t) = patch.product_type {
        p.product_type = t;
    }
    if let Some(dod) = &patch.dod {
        p.dod = dod.clone();
    }
    if let Some(d) = &patch.description {
        p.description = Some(d.clone());
    }
    if let Some(assignee) = &patch.assignee {
        p.assignee = assignee.clone();
    }
    Ok(())
}

impl From<TreeError> for roundtable_engine::engine::FoldError {
    /// A refused tree change as the engine reports it: a list operation keeps its position in the
    /// answer (`/treeOperations/<i>`), so the repair prompt points at it.
    fn from(error: TreeError) -> Self {
        match error {
            TreeError::Operation {
                index,
                action,
                reason,
            } => {
                // A clashing name points at the field that clashes: the name an ADD or UPDATE
                // gives, or the parent a MOVE picks.
                let field = match (&reason, action) {
                    (TreeProblem::DuplicateSibling { .. }, "ADD" | "UPDATE") => "/product/name",
                    (TreeProblem::DuplicateSibling { .. }, "MOVE") => "/parentId",
                    (TreeProblem::TooDeep { .. }, _) => "/parentId",
                    _ => "",
                };
                roundtable_engine::engine::FoldError::Refused {
                    pointer: format!("/treeOperations/{index}{field}"),
                    reason: format!("the {action} cannot be applied: {reason}"),
                    expected: reason.rule(),
                    received: reason.found(),
                }
            }
            TreeError::Change(problem) => roundtable_engine::engine::FoldError::Refused {
                pointer: String::new(),
                reason: format!("the tree refused a change: {problem}"),
                expected: problem.rule(),
                received: problem.found(),
            },
        }
    }
}
