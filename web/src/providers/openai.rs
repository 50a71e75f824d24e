//! OpenAI chat completions, and every service that speaks the same API: OpenRouter, Mistral,
//! Groq, and OpenAI-compatible servers at a base URL the person sets (LM Studio, vLLM,
//! llama.cpp).
//!
//! [`build`] is pure: `POST {base}/chat/completions` with a bearer key when there is one, and a
//! body that differs by service only where the services differ:
//! - the token limit is `max_completion_tokens` for OpenAI (its gpt-5 and o-series models refuse
//!   `max_tokens`), `max_tokens` elsewhere;
//! - the answer's schema goes as `response_format: json_schema`, in OpenAI's strict form for
//!   OpenAI, OpenRouter and Mistral (strict on), and in the grammar form for local servers. Groq
//!   takes `json_schema` only on the models its structured-outputs page lists ([`groq_schema`]:
//!   strict on `gpt-oss-20b`/`-120b`, best effort on the safeguard model, Kimi K2 and Llama 4)
//!   and `json_object` on the others, our
//!   validator judging the answer. Without a schema a cloud service gets `json_object`; a local
//!   server gets no `response_format` at all, because LM Studio refuses `json_object` (it takes
//!   only `json_schema` or `text`);
//! - the answer is streamed, except on Groq: its docs say streaming is not supported with
//!   structured outputs, so a Groq call with a `response_format` asks for one whole answer
//!   (`stream: false`); the call still shows as running until it comes;
//! - usage in the stream is asked for where it is documented (`stream_options`).
//!
//! OpenAI refuses to stream its reasoning models (gpt-5, o-series) for an organisation that has
//! not verified its identity (400 "must be verified to stream this model", `param: stream`): the
//! adapter then asks the same call again with [`without_stream`] (see `providers::Http`).
//!
//! The answer streams in; [`StreamState`] adds up the chunks (text, refusal, finish reason,
//! usage with OpenRouter's reported `cost`, and Groq's `x_groq.usage`). A server that ignores `stream` and
//! answers with one JSON body is read by [`parse`].

use roundtable_core::protocol::ChatRole;
use serde_json::{json, Value};

use super::{
    errors::error_message, Ask, Completion, HttpCall, ProviderError, ProviderId, StopReason,
    StreamedAnswer, SCHEMA_NAME,
};

/// The chat role's name on the wire.
pub(crate) fn role(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

/// Groq's models with strict structured outputs (constrained decoding), exactly as its
/// structured-outputs page lists them ("Supported Models", strict mode).
pub const GROQ_STRICT: &[&str] = &["openai/gpt-oss-20b", "openai/gpt-oss-120b"];
/// Groq's models with best-effort structured outputs only (the page's best-effort list, less the
/// strict ones; Kimi K2 under its old and its `-0905` id).
pub const GROQ_BEST_EFFORT: &[&str] = &[
    "openai/gpt-oss-safeguard-20b",
    "moonshotai/kimi-k2-instruct",
    "moonshotai/kimi-k2-instruct-0905",
    "meta-llama/llama-4-maverick-17b-128e-instruct",
    "meta-llama/llama-4-scout-17b-16e-instruct",
];

/// How Groq takes a schema for `model`: `Some(true)` strict (constrained decoding),
/// `Some(false)` best effort, `None`: no structured outputs at all, so `json_object` and our
/// validator. Exact ids, never a prefix (`openai/gpt-oss-safeguard-20b` is best effort only).
/// From Groq's structured-outputs page (console.groq.com/docs/structured-outputs, "Supported
/// Models": strict `gpt-oss-20b`/`-120b`; best effort those, `gpt-oss-safeguard-20b`, Kimi K2
/// `-0905`, Llama 4 Maverick and Scout), read 2026-11-26 in a stored copy of the page; research
/// notes retrieved 2026-08-23 from the same page agree on the strict pair and the safeguard
/// model, and say Kimi K2 `-0905` and Llama 4 Scout were deprecated (a call to a model Groq has
/// retired fails as an unknown model).
pub fn groq_schema(model: &str) -> Option<bool> {
    if GROQ_STRICT.contains(&model) {
        Some(true)
    } else if GROQ_BEST_EFFORT.contains(&model) {
        Some(false)
    } else {
        None
    }
}

/// The same call asked for as one whole answer: `stream: false` and no `stream_options` (which
/// OpenAI refuses without `stream: true`).
pub fn without_stream(call: &mut HttpCall) {
    if let Some(fields) = call.body.as_object_mut() {
        fields.insert("stream".into(), json!(false));
        fields.remove("stream_options");
    }
}

/// The `response_format` for this service and schema, if any.
fn response_format(ask: &Ask<'_>) -> Option<Value> {
    let format = |strict: bool, schema: Value| {
        json!({
            "type": "json_schema",
            "json_schema": { "name": SCHEMA_NAME, "strict": strict, "schema": schema },
        })
    };
    match (ask.provider, ask.schema) {
        (ProviderId::Local, Some(s)) => Some(format(true, s.clone())),
        (ProviderId::Local, None) => None,
        (ProviderId::Groq, Some(s)) => match groq_schema(ask.model) {
            Some(strict) => Some(format(strict, s.clone())),
            None => Some(json!({ "type": "json_object" })),
        },
        (_, Some(s)) => Some(format(true, s.clone())),
        (_, None) => Some(json!({ "type": "json_object" })),
    }
}

/// The request for one call.
pub fn build(ask: &Ask<'_>) -> HttpCall {
    let messages: Vec<Value> = ask
        .messages
        .iter()
        .map(|m| json!({ "role": role(m.role), "content": m.content }))
        .collect();
    let mut body = json!({
        "model": ask.model,
        "messages": messages,
        "stream": true,
    });
    let fields = body.as_object_mut().expect("an object");
    let tokens = if ask.provider == ProviderId::OpenAi {
        "max_completion_tokens"
    } else {
        "max_tokens"
    };
    fields.insert(tokens.into(), json!(ask.max_tokens));
    if let Some(format) = response_format(ask) {
        fields.insert("response_format".into(), format);
    }
    if matches!(
        ask.provider,
        ProviderId::OpenAi | ProviderId::OpenRouter | ProviderId::Local
    ) {
        fields.insert("stream_options".into(), json!({ "include_usage": true }));
    }
    let headers = ask
        .key
        .map(|k| vec![("Authorization", format!("Bearer {k}"))])
        .unwrap_or_default();
    let mut call = HttpCall {
        url: format!("{}/chat/completions", ask.base),
        headers,
        body,
    };
    // Groq: "Streaming is not supported with Structured Outputs" (its structured-outputs page).
    if ask.provider == ProviderId::Groq && call.body.get("response_format").is_some() {
        without_stream(&mut call);
    }
    call
}

/// The stop reason for a `finish_reason`.
fn stop_reason(finish: Option<&str>) -> StopReason {
    match finish {
        Some("stop") | Some("tool_calls") | Some("function_call") | None => StopReason::Done,
        Some("length") => StopReason::Length,
        Some("content_filter") => StopReason::Filtered,
        Some(_) => StopReason::Other,
    }
}

/// Reads a chat completion answer.
pub fn parse(body: &Value) -> Result<Completion, ProviderError> {
    let choice = body
        .pointer("/choices/0")
        .ok_or_else(|| ProviderError::Malformed("no choices in the answer".into()))?;
    let refusal = choice
        .pointer("/message/refusal")
        .and_then(Value::as_str)
        .filter(|r| !r.is_empty());
    let text = refusal
        .or_else(|| choice.pointer("/message/content").and_then(Value::as_str))
        .unwrap_or_default()
        .to_string();
    let stop = match refusal {
        Some(_) => StopReason::Refused,
        None => stop_reason(choice.get("finish_reason").and_then(Value::as_str)),
    };
    Ok(Completion {
        text,
        stop,
        input_tokens: body.pointer("/usage/prompt_tokens").and_then(Value::as_u64),
        output_tokens: body
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64),
        cost_micro_usd: body.get("usage").and_then(reported_cost),
    })
}

/// What the provider says the call cost, in micro-dollars: OpenRouter's `usage.cost` (US
/// dollars, a decimal number). `None` when absent or not a non-negative number.
fn reported_cost(usage: &Value) -> Option<u64> {
    let dollars = usage.get("cost")?.as_f64()?;
    (dollars.is_finite() && dollars >= 0.0).then(|| (dollars * 1_000_000.0).round() as u64)
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
            if let Some(text) = choice.pointer("/delta/refusal").and_then(Value::as_str) {
                self.0.refusal.push_str(text);
            }
            if let Some(finish) = choice.get("finish_reason").and_then(Value::as_str) {
                self.0.stop = Some(finish.to_string());
            }
        }
        let usage = chunk
            .get("usage")
            .filter(|u| u.is_object())
            .or_else(|| chunk.pointer("/x_groq/usage"));
        let tokens = |name: &str| usage.and_then(|u| u.get(name)?.as_u64());
        self.0.input_tokens = tokens("prompt_tokens").or(self.0.input_tokens);
        self.0.output_tokens = tokens("completion_tokens").or(self.0.output_tokens);
        self.0.cost_micro_usd = usage.and_then(reported_cost).or(self.0.cost_micro_usd);
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
            cost_micro_usd: None,
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
    fn openrouter_s_reported_cost_is_read_from_the_stream_and_the_body() {
        let stream = STREAM.replace(
            "\"completion_tokens\":40}",
            "\"completion_tokens\":40,\"cost\":0.0012345,\"is_byok\":false}",
        );
        for size in [1, 9, 64] {
            let done = run(&stream, size).unwrap();
            assert_eq!(done.cost_micro_usd, Some(1_235), "chunks of {size} bytes");
        }
        let body = json!({
            "choices": [{ "message": { "content": "{}" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 3, "completion_tokens": 1, "cost": 0.5 },
        });
        assert_eq!(parse(&body).unwrap().cost_micro_usd, Some(500_000));
        for bad in [json!({ "cost": -1 }), json!({ "cost": "0.1" }), json!({})] {
            assert_eq!(reported_cost(&bad), None, "{bad}");
        }
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
