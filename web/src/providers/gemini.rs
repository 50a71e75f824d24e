//! Google Gemini's native API: `models/{model}:streamGenerateContent?alt=sse` with the key in
//! `x-goog-api-key` (never in the URL, where it would land in logs and history).
//!
//! System messages go to `systemInstruction`; the turns are `user` and `model` with text parts,
//! consecutive ones of the same role merged. The answer's schema goes as
//! `generationConfig.responseJsonSchema` (in `provider_schema::gemini`'s subset) with
//! `responseMimeType: application/json`.
//!
//! The stream is server-sent events, each one a whole `GenerateContentResponse`: text parts of
//! the first candidate (thought parts skipped), a `finishReason` on the last, `usageMetadata`
//! along the way (output tokens are `candidatesTokenCount` plus `thoughtsTokenCount`: a thinking
//! model's thoughts are billed as output). There is no end marker: the finish reason is the end. `SAFETY`, `RECITATION`,
//! `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII` and a prompt blocked outright
//! (`promptFeedback.blockReason`) are a filtered answer, never validated as one.

use serde_json::{json, Value};

use super::{Ask, Completion, HttpCall, ProviderError, StopReason, StreamedAnswer};

/// The request for one call.
pub fn build(ask: &Ask<'_>) -> HttpCall {
    let (system, turns) = super::system_and_turns(ask.messages, "model");
    let contents: Vec<Value> = turns
        .into_iter()
        .map(|(role, text)| json!({ "role": role, "parts": [{ "text": text }] }))
        .collect();
    let mut config = json!({
        "maxOutputTokens": ask.max_tokens,
        "responseMimeType": "application/json",
    });
    if let Some(schema) = ask.schema {
        config["responseJsonSchema"] = schema.clone();
    }
    let mut body = json!({ "contents": contents, "generationConfig": config });
    if !system.is_empty() {
        body["systemInstruction"] = json!({ "parts": [{ "text": system }] });
    }
    let model = ask.model.trim_start_matches("models/");
    HttpCall {
        url: format!("{}/models/{model}:streamGenerateContent?alt=sse", ask.base),
        headers: ask
            .key
            .map(|k| vec![("x-goog-api-key", k.to_string())])
            .unwrap_or_default(),
        body,
    }
}

/// The stop reason for a `finishReason`.
fn stop_reason(finish: Option<&str>) -> StopReason {
    match finish {
        Some("STOP") | None => StopReason::Done,
        Some("MAX_TOKENS") => StopReason::Length,
        Some(
            "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY"
            | "LANGUAGE",
        ) => StopReason::Filtered,
        Some(w) if w.starts_with("prompt blocked") => StopReason::Filtered,
        Some(_) => StopReason::Other,
    }
}

/// Adds one response (a stream event or the whole answer) to `answer`.
fn add(answer: &mut StreamedAnswer, chunk: &Value) {
    if let Some(reason) = chunk
        .pointer("/promptFeedback/blockReason")
        .and_then(Value::as_str)
    {
        answer.stop = Some(format!("prompt blocked: {reason}"));
        return;
    }
    if let Some(parts) = chunk
        .pointer("/candidates/0/content/parts")
        .and_then(Value::as_array)
    {
        for part in parts {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                answer.text.push_str(text);
            }
        }
    }
    if let Some(finish) = chunk
        .pointer("/candidates/0/finishReason")
        .and_then(Value::as_str)
    {
        answer.stop = Some(finish.to_string());
    }
    let count = |name: &str| chunk.pointer(&format!("/usageMetadata/{name}"))?.as_u64();
    answer.input_tokens = count("promptTokenCount").or(answer.input_tokens);
    // Thinking models count their thoughts apart (`thoughtsTokenCount`), and they are billed as
    // output: the answer's tokens are both (Gemini API pricing and usage docs, read 2026-11-26).
    let output = match (count("candidatesTokenCount"), count("thoughtsTokenCount")) {
        (None, None) => None,
        (answer, thoughts) => Some(answer.unwrap_or(0) + thoughts.unwrap_or(0)),
    };
    answer.output_tokens = output.or(answer.output_tokens);
}

/// Reads a whole `generateContent` answer.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let mut answer = StreamedAnswer::default();
    add(&mut answer, body);
    if answer.stop.is_none() && answer.text.is_empty() {
        return Err(ProviderError::Malformed(
            "no candidates in the answer".into(),
        ));
    }
    Ok(answer.into_completion(stop_reason))
}

/// A streamed Gemini answer as its events arrive.
#[derive(Debug, Default)]
pub struct StreamState(StreamedAnswer);

impl super::StreamDecoder for StreamState {
    /// Takes one event's data. `Ok(true)` once a finish reason came; an `error` object is an
    /// error; non-JSON is skipped.
    fn event(&mut self, data: &str) -> Result<bool, ProviderError> {
        let Ok(chunk) = serde_json::from_str::<Value>(data) else {
            return Ok(false);
        };
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(ProviderError::Interrupted(super::errors::error_message(
                data,
            )));
        }
        add(&mut self.0, &chunk);
        Ok(self.0.stop.is_some())
    }

    fn answer(&mut self) -> &mut StreamedAnswer {
        &mut self.0
    }

    fn stop_reason(&self, word: Option<&str>) -> StopReason {
        stop_reason(word)
    }
}
