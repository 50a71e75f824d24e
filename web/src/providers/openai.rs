//! OpenAI chat completions, and every service that speaks the same API (Gemini's OpenAI
//! endpoint, Ollama, LM Studio, llama.cpp on loopback).
//!
//! The step's JSON Schema is sent as `response_format: json_object` rather than strict
//! `json_schema`: not every compatible server accepts strict schemas, and `core` validates and
//! repairs the answer anyway. The schema itself is in the prompt the engine built.
//!
//! The answer is asked for as a stream (`stream: true`, with usage in the last chunk) so the page
//! can show it arriving; [`StreamState`] adds up the chunks. A server that ignores `stream` and
//! answers with one JSON body is read by [`parse`] as before.

use futures::future::LocalBoxFuture;
use gloo_net::http::Request;
use roundtable_core::protocol::ChatRole;
use serde_json::{json, Value};

use super::{
    error_message, CallRequest, Completion, Provider, ProviderError, ProviderId, StopReason,
    StreamedAnswer,
};

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
        "stream": true,
        "stream_options": { "include_usage": true },
    })
}

/// The stop reason for a `finish_reason`.
fn stop_reason(finish: Option<&str>) -> StopReason {
    match finish {
        Some("stop") | None => StopReason::Done,
        Some("length") => StopReason::Length,
        Some(_) => StopReason::Other,
    }
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
    Ok(Completion {
        text,
        stop: stop_reason(choice.get("finish_reason").and_then(Value::as_str)),
        input_tokens: body.pointer("/usage/prompt_tokens").and_then(Value::as_u64),
        output_tokens: body
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64),
    })
}

/// A streamed chat completion as its chunks arrive: the text so far, the finish reason and the
/// usage (which comes in the last chunk, whose `choices` is empty).
#[derive(Debug, Default)]
pub struct StreamState(StreamedAnswer);

impl super::StreamDecoder for StreamState {
    /// Takes one event's data. `Ok(true)` at `[DONE]`; an error object in the stream is an
    /// error; data that is not JSON is skipped (the answer is validated whole anyway).
    fn event(&mut self, data: &str) -> Result<bool, ProviderError> {
        if data.trim() == "[DONE]" {
            self.0.done = true;
            return Ok(true);
        }
        let Ok(chunk) = serde_json::from_str::<Value>(data) else {
            return Ok(false);
        };
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(ProviderError::Interrupted(error_message(data)));
        }
        if let Some(choice) = chunk.pointer("/choices/0") {
            if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str) {
                self.0.text.push_str(text);
            }
            if let Some(finish) = choice.get("finish_reason").and_then(Value::as_str) {
                self.0.stop = Some(finish.to_string());
            }
        }
        let tokens = |name: &str| chunk.get("usage").and_then(|u| u.get(name)?.as_u64());
        self.0.input_tokens = tokens("prompt_tokens").or(self.0.input_tokens);
        self.0.output_tokens = tokens("completion_tokens").or(self.0.output_tokens);
        Ok(false)
    }

    fn answer(&mut self) -> &mut StreamedAnswer {
        &mut self.0
    }

    fn stop_reason(&self, word: Option<&str>) -> StopReason {
        stop_reason(word)
    }
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
            let mut body = body(&request);
            if self.id == ProviderId::Gemini {
                // Not in Gemini's documented subset of the API: its usage is estimated instead.
                if let Some(fields) = body.as_object_mut() {
                    fields.remove("stream_options");
                }
            }
            super::complete_streamed(builder, &body, &request, &mut StreamState::default(), parse)
                .await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::sse::SseDecoder;
    use crate::providers::StreamDecoder;

    #[test]
    fn a_stream_cut_off_before_its_end_is_an_interruption_not_an_answer() {
        let mut state = StreamState::default();
        // text arrived, then the stream ended with no end marker
        state
            .event("{\"choices\":[{\"delta\":{\"content\":\"{\\\"half\"}}]}")
            .unwrap();
        assert!(matches!(state.finish(), Err(ProviderError::Interrupted(_))));
    }

    /// A stream as OpenAI sends it: role first, content in pieces, the finish reason, then usage
    /// in a chunk with no choices, then `[DONE]`.
    const STREAM: &str = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
        ": keep-alive\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\": \"},\"finish_reason\":null}],\"usage\":null}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\\"héllo — 日本\\\"}\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":40}}\n\n",
        "data: [DONE]\n\n",
        "data: {\"choices\":[{\"delta\":{\"content\":\"after done\"}}]}\n\n",
    );

    /// Decodes `stream` fed in chunks of `size` bytes, as the adapter does.
    fn run(stream: &str, size: usize) -> Result<Completion, ProviderError> {
        let mut decoder = SseDecoder::new();
        let mut state = StreamState::default();
        for chunk in stream.as_bytes().chunks(size) {
            for data in decoder.feed(chunk) {
                if state.event(&data)? {
                    return state.finish();
                }
            }
        }
        for data in decoder.finish() {
            state.event(&data)?;
        }
        state.finish()
    }

    #[test]
    fn deltas_and_usage_add_up_to_the_completion_whatever_the_chunking() {
        let want = Completion {
            text: "{\"a\": \"héllo — 日本\"}".into(),
            stop: StopReason::Done,
            input_tokens: Some(1200),
            output_tokens: Some(40),
        };
        for size in 1..=STREAM.len() {
            assert_eq!(run(STREAM, size).unwrap(), want, "chunks of {size} bytes");
        }
    }

    #[test]
    fn a_length_stop_and_a_missing_usage_are_reported_as_such() {
        let s = "data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"cut\"},\"finish_reason\":\"length\"}]}\n\n";
        let done = run(s, 7).unwrap();
        assert_eq!(done.text, "{\"cut");
        assert_eq!(done.stop, StopReason::Length);
        assert_eq!((done.input_tokens, done.output_tokens), (None, None));
    }

    #[test]
    fn an_error_in_the_stream_is_an_error_and_garbage_is_skipped() {
        let s = "data: not json\n\ndata: {\"choices\":[],\"error\":null}\n\n\
                 data: {\"error\":{\"message\":\"overloaded\"}}\n\n";
        let err = run(s, 5).unwrap_err();
        assert_eq!(err, ProviderError::Interrupted("overloaded".into()));
        assert!(err.is_retryable());
    }

    #[test]
    fn a_plain_json_answer_still_parses() {
        let body = json!({
            "choices": [{ "message": { "content": "{}" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 3, "completion_tokens": 1 },
        });
        let done = parse(&body).unwrap();
        assert_eq!(
            (done.text.as_str(), done.stop, done.input_tokens),
            ("{}", StopReason::Done, Some(3))
        );
    }
}
