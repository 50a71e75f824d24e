//! The models a provider offers, from its models endpoint, and the connection test built on it.
//!
//! Listing models is the cheapest call every family has (no tokens, no cost) and it needs the key
//! and the base URL to be right, so "Test connection" is a listing: it says whether the provider
//! was reached, whether the key was taken, and whether the chosen model is offered. Requests and
//! answers are pure ([`request`], [`parse`]); [`list`] sends them.

use serde_json::Value;

use super::errors::{self, ProviderError};
use super::{anthropic, Family, ProviderId};

/// The models-list request of a provider: URL and only the headers its family needs.
pub fn request(
    id: ProviderId,
    base: &str,
    key: Option<&str>,
) -> (String, Vec<(&'static str, String)>) {
    let base = base.trim_end_matches('/');
    let bearer = |k: &str| ("Authorization", format!("Bearer {k}"));
    match id.family() {
        Family::Anthropic => {
            let mut headers = vec![
                ("anthropic-version", anthropic::VERSION.to_string()),
                ("anthropic-dangerous-direct-browser-access", "true".into()),
            ];
            if let Some(k) = key {
                headers.insert(0, ("x-api-key", k.to_string()));
            }
            (format!("{base}/models?limit=1000"), headers)
        }
        Family::Gemini => (
            format!("{base}/models?pageSize=1000"),
            key.map(|k| vec![("x-goog-api-key", k.to_string())])
                .unwrap_or_default(),
        ),
        Family::Ollama => (
            format!("{base}/api/tags"),
            key.map(|k| vec![bearer(k)]).unwrap_or_default(),
        ),
        Family::OpenAi | Family::Demo => (
            format!("{base}/models"),
            key.map(|k| vec![bearer(k)]).unwrap_or_default(),
        ),
    }
}

/// The model names in a models-list answer, sorted. Gemini lists embedding models too: only
/// those that can `generateContent` are kept.
pub fn parse(id: ProviderId, body: &Value) -> Result<Vec<String>, ProviderError> {
    let list = |pointer: &str| {
        body.pointer(pointer)
            .and_then(Value::as_array)
            .ok_or_else(|| ProviderError::Malformed(format!("no {pointer} in the model list")))
    };
    let mut names: Vec<String> = match id.family() {
        Family::Gemini => list("/models")?
            .iter()
            .filter(|m| {
                m.get("supportedGenerationMethods")
                    .and_then(Value::as_array)
                    .is_none_or(|ms| ms.iter().any(|x| x == "generateContent"))
            })
            .filter_map(|m| m.get("name")?.as_str())
            .map(|n| n.trim_start_matches("models/").to_string())
            .collect(),
        Family::Ollama => list("/models")?
            .iter()
            .filter_map(|m| m.get("name").or_else(|| m.get("model"))?.as_str())
            .map(String::from)
            .collect(),
        _ => list("/data")?
            .iter()
            .filter_map(|m| m.get("id")?.as_str())
            .map(String::from)
            .collect(),
    };
    names.sort();
    names.dedup();
    Ok(names)
}

/// What a connection test found, in words for the settings page.
pub fn verdict(id: ProviderId, models: &[String], chosen: &str) -> String {
    let chosen = chosen.trim();
    let count = models.len();
    if chosen.is_empty() {
        return format!("Connected to {}: {count} models offered.", id.label());
    }
    if models.iter().any(|m| m == chosen) {
        format!(
            "Connected to {}: the key works and {chosen} is offered ({count} models).",
            id.label()
        )
    } else {
        format!(
            "Connected to {}, but it does not list {chosen} among its {count} models: pick one from the list.",
            id.label()
        )
    }
}

/// Fetches a provider's model list.
pub async fn list(
    id: ProviderId,
    base: &str,
    key: Option<&str>,
) -> Result<Vec<String>, ProviderError> {
    if id.needs_key() && key.is_none() {
        return Err(ProviderError::MissingKey(id.label()));
    }
    let (url, headers) = request(id, base, key);
    let mut builder = gloo_net::http::Request::get(&url);
    for (name, value) in &headers {
        builder = builder.header(name, value);
    }
    let response = builder
        .send()
        .await
        .map_err(|e| errors::network(&url, e.to_string()))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| errors::network(&url, e.to_string()))?;
    if !(200..300).contains(&status) {
        let wait = errors::retry_after_ms(
            response.headers().get("retry-after").as_deref(),
            None,
            &text,
        );
        return Err(errors::classify(id.label(), "", status, &text, wait));
    }
    let body: Value =
        serde_json::from_str(&text).map_err(|e| ProviderError::Malformed(e.to_string()))?;
    parse(id, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_family_lists_models_where_its_docs_say() {
        let (url, headers) = request(ProviderId::Gemini, "https://g/v1beta/", Some("k"));
        assert_eq!(url, "https://g/v1beta/models?pageSize=1000");
        assert_eq!(headers, vec![("x-goog-api-key", "k".to_string())]);
        let (url, headers) = request(ProviderId::Ollama, "http://127.0.0.1:11434", None);
        assert_eq!(url, "http://127.0.0.1:11434/api/tags");
        assert!(headers.is_empty());
        let (_, headers) = request(ProviderId::Anthropic, "https://a/v1", Some("k"));
        let names: Vec<&str> = headers.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "x-api-key",
                "anthropic-version",
                "anthropic-dangerous-direct-browser-access"
            ]
        );
        let (url, headers) = request(
            ProviderId::Groq,
            "https://api.groq.com/openai/v1",
            Some("k"),
        );
        assert_eq!(url, "https://api.groq.com/openai/v1/models");
        assert_eq!(headers, vec![("Authorization", "Bearer k".to_string())]);
    }

    #[test]
    fn lists_are_read_per_family() {
        let openai = json!({"object":"list","data":[{"id":"gpt-5"},{"id":"gpt-4.1-mini"}]});
        assert_eq!(
            parse(ProviderId::OpenAi, &openai).unwrap(),
            ["gpt-4.1-mini", "gpt-5"]
        );
        let gemini = json!({"models":[
            {"name":"models/gemini-2.5-flash","supportedGenerationMethods":["generateContent","countTokens"]},
            {"name":"models/text-embedding-004","supportedGenerationMethods":["embedContent"]}]});
        assert_eq!(
            parse(ProviderId::Gemini, &gemini).unwrap(),
            ["gemini-2.5-flash"]
        );
        let ollama = json!({"models":[{"name":"llama3.1:latest","model":"llama3.1:latest"}]});
        assert_eq!(
            parse(ProviderId::Ollama, &ollama).unwrap(),
            ["llama3.1:latest"]
        );
        assert!(parse(ProviderId::Mistral, &json!({"error":"x"})).is_err());
    }

    #[test]
    fn the_verdict_says_whether_the_chosen_model_is_offered() {
        let models = vec!["a".to_string(), "b".to_string()];
        insta::assert_snapshot!(
            [
                verdict(ProviderId::Mistral, &models, "b"),
                verdict(ProviderId::Mistral, &models, "zz"),
                verdict(ProviderId::Ollama, &models, ""),
            ]
            .join("\n"),
            @r"
        Connected to Mistral: the key works and b is offered (2 models).
        Connected to Mistral, but it does not list zz among its 2 models: pick one from the list.
        Connected to Ollama: 2 models offered.
        "
        );
    }
}
