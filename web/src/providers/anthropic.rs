//! Anthropic's Messages API, called straight from the page.
//!
//! Browser calls need the `anthropic-dangerous-direct-browser-access` header: the person's own key
//! is used from the person's own tab, which is exactly this app's model. System messages go to the
//! top-level `system` field; consecutive messages of the same role are merged because the API
//! requires alternating turns.
//!
//! The answer's schema goes as structured output (`output_config.format`, `json_schema`, in the
//! form `provider_schema::anthropic` makes) on the models that have it (the 4.5 generation and
//! later); older models get a forced tool call whose input schema is the same, and the tool's
//! input is the answer. The answer is asked for as a stream and added up by [`StreamState`]; a
//! plain JSON answer (a proxy that does not stream) is still read by [`parse`]. A `refusal` stop
//! is an error, never an answer.

use serde_json::{json, Value};

use super::{Ask, Completion, HttpCall, ProviderError, StopReason, StreamedAnswer, SCHEMA_NAME};

/// The API version header every request carries.
pub const VERSION: &str = "2023-06-01";

/// Whether `model` has structured outputs (`output_config.format`): Claude 4.5 models and
/// later. Older ones get the schema as a forced tool call.
pub fn has_structured_outputs(model: &str) -> bool {
    let m = model.trim_start_matches("anthropic/");
    let generation = |family: &str| -> Option<(u32, u32)> {
        let rest = m.strip_prefix(&format!("claude-{family}-"))?;
        let mut parts = rest.split('-');
        let major = parts.next()?.parse().ok()?;
        let minor = parts
            .next()
            .and_then(|p| (p.len() <= 2).then(|| p.parse().ok()).flatten())
            .unwrap_or(0);
        Some((major, minor))
    };
    ["opus", "sonnet", "haiku"]
        .into_iter()
        .filter_map(generation)
        .any(|v| v >= (4, 5))
}

/// The request for one call.
pub fn build(ask: &Ask<'_>) -> HttpCall {
    let (system, turns) = super::system_and_turns(ask.messages, "assistant");
    let messages: Vec<Value> = turns
        .into_iter()
        .map(|(role, content)| json!({ "role": role, "content": content }))
        .collect();
    let mut body = json!({
        "model": ask.model,
        "max_tokens": ask.max_tokens,
        "system": system,
        "messages": messages,
        "stream": true,
    });
    if let (Some(schema), Some(fields)) = (ask.schema, body.as_object_mut()) {
        if has_structured_outputs(ask.model) {
            fields.insert(
                "output_config".into(),
                json!({ "format": { "type": "json_schema", "schema": schema } }),
            );
        } else {
            fields.insert(
                "tools".into(),
                json!([{
                    "name": SCHEMA_NAME,
                    "description": "Give your answer: its input is the whole answer.",
                    "input_schema": schema,
                }]),
            );
            fields.insert(
                "tool_choice".into(),
                json!({ "type": "tool", "name": SCHEMA_NAME }),
            );
        }
    }
    let mut headers = vec![
        ("anthropic-version", VERSION.to_string()),
        ("anthropic-dangerous-direct-browser-access", "true".into()),
    ];
    if let Some(key) = ask.key {
        headers.insert(0, ("x-api-key", key.to_string()));
    }
    HttpCall {
        url: format!("{}/messages", ask.base),
        headers,
        body,
    }
}

/// The stop reason for a `stop_reason`.
fn stop_reason(stop: Option<&str>) -> StopReason {
    match stop {
        Some("end_turn") | Some("stop_sequence") | Some("tool_use") | None => StopReason::Done,
        Some("max_tokens") | Some("model_context_window_exceeded") => StopReason::Length,
        Some("refusal") => StopReason::Refused,
        Some(_) => StopReason::Other,
    }
}

/// Reads a Messages API answer: its text blocks, or the forced tool call's input.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::Malformed("no content in the answer".into()))?;
    let mut text: String = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    if let Some(input) = blocks
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .and_then(|b| b.get("input"))
    {
        text = input.to_string();
    }
    Ok(Completion {
        text,
        stop: stop_reason(body.get("stop_reason").and_then(Value::as_str)),
        input_tokens: body.pointer("/usage/input_tokens").and_then(Value::as_u64),
        output_tokens: body.pointer("/usage/output_tokens").and_then(Value::as_u64),
        cost_micro_usd: None,
    })
}

/// A streamed Messages answer as its events arrive: `message_start` (input tokens),
/// `content_block_delta` (text), `message_delta` (stop reason, output tokens), `message_stop`.
#[derive(Debug, Default)]
pub struct StreamState(StreamedAnswer);

impl super::StreamDecoder for StreamState {
    /// Takes one event's data. `Ok(true)` at `message_stop`; an `error` event is an error;
    /// other events (`ping`, block starts and stops, other deltas) and non-JSON are skipped.
    fn event(&mut self, data: &str) -> Result<bool, ProviderError> {
        let Ok(event) = serde_json::from_str::<Value>(data) else {
            return Ok(false);
        };
        let num = |path: &str| event.pointer(path).and_then(Value::as_u64);
        match event.get("type").and_then(Value::as_str) {
            Some("message_start") => {
                self.0.input_tokens = num("/message/usage/input_tokens");
                self.0.output_tokens = num("/message/usage/output_tokens");
            }
            Some("content_block_delta") => {
                // Text, or the forced tool call's input (the answer, when sent as a tool call).
                let piece = match event.pointer("/delta/type").and_then(Value::as_str) {
                    Some("text_delta") => event.pointer("/delta/text"),
                    Some("input_json_delta") => event.pointer("/delta/partial_json"),
                    _ => None,
                };
                self.0
                    .text
                    .push_str(piece.and_then(Value::as_str).unwrap_or_default());
            }
            Some("message_delta") => {
                if let Some(stop) = event.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.0.stop = Some(stop.to_string());
                }
                self.0.output_tokens = num("/usage/output_tokens").or(self.0.output_tokens);
            }
            Some("message_stop") => {
                self.0.done = true;
                return Ok(true);
            }
            Some("error") => {
                return Err(ProviderError::Interrupted(super::errors::error_message(
                    data,
                )));
            }
            _ => {}
        }
        Ok(false)
    }

    fn answer(&mut self) -> &mut StreamedAnswer {
        &mut self.0
    }

    fn stop_reason(&self, word: Option<&str>) -> StopReason {
        stop_reason(word)
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
            .event(
                "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"half\"}}",
            )
            .unwrap();
        assert!(matches!(state.finish(), Err(ProviderError::Interrupted(_))));
    }

    /// A Messages stream as Anthropic sends it (abridged ids).
    const STREAM: &str = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":900,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: ping\ndata: {\"type\":\"ping\"}\n\n",
        "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"x\\\": \"}}\r\n\r\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\\\"ünï 🎉\\\"}\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"x\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":12}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );

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
        state.finish()
    }

    #[test]
    fn text_deltas_stop_reason_and_usage_add_up_whatever_the_chunking() {
        let want = Completion {
            text: "{\"x\": \"ünï 🎉\"}".into(),
            stop: StopReason::Length,
            input_tokens: Some(900),
            output_tokens: Some(12),
            cost_micro_usd: None,
        };
        for size in 1..=STREAM.len() {
            assert_eq!(run(STREAM, size).unwrap(), want, "chunks of {size} bytes");
        }
    }

    #[test]
    fn an_error_event_is_an_error() {
        let s = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        assert_eq!(
            run(s, 3).unwrap_err(),
            ProviderError::Interrupted("Overloaded".into())
        );
    }
}
