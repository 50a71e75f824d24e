//! The kinds of session as the web app knows them. Each kind's pages live in its own folder
//! (`team/`, `meeting/`, `dialectic/`, `autocoding/`, `review/`) and describe themselves there in one
//! [`KindPages`] value: the session page's panels, the new-session form, the shell's sentences,
//! the home page's demo.
//! The shell reaches them through [`pages_of`], by [`Kind`]; it never names a kind.
//!
//! The list of kinds is core's (`with_kinds!`), so the web side of a kind is its folder plus its
//! `mod` line in `pages/mod.rs`: a kind core registers that has no [`KindPages`] here does not
//! compile.

use leptos::prelude::*;
use roundtable_core::session::{Kind, Session};

/// What the web app shows of one kind of session: data, one value per kind, so the shell's code
/// is written once for every kind.
pub struct KindPages {
    /// The session page's panels for a session of this kind: the one entry the session page
    /// renders it through (given the product the route names and where selecting one goes).
    pub panels: fn(Signal<Option<String>>, Callback<Option<String>>) -> AnyView,
    /// The kind's new-session form, given whether the kind is picked (a form that keeps what
    /// was typed stays mounted and hides itself; another mounts when picked).
    pub new_form: fn(Signal<bool>) -> AnyView,
    /// Whether the form stays mounted, hidden while another kind is picked (see `new_form`).
    pub form_kept: bool,
    /// Buttons of the kind beside Export in the session header (its own document), if any.
    pub exports: Option<fn() -> AnyView>,
    /// The home page's one-click demo of the kind, if it has one.
    pub demo: Option<Demo>,
    /// The Wrap up button's title.
    pub wrap_up: &'static str,
    /// After "Done." when the session is over.
    pub done: &'static str,
    /// After "Use Run to the end" in a draft.
    pub draft: &'static str,
    /// What the kind does, as the home page's tagline lists the kinds ("a team that builds").
    pub tagline: &'static str,
}

/// A home-page button that creates a session of the kind on the demo model and opens it.
pub struct Demo {
    /// The button's `name`.
    pub name: &'static str,
    /// The button's words.
    pub label: &'static str,
    /// The session, created at `now` (ms); the reason in words when it cannot be.
    pub create: fn(u64) -> Result<Session, String>,
}

/// Implemented by each kind's protocol state in the kind's folder: its [`KindPages`].
pub trait HasPages {
    /// The kind's pages.
    const PAGES: KindPages;
}

/// Writes [`pages_of`] for the kinds of core's list.
macro_rules! pages_table {
    (() $($variant:ident($state:ty) $doc:literal,)*) => {
        /// The pages of `kind`.
        pub fn pages_of(kind: Kind) -> &'static KindPages {
            match kind {
                $(Kind::$variant => &<$state as HasPages>::PAGES,)*
            }
        }
    };
}
roundtable_core::with_kinds!([pages_table]());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_core_registers_has_its_own_sentences() {
        for kind in Kind::ALL {
            let pages = pages_of(*kind);
            for words in [pages.wrap_up, pages.done, pages.draft] {
                assert!(!words.trim().is_empty(), "{kind:?}");
            }
            for other in Kind::ALL.iter().filter(|o| *o != kind) {
                assert_ne!(pages.done, pages_of(*other).done, "{kind:?} / {other:?}");
            }
        }
    }

    #[test]
    fn a_kinds_home_demo_creates_a_draft_of_that_kind() {
        let mut names = Vec::new();
        for kind in Kind::ALL {
            if let Some(demo) = &pages_of(*kind).demo {
                let session = (demo.create)(7).expect("the demo's config is valid");
                assert_eq!(session.kind(), *kind);
                assert_eq!(session.status_word(), "draft");
                names.push(demo.name);
            }
        }
        assert_eq!(
            names,
            [
                "demo-meeting",
                "demo-dialectic",
                "demo-autocoding",
                "demo-review"
            ]
        );
    }
}

/// The button beside Export that downloads the session's own document in its kind's format
/// (core's [`Session::kind_document`]: a dialectic's 002 result, autocoding's saved state), named
/// by what it is ("Dialectic (Hegelion format)", "Autocoding state"): two kinds' files are both
/// Hegelion's, and one name on two buttons that download different things says neither. `title`
/// says more.
#[component]
pub fn KindDocumentButton(label: &'static str, title: &'static str) -> impl IntoView {
    let runner = expect_context::<crate::runner::Runner>();
    let state = crate::app::app_state();
    view! {
        <button name="export-002" class="ghost" title=title on:click=move |_| {
            let document = runner.with_untracked(|s| {
                s.kind_document().map(|(kind, text)| (format!("{}.{kind}.json", crate::util::file_stem(&s.title())), text))
            });
            match document {
                Some((name, text)) => if let Err(e) = crate::util::download(&name, "application/json", &text) { state.error(e); },
                None => state.error("This kind of session has no file of its own to download."),
            }
        }>{label}</button>
    }
}
