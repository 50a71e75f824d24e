//! What the team's pages show, decided here so no page re-derives a rule of the team or reads
//! its state: [`TeamView`] hands each panel its view model — the tree's rows, one product's
//! panel with the actions the person may take on it, the overview, the charter and the remarks
//! addressed to the person.

use std::collections::HashSet;

use serde::Serialize;

use super::config::Charter;
use super::prompt::RemarkView;
use super::tree::{Collab, Product};
use super::wire::{CollabType, ProductType};
use super::TeamState;
use roundtable_engine::engine::Protocol as _;
use roundtable_engine::text::Text;

/// The recipients that mean the person: the wire's `user-1` and `u:all`, and the words models
/// use for them anyway.
const PERSON_RECIPIENTS: &[&str] = &["user-1", "u:all", "user", "person"];

/// What the person may do with one version of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionActions {
    /// "Accept this version": it is not the accepted one and the tree would take it.
    pub accept: bool,
    /// "Reject the latest version": it is its product's latest.
    pub reject: bool,
}

/// The team as its pages show it: one view model per panel, each computed when the panel asks
/// (a tree of thousands of products is not copied for a panel that shows one).
#[derive(Debug, Clone, Copy)]
pub struct TeamView<'a> {
    state: &'a TeamState,
}

/// One visible line of the product tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeRow {
    /// Product id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Depth below the root (0 for the root).
    pub depth: usize,
    /// Its type, as the badge says it ([`type_word`]).
    pub type_word: &'static str,
    /// Its status word (`in_review`), the row's dot class.
    pub status: &'static str,
    /// Whether products sit below it (it can fold).
    pub has_children: bool,
    /// The row's tooltip: id, type, status in words, and who writes it next (or owns it).
    pub title: String,
}

/// One version as the product panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionCard {
    /// Version id.
    pub id: String,
    /// Its number within the product (1 for its first).
    pub number: usize,
    /// Title.
    pub title: String,
    /// Who wrote it, by name.
    pub author: String,
    /// The round it was written in.
    pub round: u32,
    /// What changed.
    pub change_summary: String,
    /// The author's reflection on it, if any.
    pub reflection_note: Option<String>,
    /// Markdown content.
    pub content: Text,
}

/// One collab as the product panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollabCard {
    /// Collab id.
    pub id: String,
    /// Who wrote it, by name.
    pub author: String,
    /// Its kind in words ([`collab_word`]).
    pub type_word: &'static str,
    /// 1–10.
    pub importance: i64,
    /// The round it was written in.
    pub round: u32,
    /// The version it is about.
    pub version_id: Option<String>,
    /// One line.
    pub summary: String,
    /// The comment (Markdown).
    pub comment: String,
}

/// A collab that answers none of the product's other collabs, with those that answer it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollabThread {
    /// The opening collab.
    pub root: CollabCard,
    /// The collabs answering it, oldest first.
    pub replies: Vec<CollabCard>,
}

/// One product's panel: its facts, its versions (the one shown, with what the person may do with
/// it) and its collab threads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductPanel {
    /// Product id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its type ([`type_word`]).
    pub type_word: &'static str,
    /// Its status word (`in_review`), the badge's class.
    pub status: &'static str,
    /// Its status in words (`in review`).
    pub status_text: String,
    /// Who owns it, by name.
    pub owner: Option<String>,
    /// Who writes it next, by name.
    pub assignee: Option<String>,
    /// Its description, when it has one.
    pub description: Option<String>,
    /// Definition of done.
    pub dod: String,
    /// Why its latest version was rejected.
    pub rejection_reason: Option<String>,
    /// Its versions, oldest first.
    pub versions: Vec<VersionCard>,
    /// The version a reader sees (the accepted one, else the latest): an index in `versions`.
    pub shown: Option<usize>,
    /// Whether the shown version is the accepted one.
    pub shown_accepted: bool,
    /// What the person may do with the shown version.
    pub actions: VersionActions,
    /// Its collabs, by thread.
    pub threads: Vec<CollabThread>,
    /// How many collabs are about it.
    pub collab_count: usize,
}

/// One member in the overview's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberRow {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role.
    pub role: String,
    /// Its place in the protocol, in words.
    pub team_role: &'static str,
    /// The model it runs on, by name; `None` when every member shares one ([`Overview::model`]
    /// says it once).
    pub model: Option<String>,
}

/// The overview shown when no product is selected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    /// The presentation, once written: (the member it speaks as, by name; Markdown) per message.
    pub presentation: Vec<(String, String)>,
    /// The person's request (Markdown).
    pub request: String,
    /// "Team: <name>".
    pub team_heading: String,
    /// The team's description.
    pub team_description: String,
    /// The members.
    pub members: Vec<MemberRow>,
    /// The one model every member runs on, by name, when they share one.
    pub model: Option<String>,
    /// What the chair found missing at Bootstrap.
    pub missing_details: Vec<String>,
}

/// The wire word of a product type, for badges.
pub fn type_word(t: ProductType) -> &'static str {
    match t {
        ProductType::Content => "Content",
        ProductType::Decision => "Decision",
        ProductType::Collection => "Collection",
        ProductType::Orchestration => "Orchestration",
    }
}

/// A collab's kind in words, for badges.
pub fn collab_word(t: CollabType) -> &'static str {
    match t {
        CollabType::Feedback => "feedback",
        CollabType::Question => "question",
        CollabType::Suggestion => "suggestion",
        CollabType::Endorsement => "endorsement",
        CollabType::Concern => "concern",
    }
}

impl TeamState {
    /// What the team's pages show ([`TeamView`]).
    pub fn team_view(&self) -> TeamView<'_> {
        TeamView { state: self }
    }

    /// The remarks addressed to the person, oldest first.
    pub fn remarks_to_person(&self) -> Vec<&RemarkView> {
        self.remarks
            .iter()
            .filter(|r| {
                r.recipients
                    .iter()
                    .any(|to| PERSON_RECIPIENTS.contains(&to.as_str()))
            })
            .collect()
    }

    /// What the person may do with `version_id` of `product_id` (nothing for an unknown one).
    pub fn version_actions(&self, product_id: &str, version_id: &str) -> VersionActions {
        let Some(product) = self.tree.product(product_id) else {
            return VersionActions::default();
        };
        if !product.versions.iter().any(|v| v == version_id) {
            return VersionActions::default();
        }
        let accept = product.accepted_version.as_deref() != Some(version_id)
            && self.tree.can_accept(product_id, version_id).is_ok();
        VersionActions {
            accept,
            reject: product.latest_version() == Some(version_id),
        }
    }
}

impl<'a> TeamView<'a> {
    /// How many live products the tree holds (a removed one is not counted).
    pub fn product_count(&self) -> usize {
        self.state.tree.walk().len()
    }

    /// The tree's rows in reading order, without those inside a folded product (`folded` holds
    /// the ids the person folded).
    pub fn tree_rows(&self, folded: &HashSet<String>) -> Vec<TreeRow> {
        let walk = self.state.tree.walk();
        let mut out = Vec::with_capacity(walk.len());
        let mut skip_below: Option<usize> = None;
        for (i, (depth, p)) in walk.iter().enumerate() {
            if let Some(d) = skip_below {
                if *depth > d {
                    continue;
                }
                skip_below = None;
            }
            let has_children = walk.get(i + 1).is_some_and(|(d, _)| *d > *depth);
            if has_children && folded.contains(&p.id) {
                skip_below = Some(*depth);
            }
            let who = p.assignee.as_ref().or(p.owner.as_ref());
            out.push(TreeRow {
                id: p.id.clone(),
                name: p.name.clone(),
                depth: *depth,
                type_word: type_word(p.product_type),
                status: p.status.word(),
                has_children,
                title: format!(
                    "{} · {}{}",
                    type_word(p.product_type),
                    p.status.word().replace('_', " "),
                    who.map(|o| format!(" · {}", self.state.member_name(o)))
                        .unwrap_or_default()
                ),
            });
        }
        out
    }

    /// The panel of product `id` (`None` when the tree has no such product).
    pub fn product(&self, id: &str) -> Option<ProductPanel> {
        let state = self.state;
        let p: &Product = state.tree.product(id)?;
        let versions: Vec<VersionCard> = p
            .versions
            .iter()
            .filter_map(|v| state.tree.version(v))
            .map(|v| VersionCard {
                id: v.id.clone(),
                number: p.version_number(&v.id).unwrap_or(0),
                title: v.title.clone(),
                author: state.member_name(&v.author),
                round: v.round,
                change_summary: v.change_summary.clone(),
                reflection_note: v.reflection_note.clone(),
                content: v.content.clone(),
            })
            .collect();
        let shown_id = p.selected_version();
        let shown = shown_id.and_then(|s| versions.iter().position(|v| v.id == s));
        let actions = match shown {
            Some(i) => state.version_actions(&p.id, &versions[i].id),
            None => VersionActions::default(),
        };
        let collabs: Vec<&Collab> = state.tree.collabs_on(&p.id).collect();
        let ids: HashSet<&str> = collabs.iter().map(|c| c.id.as_str()).collect();
        let threads = collabs
            .iter()
            .filter(|c| !c.responding_to.iter().any(|r| ids.contains(r.as_str())))
            .map(|root| CollabThread {
                root: collab_card(state, root),
                replies: collabs
                    .iter()
                    .filter(|c| c.responding_to.contains(&root.id))
                    .map(|c| collab_card(state, c))
                    .collect(),
            })
            .collect();
        Some(ProductPanel {
            id: p.id.clone(),
            name: p.name.clone(),
            type_word: type_word(p.product_type),
            status: p.status.word(),
            status_text: p.status.word().replace('_', " "),
            owner: p.owner.as_deref().map(|o| state.member_name(o)),
            assignee: p.assignee.as_deref().map(|a| state.member_name(a)),
            description: p.description.clone().filter(|d| !d.is_empty()),
            dod: p.dod.clone(),
            rejection_reason: p.rejection_reason.clone(),
            shown_accepted: shown.is_some() && p.accepted_version.as_deref() == shown_id,
            shown,
            actions,
            versions,
            threads,
            collab_count: collabs.len(),
        })
    }

    /// The overview: the presentation, the request, the team and what the chair found missing.
    pub fn overview(&self) -> Overview {
        let st = self.state;
        let model_of = |m: &super::Member| format!("{}/{}", m.model.provider, m.model.model);
        let shared = roundtable_engine::text::shared_model_name(st.members.iter().map(model_of));
        Overview {
            presentation: st
                .presentation
                .iter()
                .map(|m| (st.member_name(&m.as_agent), m.content.clone()))
                .collect(),
            request: st.request.clone(),
            team_heading: format!("Team: {}", st.team_name),
            team_description: st.team_description.clone(),
            members: st
                .members
                .iter()
                .map(|m| MemberRow {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    role: m.role.clone(),
                    team_role: m.team_role.word(),
                    model: shared
                        .is_none()
                        .then(|| roundtable_engine::text::model_name(&model_of(m))),
                })
                .collect(),
            model: shared,
            missing_details: st.missing_details.clone(),
        }
    }

    /// The charter, once the chair (or the person) wrote one.
    pub fn charter(&self) -> Option<Charter> {
        self.state.charter.clone()
    }

    /// What the charter editor starts from: the charter, or empty fields before there is one.
    pub fn charter_draft(&self) -> Charter {
        self.charter().unwrap_or_default()
    }

    /// The remarks addressed to the person, newest first, each from its member by name.
    pub fn remarks(&self) -> Vec<RemarkView> {
        let mut list: Vec<RemarkView> = self
            .state
            .remarks_to_person()
            .into_iter()
            .map(|r| RemarkView {
                from: self.state.member_name(&r.from),
                ..r.clone()
            })
            .collect();
        list.reverse();
        list
    }
}

fn collab_card(state: &TeamState, c: &Collab) -> CollabCard {
    CollabCard {
        id: c.id.clone(),
        author: state.member_name(&c.author),
        type_word: collab_word(c.collab_type),
        importance: c.importance,
        round: c.round,
        version_id: c.version_id.clone(),
        summary: c.summary.clone(),
        comment: c.comment.clone(),
    }
}

impl roundtable_engine::engine::KindView for TeamState {
    type View<'a> = TeamView<'a>;
    fn kind_view(&self) -> TeamView<'_> {
        self.team_view()
    }
}
