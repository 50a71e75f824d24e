//! The models a provider offers, from its models endpoint, and the connection test.
//!
//! Listing models is the cheapest call every family has (no tokens, no cost), but a listing that
//! works says nothing of the chosen model, the answer format or a CORS rule that only a POST
//! meets. So "Test connection" makes one real, minimal completion ([`test_call`]: a dozen tokens
//! in, at most [`TEST_MAX_TOKENS`] out) with the chosen model through the same adapter a session
//! uses, and says what happened in plain words ([`answered`], or the [`ProviderError`] of that
//! failure kind: key refused, model unknown, rate limited, quota used up, overloaded, network or
//! CORS). The model list is refreshed beside it. Requests and answers are pure ([`request`],
//! [`parse`]); [`list`] and [`test_connection`] send them.

use serde_json::Value;

use super::errors::{self, ProviderError};
use roundtable_core::protocol::{ChatRole, Message, ModelCall};

use super::{anthropic, CallRequest, Completion, Family, ProviderId, StopReason};

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
    roundtable_core::order::sort(&mut names);
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

/// The most answer tokens the connection test asks for: enough for `{"ok": true}`, cheap on any
/// price list.
pub const TEST_MAX_TOKENS: u32 = 32;

/// The connection test's call: one short system and user message asking for a tiny JSON answer
/// (the word JSON is in it, as OpenAI's JSON mode requires).
pub fn test_call() -> ModelCall {
    ModelCall {
        id: "connection-test".into(),
        member: "you".into(),
        step: "connection_test",
        step_title: "Connection test",
        round: 0,
        kind: roundtable_core::protocol::CallKind::Initial,
        messages: vec![
            Message::new(
                ChatRole::System,
                "You are a connection test. Answer in JSON only.",
            ),
            Message::new(
                ChatRole::User,
                "Reply with the JSON {\"ok\": true} and nothing else.",
            ),
        ],
        schema: None,
        token_estimate: 24,
        max_answer_tokens: TEST_MAX_TOKENS,
        demo: None,
        ids: Vec::new(),
    }
}

/// What a connection test's completion says, in words: the model answered (how fast, with what
/// the provider counted), or answered nothing before the test's token limit.
pub fn answered(id: ProviderId, model: &str, done: &Completion, elapsed_ms: u64) -> String {
    let seconds = format!("{}.{} s", elapsed_ms / 1000, (elapsed_ms % 1000) / 100);
    let counted = match (done.input_tokens, done.output_tokens) {
        (Some(i), Some(o)) => format!("; {i} tokens in, {o} out"),
        _ => String::new(),
    };
    let cost = done
        .cost_micro_usd
        .map(|c| format!(", cost {} (reported)", roundtable_core::cost::usd(c)))
        .unwrap_or_default();
    let said: String = done.text.trim().chars().take(40).collect();
    match (done.stop, said.is_empty()) {
        (StopReason::Length, true) => format!(
            "Connected to {}: {model} took the call but used the test's {TEST_MAX_TOKENS} tokens before answering ({seconds}{counted}). It works; a reasoning model thinks first.",
            id.label()
        ),
        _ => format!(
            "Connected to {}: {model} answered in {seconds} ({said}){counted}{cost}.",
            id.label()
        ),
    }
}

/// The connection test: one minimal completion with `model` through the provider's own adapter
/// (the key and base URL it is given, streamed like a session's call), timed.
pub async fn test_connection(
    id: ProviderId,
    base: &str,
    key: Option<&str>,
    model: &str,
) -> Result<(Completion, u64), ProviderError> {
    let call = test_call();
    let started = crate::util::now_ms();
    let adapter = super::adapter(id);
    let done = adapter
        .complete(CallRequest {
            call: &call,
            schema: None,
            model,
            max_tokens: TEST_MAX_TOKENS,
            key,
            base_url: Some(base),
            limit: None,
            abort: None,
            on_text: None,
        })
        .await?;
    Ok((done, (crate::util::now_ms() - started).max(0.0) as u64))
}

/// The settings key under which a provider's last fetched model list is kept (JSON array).
pub fn setting(id: ProviderId) -> String {
    format!("models:{}", id.as_str())
}

/// What [`offered`] answers: the list, or why there is none.
type Offered = Result<Vec<String>, String>;

thread_local! {
    /// [`offered`]'s fetches under way, one per provider: the members of a form on the same
    /// provider share one request.
    static OFFERING: std::cell::RefCell<
        std::collections::HashMap<ProviderId, futures::future::Shared<futures::future::LocalBoxFuture<'static, Offered>>>,
    > = std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The models to offer for `id` in a form: the list last fetched (Settings' refresh or test),
/// else fetched now with the stored key and base URL and kept. The demo offers its variants.
/// `Err` says in words why there is no list; the person can always type a name. Calls for the
/// same provider while one is under way share it.
pub async fn offered(id: ProviderId) -> Offered {
    use futures::FutureExt;
    let shared = OFFERING.with(|o| {
        o.borrow_mut()
            .entry(id)
            .or_insert_with(|| fetch_offered(id).boxed_local().shared())
            .clone()
    });
    let list = shared.await;
    OFFERING.with(|o| o.borrow_mut().remove(&id));
    list
}

async fn fetch_offered(id: ProviderId) -> Offered {
    if id == ProviderId::Demo {
        // The demo model and its variants (another voice, for what-ifs).
        return Ok(roundtable_core::demo::VARIANTS
            .iter()
            .map(|m| m.to_string())
            .collect());
    }
    let stored: Vec<String> = crate::storage::get_setting(&setting(id))
        .await
        .ok()
        .flatten()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    if !stored.is_empty() {
        return Ok(stored);
    }
    let config = super::config::load(id).await;
    let base = config
        .base_url
        .unwrap_or_else(|| id.default_base().to_string());
    let fetched = list(id, &base, config.key.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    let json = serde_json::to_string(&fetched).unwrap_or_default();
    let _ = crate::storage::set_setting(&setting(id), Some(&json)).await;
    Ok(fetched)
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
    fn a_test_completion_is_worded_with_what_the_provider_said() {
        let done = |text: &str, stop, tokens: Option<(u64, u64)>, cost| Completion {
            text: text.into(),
            stop,
            input_tokens: tokens.map(|t| t.0),
            output_tokens: tokens.map(|t| t.1),
            cost_micro_usd: cost,
        };
        insta::assert_snapshot!(
            [
                answered(ProviderId::OpenAi, "gpt-4.1-mini", &done("{\"ok\": true}", StopReason::Done, Some((21, 6)), None), 840),
                answered(ProviderId::OpenRouter, "openai/gpt-5", &done("{\"ok\":true}", StopReason::Done, Some((21, 6)), Some(12)), 1_530),
                answered(ProviderId::OpenAi, "o3", &done("", StopReason::Length, Some((21, 32)), None), 2_000),
                answered(ProviderId::Ollama, "llama3.1", &done("{\"ok\": true}", StopReason::Done, None, None), 90),
            ]
            .join("\n"),
            @r#"
        Connected to OpenAI: gpt-4.1-mini answered in 0.8 s ({"ok": true}); 21 tokens in, 6 out.
        Connected to OpenRouter: openai/gpt-5 answered in 1.5 s ({"ok":true}); 21 tokens in, 6 out, cost $0.000012 (reported).
        Connected to OpenAI: o3 took the call but used the test's 32 tokens before answering (2.0 s; 21 tokens in, 32 out). It works; a reasoning model thinks first.
        Connected to Ollama: llama3.1 answered in 0.0 s ({"ok": true}).
        "#
        );
        let call = test_call();
        assert!(call.messages.iter().any(|m| m.content.contains("JSON")));
        assert_eq!(call.messages.len(), 2);
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
