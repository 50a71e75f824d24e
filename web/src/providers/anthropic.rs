//! Anthropic's Messages API, called straight from the page.
//!
//! Browser calls need the `anthropic-dangerous-direct-browser-access` header: the person's own key
//! is used from the person's own tab, which is exactly this app's model. System messages go to the
//! top-level `system` field; consecutive messages of the same role are merged because the API
//! requires alternating turns.

use futures::future::LocalBoxFuture;
use gloo_net::http::Request;
use roundtable_core::protocol::ChatRole;
use serde_json::{json, Value};

use super::{post_json, CallRequest, Completion, Provider, ProviderError, ProviderId, StopReason};

/// The Anthropic adapter.
pub struct Anthropic;

/// The request body for one call.
pub fn body(request: &CallRequest<'_>) -> Value {
    let mut system = Vec::new();
    let mut turns: Vec<(&'static str, String)> = Vec::new();
    for m in &request.call.messages {
        let role = match m.role {
            ChatRole::System => {
                system.push(m.content.clone());
                continue;
            }
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        };
        match turns.last_mut() {
            Some((r, text)) if *r == role => {
                text.push_str("\n\n");
                text.push_str(&m.content);
            }
            _ => turns.push((role, m.content.clone())),
        }
    }
    let messages: Vec<Value> = turns
        .into_iter()
        .map(|(role, content)| json!({ "role": role, "content": content }))
        .collect();
    json!({
        "model": request.model,
        "max_tokens": request.max_tokens,
        "system": system.join("\n\n"),
        "messages": messages,
    })
}

/// Reads a Messages API answer.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::Malformed("no content in the answer".into()))?;
    let text: String = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let stop = match body.get("stop_reason").and_then(Value::as_str) {
        Some("end_turn") | Some("stop_sequence") | None => StopReason::Done,
        Some("max_tokens") => StopReason::Length,
        Some(_) => StopReason::Other,
    };
    Ok(Completion {
        text,
        stop,
        input_tokens: body.pointer("/usage/input_tokens").and_then(Value::as_u64),
        output_tokens: body.pointer("/usage/output_tokens").and_then(Value::as_u64),
    })
}

impl Provider for Anthropic {
    fn complete<'a>(
        &'a self,
        request: CallRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<Completion, ProviderError>> {
        Box::pin(async move {
            let key = request
                .key
                .ok_or(ProviderError::MissingKey(ProviderId::Anthropic.label()))?;
            let request_builder = Request::post("https://api.anthropic.com/v1/messages")
                .header("x-api-key", key)
                .header("anthropic-version", "2023-06-01")
                .header("anthropic-dangerous-direct-browser-access", "true");
            parse(&post_json(request_builder, &body(&request), request.abort).await?)
        })
    }
}
