//! The JSON Schema of an answer, loaded from the static site (`schemas/<name>.plain.json`, which
//! Trunk copies from `core/schemas/`) once per name and kept for the tab's life.
//!
//! Loaded, not compiled in: the app does not carry the schemas' text in its download, and a
//! protocol that adds a schema needs no change here. A schema that cannot be loaded is `None`:
//! the call then goes without provider enforcement (the prompt still describes the shape, and
//! the validator still checks every answer).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

thread_local! {
    static CACHE: RefCell<HashMap<String, Option<Rc<Value>>>> = RefCell::new(HashMap::new());
}

/// Whether `name` may name a schema file: a step's wire name (`plan_assign`), nothing that could
/// leave the `schemas/` folder.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// The path of a schema's file, relative to the page.
pub fn path(name: &str) -> String {
    format!("schemas/{name}.plain.json")
}

/// The plain JSON Schema named `name` (a step's wire name, such as `plan_assign`), fetched once
/// and cached; `None` when the name is not valid or the file cannot be loaded or read.
pub async fn load(name: &str) -> Option<Rc<Value>> {
    if !valid_name(name) {
        return None;
    }
    if let Some(hit) = CACHE.with(|c| c.borrow().get(name).cloned()) {
        return hit;
    }
    let fetched = match gloo_net::http::Request::get(&path(name)).send().await {
        Ok(r) if r.ok() => r.json::<Value>().await.ok().map(Rc::new),
        _ => None,
    };
    // A failed fetch is not cached: the next call tries again (the site may have been offline).
    if fetched.is_some() {
        CACHE.with(|c| c.borrow_mut().insert(name.to_string(), fetched.clone()));
    }
    fetched
}

/// The schema family a provider's structured-output mode belongs to (`None` for the demo, which
/// is sent no schema).
pub fn family(id: super::ProviderId) -> Option<roundtable_core::provider_rules::Family> {
    use super::ProviderId as P;
    use roundtable_core::provider_rules::Family;
    match id {
        P::Demo => None,
        P::OpenAi | P::OpenRouter | P::Mistral | P::Groq => Some(Family::OpenaiStrict),
        P::Anthropic => Some(Family::Anthropic),
        P::Gemini => Some(Family::Gemini),
        P::Ollama | P::Local => Some(Family::Grammar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_make_a_path() {
        assert!(valid_name("plan_assign"));
        assert_eq!(path("write"), "schemas/write.plain.json");
        for bad in ["", "../secrets", "a/b", "Write", "x.json", "%2e%2e"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }
}
