//! OpenAI chat completions, and every service that speaks the same API (Gemini's OpenAI
//! endpoint, Ollama, LM Studio, llama.cpp on loopback).
//!
//! The step's JSON Schema is sent as `response_format: json_object` rather than strict
//! `json_schema`: not every compatible server accepts strict schemas, and `core` validates and
//! repairs the answer anyway. The schema itself is in the prompt the engine built.

use futures::future::LocalBoxFuture;
use gloo_net::http::Request;
use roundtable_core::protocol::ChatRole;
use serde_json::{json, Value};

use super::{post_json, CallRequest, Completion, Provider, ProviderError, ProviderId, StopReason};

/// An OpenAI-compatible endpoint.
pub struct OpenAiCompatible {
    id: ProviderId,
    base: &'static str,
}

impl OpenAiCompatible {
    /// api.openai.com.
    pub fn openai() -> Self {
        OpenAiCompatible {
            id: ProviderId::OpenAi,
            base: "https://api.openai.com/v1",
        }
    }

    /// Gemini's OpenAI-compatible endpoint.
    pub fn gemini() -> Self {
        OpenAiCompatible {
            id: ProviderId::Gemini,
            base: "https://generativelanguage.googleapis.com/v1beta/openai",
        }
    }

    /// A local server; the base URL is a setting (default Ollama's).
    pub fn local() -> Self {
        OpenAiCompatible {
            id: ProviderId::Local,
            base: "http://127.0.0.1:11434/v1",
        }
    }
}

/// The request body for one call.
pub fn body(request: &CallRequest<'_>) -> Value {
    let messages: Vec<Value> = request
        .call
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                ChatRole::System => "system",
                ChatRole::User => "user",
                ChatRole::Assistant => "assistant",
            };
            json!({ "role": role, "content": m.content })
        })
        .collect();
    json!({
        "model": request.model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "response_format": { "type": "json_object" },
    })
}

/// Reads a chat completion answer.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let choice = body
        .pointer("/choices/0")
        .ok_or_else(|| ProviderError::Malformed("no choices in the answer".into()))?;
    let text = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let stop = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("stop") | None => StopReason::Done,
        Some("length") => StopReason::Length,
        Some(_) => StopReason::Other,
    };
    Ok(Completion {
        text,
        stop,
        input_tokens: body.pointer("/usage/prompt_tokens").and_then(Value::as_u64),
        output_tokens: body
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64),
    })
}

impl Provider for OpenAiCompatible {
    fn complete<'a>(
        &'a self,
        request: CallRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<Completion, ProviderError>> {
        Box::pin(async move {
            let key = match (self.id.needs_key(), request.key) {
                (true, None) => return Err(ProviderError::MissingKey(self.id.label())),
                (_, key) => key,
            };
            let base = request.base_url.unwrap_or(self.base).trim_end_matches('/');
            let mut builder = Request::post(&format!("{base}/chat/completions"));
            if let Some(key) = key {
                builder = builder.header("Authorization", &format!("Bearer {key}"));
            }
            parse(&post_json(builder, &body(&request), request.abort).await?)
        })
    }
}
