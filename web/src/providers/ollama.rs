//! Ollama's native API, `POST {base}/api/chat`, on this machine or the local network.
//!
//! Native rather than Ollama's `/v1` (OpenAI-compatible) endpoint for two reasons: `/v1` runs
//! every model with Ollama's default context (4,096 tokens in most versions), which silently cuts
//! our prompts (3–4k tokens with a few products, ≈11k with a hundred), and only the native API
//! takes `options.num_ctx`; and its `format` takes the answer's JSON Schema, which Ollama turns
//! into a sampling grammar. [`num_ctx`] sizes the window to the prompt's token estimate plus the
//! answer.
//!
//! The answer streams as JSON lines (`application/x-ndjson`): `message.content` pieces, then a
//! last line with `done: true`, `done_reason` and the token counts (`prompt_eval_count`,
//! `eval_count`). A line with `error` is an error.

use roundtable_core::protocol::estimate_tokens;
use serde_json::{json, Value};

use super::openai::role;
use super::{Ask, Completion, HttpCall, ProviderError, StopReason, StreamedAnswer};

/// The smallest context window we ask for (Ollama's usual default).
pub const MIN_CTX: u32 = 4_096;
/// The largest: more than this and a laptop runs out of memory before the model answers.
pub const MAX_CTX: u32 = 131_072;

/// The context window for a prompt of `prompt_tokens` (estimated) and an answer of up to
/// `max_tokens`: both, plus a quarter for the estimate's error, rounded up to a multiple of
/// 2,048 and kept within [`MIN_CTX`]..=[`MAX_CTX`].
pub fn num_ctx(prompt_tokens: u32, max_tokens: u32) -> u32 {
    let want = prompt_tokens
        .saturating_add(prompt_tokens / 4)
        .saturating_add(max_tokens);
    want.div_ceil(2_048)
        .saturating_mul(2_048)
        .clamp(MIN_CTX, MAX_CTX)
}

/// The request for one call.
pub fn build(ask: &Ask<'_>) -> HttpCall {
    let messages: Vec<Value> = ask
        .messages
        .iter()
        .map(|m| json!({ "role": role(m.role), "content": m.content }))
        .collect();
    let prompt: u32 = ask
        .messages
        .iter()
        .map(|m| estimate_tokens(&m.content) as u32)
        .sum();
    let format = match ask.schema {
        Some(schema) => schema.clone(),
        None => json!("json"),
    };
    HttpCall {
        url: format!("{}/api/chat", ask.base),
        headers: ask
            .key
            .map(|k| vec![("Authorization", format!("Bearer {k}"))])
            .unwrap_or_default(),
        body: json!({
            "model": ask.model,
            "messages": messages,
            "stream": true,
            "format": format,
            "options": {
                "num_ctx": num_ctx(prompt, ask.max_tokens),
                "num_predict": ask.max_tokens,
            },
        }),
    }
}

/// The stop reason for a `done_reason`.
fn stop_reason(reason: Option<&str>) -> StopReason {
    match reason {
        Some("stop") | None => StopReason::Done,
        Some("length") => StopReason::Length,
        Some(_) => StopReason::Other,
    }
}

/// Adds one line (or the whole answer) to `answer`.
fn add(answer: &mut StreamedAnswer, line: &Value) {
    if let Some(text) = line.pointer("/message/content").and_then(Value::as_str) {
        answer.text.push_str(text);
    }
    if line.get("done").and_then(Value::as_bool) == Some(true) {
        answer.done = true;
        answer.stop = Some(
            line.get("done_reason")
                .and_then(Value::as_str)
                .unwrap_or("stop")
                .to_string(),
        );
        answer.input_tokens = line.get("prompt_eval_count").and_then(Value::as_u64);
        answer.output_tokens = line.get("eval_count").and_then(Value::as_u64);
    }
}

/// Reads a whole (`stream: false`) answer.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let mut answer = StreamedAnswer::default();
    add(&mut answer, body);
    if body.get("message").is_none() {
        return Err(ProviderError::Malformed("no message in the answer".into()));
    }
    Ok(answer.into_completion(stop_reason))
}

/// A streamed Ollama answer as its lines arrive.
#[derive(Debug, Default)]
pub struct StreamState(StreamedAnswer);

impl super::StreamDecoder for StreamState {
    /// Takes one line. `Ok(true)` at `done: true`; an `error` line is an error.
    fn event(&mut self, data: &str) -> Result<bool, ProviderError> {
        let Ok(line) = serde_json::from_str::<Value>(data) else {
            return Ok(false);
        };
        if line.get("error").is_some_and(|e| !e.is_null()) {
            return Err(ProviderError::Interrupted(super::errors::error_message(
                data,
            )));
        }
        add(&mut self.0, &line);
        Ok(self.0.done)
    }

    fn answer(&mut self) -> &mut StreamedAnswer {
        &mut self.0
    }

    fn stop_reason(&self, word: Option<&str>) -> StopReason {
        stop_reason(word)
    }
}
