//! Hash routes (`#/`, `#/new`, `#/s/<id>`, `#/s/<id>@<seq>` — the session as it was after event
//! `seq` —, `#/settings`, and a share link's `#s=…`).
//!
//! The app is a static site that must work from any host and any sub-path, including ones that
//! answer 404 for unknown paths. A fragment never reaches the server, so every route is a hash and
//! a reload always loads the same `index.html`. (leptos_router routes on the path only, which is
//! why the app carries this small router instead.)

use leptos::prelude::*;

/// A page of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The sessions list.
    Home,
    /// The new-session form.
    New,
    /// One session; `product` is the selected product, if any; `at` a point of its history.
    Session {
        /// Session id.
        id: String,
        /// Selected product temp id.
        product: Option<String>,
        /// The session as it was after the event with this `seq` (the history slider); `None`:
        /// live.
        at: Option<u64>,
    },
    /// Keys, default models, theme.
    Settings,
    /// A session shared as a link: the whole fragment (`s=…`), decoded by the page.
    Shared(String),
    /// Anything else: shown as "not found" with a way home.
    NotFound(String),
}

impl Route {
    /// Parses a `location.hash` (with or without the leading `#`).
    pub fn parse(hash: &str) -> Route {
        let fragment = hash.trim_start_matches('#');
        if roundtable_core::share_link::is_link(fragment) {
            return Route::Shared(fragment.to_string());
        }
        let path = fragment.trim_start_matches('/');
        let mut parts = path.split('/').filter(|p| !p.is_empty());
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (None, ..) => Route::Home,
            (Some("new"), None, ..) => Route::New,
            (Some("settings"), None, ..) => Route::Settings,
            (Some("s"), Some(id), None, _) => Route::session_at(id, None),
            (Some("s"), Some(id), Some("p"), Some(p)) => Route::session_at(id, Some(p)),
            _ => Route::NotFound(path.to_string()),
        }
    }

    /// The hash for this route (`#/s/abc`).
    pub fn href(&self) -> String {
        match self {
            Route::Home => "#/".into(),
            Route::New => "#/new".into(),
            Route::Settings => "#/settings".into(),
            Route::Session { id, product, at } => {
                let at = at.map_or(String::new(), |seq| format!("@{seq}"));
                match product {
                    None => format!("#/s/{id}{at}"),
                    Some(p) => format!("#/s/{id}{at}/p/{p}"),
                }
            }
            Route::Shared(fragment) => format!("#{fragment}"),
            Route::NotFound(path) => format!("#/{path}"),
        }
    }

    /// A session, live, with nothing selected.
    pub fn session(id: impl Into<String>) -> Route {
        Route::Session {
            id: id.into(),
            product: None,
            at: None,
        }
    }

    /// A session route from its id segment (`abc` or `abc@12`): a point of history that is not a
    /// number is ignored (the live session opens).
    fn session_at(segment: &str, product: Option<&str>) -> Route {
        let (id, at) = match segment.split_once('@') {
            Some((id, seq)) => (id, seq.parse().ok()),
            None => (segment, None),
        };
        Route::Session {
            id: id.to_string(),
            product: product.map(str::to_string),
            at,
        }
    }

    /// The route the page is on now.
    pub fn current() -> Route {
        Route::parse(&window().location().hash().unwrap_or_default())
    }
}

/// Navigates by setting the hash (adds a history entry, so Back works).
pub fn navigate(route: &Route) {
    let _ = window().location().set_hash(&route.href());
}

/// Moves to `route` in place of the current history entry (the history slider: stepping through
/// events must not fill the Back button's list).
pub fn replace(route: &Route) {
    let _ = window().location().replace(&route.href());
}

/// A signal that follows `location.hash`.
pub fn use_route() -> ReadSignal<Route> {
    let (route, set_route) = signal(Route::current());
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        set_route.set(Route::current());
    });
    on_cleanup(move || handle.remove());
    route
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_round_trip_through_their_hash() {
        for r in [
            Route::Home,
            Route::New,
            Route::Settings,
            Route::session("abc"),
            Route::Session {
                id: "abc".into(),
                product: Some("p3".into()),
                at: None,
            },
            Route::Session {
                id: "abc".into(),
                product: None,
                at: Some(12),
            },
            Route::Session {
                id: "abc".into(),
                product: Some("p3".into()),
                at: Some(0),
            },
            Route::Shared("s=AbC-_9".into()),
        ] {
            assert_eq!(Route::parse(&r.href()), r);
        }
    }

    #[test]
    fn empty_and_unknown_hashes() {
        assert_eq!(Route::parse(""), Route::Home);
        assert_eq!(Route::parse("#"), Route::Home);
        assert_eq!(Route::parse("#/nope"), Route::NotFound("nope".into()));
        assert_eq!(Route::parse("#/s/abc@x"), Route::session("abc"));
        assert_eq!(Route::parse("#/s/abc@7").href(), "#/s/abc@7");
    }
}
