//! What the team's pages show, decided here so no page re-derives a rule of the team: the remarks
//! addressed to the person, and which of the person's actions a version offers.

use serde::Serialize;

use super::prompt::RemarkView;
use super::TeamState;

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

impl TeamState {
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
