//! Hash routes (`#/`, `#/new`, `#/s/<id>`, `#/settings`, and a share link's `#s=…`).
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
    /// One session; `product` is the selected product, if any.
    Session {
        /// Session id.
        id: String,
        /// Selected product temp id.
        product: Option<String>,
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
            (Some("s"), Some(id), None, _) => Route::Session {
                id: id.to_string(),
                product: None,
            },
            (Some("s"), Some(id), Some("p"), Some(p)) => Route::Session {
                id: id.to_string(),
                product: Some(p.to_string()),
            },
            _ => Route::NotFound(path.to_string()),
        }
    }

    /// The hash for this route (`#/s/abc`).
    pub fn href(&self) -> String {
        match self {
            Route::Home => "#/".into(),
            Route::New => "#/new".into(),
            Route::Settings => "#/settings".into(),
            Route::Session { id, product: None } => format!("#/s/{id}"),
            Route::Session {
                id,
                product: Some(p),
            } => format!("#/s/{id}/p/{p}"),
            Route::Shared(fragment) => format!("#{fragment}"),
            Route::NotFound(path) => format!("#/{path}"),
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
            Route::Session {
                id: "abc".into(),
                product: None,
            },
            Route::Session {
                id: "abc".into(),
                product: Some("p3".into()),
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
    }
}
