//! Model providers behind one trait: the runner hands a [`CallRequest`] to a [`Provider`] and gets
//! the raw text back, whoever answered it.
//!
//! Four wire families cover the eight services: [`openai`] (chat completions: OpenAI, OpenRouter,
//! Mistral, Groq, and OpenAI-compatible servers such as LM Studio, vLLM, llama.cpp), [`anthropic`]
//! (Messages), [`gemini`] (native `streamGenerateContent`) and [`ollama`] (native `/api/chat`).
//! Each family module is a pure request builder (URL, only the headers that family needs, body
//! with the answer's schema in the form that provider enforces, from
//! `roundtable_core::provider_schema`) and a pure stream decoder; [`Http`] sends what they build
//! and feeds the decoder ([`post_stream`] over [`sse`] or [`ndjson`]). [`demo::Demo`] answers
//! from `roundtable-core`'s offline demo model with no network at all.
//!
//! Adapters read only `call.messages` and [`CallRequest::schema`] of a call. Keys come from the
//! settings store ([`config`]) and go only into the request of their own provider; no error
//! message, log line or event ever includes one. [`errors`] sorts failures into causes a person
//! can act on, core's `engine::retry` decides when to try again, [`schema`] loads a step's schema.

use futures::future::LocalBoxFuture;
use roundtable_core::protocol::{Message, ModelCall};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod anthropic;
pub mod config;
pub mod demo;
pub mod errors;
pub mod gemini;
pub mod limit;
pub mod models;
pub mod ndjson;
pub mod ollama;
pub mod openai;
pub mod price;
pub mod schema;
pub mod sse;
#[cfg(test)]
mod wire_tests;

pub use errors::ProviderError;

/// Which service a member's model runs on; the id is what session files store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderId {
    /// The offline demo model in `roundtable-core`: no key, no network.
    Demo,
    /// OpenAI's chat completions.
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
    /// Google Gemini's native API (`generateContent`).
    Gemini,
    /// OpenRouter: many vendors' models behind one OpenAI-style API.
    OpenRouter,
    /// Mistral's chat completions.
    Mistral,
    /// Groq's OpenAI-compatible API.
    Groq,
    /// Ollama's native API (`/api/chat`), on this machine or the local network.
    Ollama,
    /// Any server speaking OpenAI chat completions at a base URL the person sets (LM Studio,
    /// vLLM, llama.cpp; the key is optional).
    Local,
}

/// How a provider is spoken to on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// No wire at all.
    Demo,
    /// `POST {base}/chat/completions`, event stream of `choices[].delta`.
    OpenAi,
    /// `POST {base}/messages`, typed events.
    Anthropic,
    /// `POST {base}/models/{model}:streamGenerateContent?alt=sse`.
    Gemini,
    /// `POST {base}/api/chat`, newline-delimited JSON.
    Ollama,
}

impl ProviderId {
    /// Every provider, in the order the settings page lists them.
    pub const ALL: [ProviderId; 9] = [
        ProviderId::Demo,
        ProviderId::OpenAi,
        ProviderId::Anthropic,
        ProviderId::Gemini,
        ProviderId::OpenRouter,
        ProviderId::Mistral,
        ProviderId::Groq,
        ProviderId::Ollama,
        ProviderId::Local,
    ];

    /// The id stored in files and settings keys.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderId::Demo => "demo",
            ProviderId::OpenAi => "openai",
            ProviderId::Anthropic => "anthropic",
            ProviderId::Gemini => "gemini",
            ProviderId::OpenRouter => "openrouter",
            ProviderId::Mistral => "mistral",
            ProviderId::Groq => "groq",
            ProviderId::Ollama => "ollama",
            ProviderId::Local => "local",
        }
    }

    /// Parses a stored id.
    pub fn parse(s: &str) -> Option<ProviderId> {
        ProviderId::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The name a person reads.
    pub fn label(self) -> &'static str {
        match self {
            ProviderId::Demo => "Demo (offline)",
            ProviderId::OpenAi => "OpenAI",
            ProviderId::Anthropic => "Anthropic",
            ProviderId::Gemini => "Google Gemini",
            ProviderId::OpenRouter => "OpenRouter",
            ProviderId::Mistral => "Mistral",
            ProviderId::Groq => "Groq",
            ProviderId::Ollama => "Ollama",
            ProviderId::Local => "OpenAI-compatible server (LM Studio, vLLM, llama.cpp)",
        }
    }

    /// The wire family.
    pub fn family(self) -> Family {
        match self {
            ProviderId::Demo => Family::Demo,
            ProviderId::Anthropic => Family::Anthropic,
            ProviderId::Gemini => Family::Gemini,
            ProviderId::Ollama => Family::Ollama,
            ProviderId::OpenAi
            | ProviderId::OpenRouter
            | ProviderId::Mistral
            | ProviderId::Groq
            | ProviderId::Local => Family::OpenAi,
        }
    }

    /// The model used when a member names none: each provider's current model of its kind,
    /// none announced for retirement when checked (2026-11-26; prices and sources in
    /// `price::TABLE`). `gpt-5.4-mini`: on OpenAI's model pages and OpenRouter's
    /// (openrouter.ai/openai/gpt-5.4-mini), not among the shutdowns OpenAI has announced
    /// through 2027-04-01 (gpt-5.4-nano is); `claude-sonnet-5-5`: "Latest" on Anthropic's
    /// Sonnet 5.5 page (platform.claude.com/docs/models/sonnet-5-5/overview), the id in the
    /// dateless `claude-{name}-{major}-{minor}` form of Anthropic's "Model IDs and versioning"
    /// and in listings (CometAPI, oxen.ai); `gemini-3.8-flash`: on Gemini's pricing page, no
    /// shutdown announced, named as 2.5 Flash's replacement; `mistral-medium-latest`: Mistral
    /// Medium 3.5; `openai/gpt-oss-120b`: a Groq production model with strict structured
    /// outputs. `gemini-2.5-flash` (withdrawn in November 2026), `gpt-4.1-mini` (shuts down
    /// 2027-01-14) and the `gpt-5` / `o3` family (2026-12-11) are not defaults for that reason.
    pub fn default_model(self) -> &'static str {
        match self {
            ProviderId::Demo => roundtable_core::demo::MODEL,
            ProviderId::OpenAi => "gpt-5.4-mini",
            ProviderId::Anthropic => "claude-sonnet-5-5",
            ProviderId::Gemini => "gemini-3.8-flash",
            ProviderId::OpenRouter => "openai/gpt-5.4-mini",
            ProviderId::Mistral => "mistral-medium-latest",
            ProviderId::Groq => "openai/gpt-oss-120b",
            ProviderId::Ollama => "llama3.1",
            ProviderId::Local => "local-model",
        }
    }

    /// The API's address unless the person sets another (Settings → base URL).
    pub fn default_base(self) -> &'static str {
        match self {
            ProviderId::Demo => "",
            ProviderId::OpenAi => "https://api.openai.com/v1",
            ProviderId::Anthropic => "https://api.anthropic.com/v1",
            ProviderId::Gemini => "https://generativelanguage.googleapis.com/v1beta",
            ProviderId::OpenRouter => "https://openrouter.ai/api/v1",
            ProviderId::Mistral => "https://api.mistral.ai/v1",
            ProviderId::Groq => "https://api.groq.com/openai/v1",
            ProviderId::Ollama => "http://127.0.0.1:11434",
            ProviderId::Local => "http://127.0.0.1:1234/v1",
        }
    }

    /// Whether a key must be set before a session can use this provider (local servers take
    /// one optionally).
    pub fn needs_key(self) -> bool {
        !matches!(
            self,
            ProviderId::Demo | ProviderId::Ollama | ProviderId::Local
        )
    }

    /// The settings key under which this provider's API key is kept.
    pub fn key_setting(self) -> String {
        format!("{}{}", crate::storage::KEY_PREFIX, self.as_str())
    }

    /// The settings key under which this provider's base URL override is kept.
    pub fn base_setting(self) -> String {
        format!("base:{}", self.as_str())
    }
}

/// Why the provider stopped producing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its answer.
    Done,
    /// The answer was cut at the token limit: ask for a shorter answer, never guess the rest.
    Length,
    /// The model declined (OpenAI `refusal`, Anthropic `refusal`): never validated as an answer.
    Refused,
    /// A content filter withheld the answer (`content_filter`, Gemini `SAFETY`, …).
    Filtered,
    /// Anything else the provider reported.
    Other,
}

/// What a provider returned for one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The model's raw text, exactly as received.
    pub text: String,
    /// Why generation stopped.
    pub stop: StopReason,
    /// Prompt tokens the provider counted, if it said.
    pub input_tokens: Option<u64>,
    /// Answer tokens the provider counted, if it said.
    pub output_tokens: Option<u64>,
    /// What the provider said the call cost, in micro-dollars (OpenRouter's `usage.cost`).
    pub cost_micro_usd: Option<u64>,
}

/// One call as a provider sees it: the engine's call plus the model to use.
pub struct CallRequest<'a> {
    /// The engine's call. Adapters read only `call.messages` (and `call.id` for logs): the
    /// other fields belong to the engine and change with it.
    pub call: &'a ModelCall,
    /// The JSON Schema the answer must meet, already in the form the provider's family enforces
    /// and fitted to its limits (core's `provider_schema::for_family` of the call's plain
    /// schema, worked out once by the runner), when the call is held to one: each adapter sends
    /// it as it is.
    pub schema: Option<&'a Value>,
    /// The model name on that provider.
    pub model: &'a str,
    /// The most answer tokens to allow.
    pub max_tokens: u32,
    /// The API key, when the provider needs one. Never logged.
    pub key: Option<&'a str>,
    /// Base URL override (Settings); the provider's own address when `None`.
    pub base_url: Option<&'a str>,
    /// The person's limit of parallel calls on this provider (Settings); the default when
    /// `None`.
    pub limit: Option<usize>,
    /// Aborts the HTTP request when the person stops the run (no answer is waited for).
    pub abort: Option<&'a web_sys::AbortSignal>,
    /// Told each piece of text a streamed chunk adds to the answer, so the page can show it
    /// arriving; the caller throttles what it does with it.
    pub on_text: Option<&'a dyn Fn(&str)>,
}

/// A model service. Object-safe so the runner can hold any of them behind one pointer.
pub trait Provider {
    /// Performs one call and returns the raw answer.
    fn complete<'a>(
        &'a self,
        request: CallRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<Completion, ProviderError>>;
}

/// The adapter for a provider id.
pub fn adapter(id: ProviderId) -> Box<dyn Provider> {
    match id {
        ProviderId::Demo => Box::new(demo::Demo),
        id => Box::new(Http(id)),
    }
}

/// What a family's request builder needs: plain data, so builders are tested on the host.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// Which service.
    pub provider: ProviderId,
    /// The API's base URL, no trailing slash.
    pub base: &'a str,
    /// The key, if any.
    pub key: Option<&'a str>,
    /// The model name.
    pub model: &'a str,
    /// The conversation, system first.
    pub messages: &'a [Message],
    /// The most answer tokens to allow.
    pub max_tokens: u32,
    /// The answer's JSON Schema, plain flavour.
    pub schema: Option<&'a Value>,
}

/// One HTTP request as a family builds it, before it is sent.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpCall {
    /// Where it goes.
    pub url: String,
    /// Only the headers this family needs (each extra header is one more thing a CORS
    /// preflight must allow). `Content-Type: application/json` is added when it is sent.
    pub headers: Vec<(&'static str, String)>,
    /// The JSON body.
    pub body: Value,
}

/// The name providers give the answer's schema (OpenAI's `json_schema.name`, Anthropic's tool).
pub const SCHEMA_NAME: &str = "answer";

/// Every HTTP provider: builds the request with its family's builder, sends it, and decodes the
/// answer with its family's decoder.
pub struct Http(pub ProviderId);

impl Provider for Http {
    fn complete<'a>(
        &'a self,
        request: CallRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<Completion, ProviderError>> {
        Box::pin(async move {
            let id = self.0;
            if id.needs_key() && request.key.is_none() {
                return Err(ProviderError::MissingKey(id.label()));
            }
            let base = request
                .base_url
                .filter(|b| !b.trim().is_empty())
                .unwrap_or(id.default_base())
                .trim_end_matches('/');
            let ask = Ask {
                provider: id,
                base,
                key: request.key,
                model: request.model,
                messages: &request.call.messages,
                max_tokens: request.max_tokens,
                schema: request.schema,
            };
            let (call, mut decoder, parse): (HttpCall, Box<dyn StreamDecoder>, ParseJson) =
                match id.family() {
                    Family::Anthropic => (
                        anthropic::build(&ask),
                        Box::<anthropic::StreamState>::default(),
                        anthropic::parse,
                    ),
                    Family::Gemini => (
                        gemini::build(&ask),
                        Box::<gemini::StreamState>::default(),
                        gemini::parse,
                    ),
                    Family::Ollama => (
                        ollama::build(&ask),
                        Box::<ollama::StreamState>::default(),
                        ollama::parse,
                    ),
                    Family::OpenAi | Family::Demo => (
                        openai::build(&ask),
                        Box::<openai::StreamState>::default(),
                        openai::parse,
                    ),
                };
            let mut call = call;
            if unstreamed(id, request.model) {
                openai::without_stream(&mut call);
            }
            // Queued here while the provider already has its limit of calls out.
            let _slot = limit::acquire(id, request.limit).await;
            if request.abort.is_some_and(|a| a.aborted()) {
                return Err(errors::network(&call.url, "stopped before it was sent"));
            }
            let streamed = call.body.get("stream") == Some(&Value::Bool(true));
            let first = complete_streamed(
                id,
                request.model,
                call.clone(),
                &request,
                decoder.as_mut(),
                parse,
            )
            .await;
            match first {
                // The provider will not stream this model for this account: the same call
                // again as one whole answer, and this model asked so from now on (said once).
                Err(ProviderError::StreamNotAllowed { .. }) if streamed => {
                    remember_unstreamed(id, request.model);
                    openai::without_stream(&mut call);
                    complete_streamed(id, request.model, call, &request, decoder.as_mut(), parse)
                        .await
                }
                other => other,
            }
        })
    }
}

thread_local! {
    /// Provider and model pairs that refused a streamed call in this tab: asked for whole answers
    /// from then on, so the refused stream costs one request, once.
    static UNSTREAMED: std::cell::RefCell<std::collections::BTreeSet<(&'static str, String)>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
    /// What the adapters told the person since the runner last looked ([`take_notices`]).
    static NOTICES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `model` on `provider` is asked for whole answers in this tab (it refused to stream).
fn unstreamed(provider: ProviderId, model: &str) -> bool {
    UNSTREAMED.with(|u| u.borrow().contains(&(provider.as_str(), model.to_string())))
}

/// Notes that `model` on `provider` refused to stream, and says so once, in words the person
/// reads ([`take_notices`]).
fn remember_unstreamed(provider: ProviderId, model: &str) {
    let new = UNSTREAMED.with(|u| {
        u.borrow_mut()
            .insert((provider.as_str(), model.to_string()))
    });
    if new {
        NOTICES.with(|n| n.borrow_mut().push(stream_refused_notice(provider, model)));
    }
}

/// The words said once when a model's answers stop streaming.
pub fn stream_refused_notice(provider: ProviderId, model: &str) -> String {
    format!(
        "{} will not stream {model} until your organisation is verified (its console: Settings → \
         Organization → Verify). Its answers now come whole: you see each one when it is done, \
         not as it is written.",
        provider.label()
    )
}

/// What the adapters have told the person since the last call of this (each said once).
pub fn take_notices() -> Vec<String> {
    NOTICES.with(|n| std::mem::take(&mut *n.borrow_mut()))
}

/// A family's reader of a whole (not streamed) JSON answer.
pub(crate) type ParseJson = fn(&Value) -> Result<Completion, ProviderError>;

/// A conversation as APIs with a separate system prompt want it: the system messages joined, and
/// the other turns with consecutive messages of the same role merged (those APIs refuse two user
/// turns in a row). `assistant` is the API's word for the model's own turns.
pub(crate) fn system_and_turns(
    messages: &[roundtable_core::protocol::Message],
    assistant: &'static str,
) -> (String, Vec<(&'static str, String)>) {
    use roundtable_core::protocol::ChatRole;
    let mut system = Vec::new();
    let mut turns: Vec<(&'static str, String)> = Vec::new();
    for m in messages {
        let role = match m.role {
            ChatRole::System => {
                system.push(&*m.content);
                continue;
            }
            ChatRole::User => "user",
            ChatRole::Assistant => assistant,
        };
        match turns.last_mut() {
            Some((r, text)) if *r == role => {
                text.push_str("\n\n");
                text.push_str(&m.content);
            }
            _ => turns.push((role, m.content.to_string())),
        }
    }
    (system.join("\n\n"), turns)
}

/// A completion that is a refusal or a filtered answer becomes its error, so it never reaches
/// the validator as if it were an answer.
pub(crate) fn refuse_or_pass(done: Completion) -> Result<Completion, ProviderError> {
    match done.stop {
        StopReason::Refused => Err(ProviderError::Refused(if done.text.trim().is_empty() {
            "no reason given".into()
        } else {
            done.text.chars().take(300).collect()
        })),
        // What was generated before the filter stepped in is not shown: it is not the answer.
        StopReason::Filtered => Err(ProviderError::Filtered("content filter".into())),
        _ => Ok(done),
    }
}

/// What a streamed answer has added up to so far, whichever provider sent it.
#[derive(Debug, Default)]
pub(crate) struct StreamedAnswer {
    /// The answer so far.
    pub text: String,
    /// What the model said instead of answering (OpenAI's `refusal` deltas).
    pub refusal: String,
    /// The provider's stop reason, once it said one (`finish_reason`, `stop_reason`, …).
    pub stop: Option<String>,
    /// The provider's end marker arrived (`[DONE]`, `message_stop`, `done: true`).
    pub done: bool,
    /// Prompt tokens the provider counted, if it said.
    pub input_tokens: Option<u64>,
    /// Answer tokens the provider counted, if it said.
    pub output_tokens: Option<u64>,
    /// What the provider said the call cost, in micro-dollars, if it said.
    pub cost_micro_usd: Option<u64>,
}

impl StreamedAnswer {
    /// The whole answer as a completion, its stop reason read by the family's own `stop_reason`
    /// (for a family whose plain JSON answer reads like one more stream event).
    pub(crate) fn into_completion(self, stop_reason: fn(Option<&str>) -> StopReason) -> Completion {
        Completion {
            stop: stop_reason(self.stop.as_deref()),
            text: self.text,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            cost_micro_usd: self.cost_micro_usd,
        }
    }
}

/// An adapter's decoder of its event stream: events in, the answer so far, the completion out.
pub(crate) trait StreamDecoder {
    /// Takes one event's data; `Ok(true)` once the answer is complete.
    fn event(&mut self, data: &str) -> Result<bool, ProviderError>;
    /// What the events added up to so far.
    fn answer(&mut self) -> &mut StreamedAnswer;
    /// The provider's stop reason word as ours.
    fn stop_reason(&self, word: Option<&str>) -> StopReason;

    /// The completion the events add up to, or [`ProviderError::Interrupted`] when the stream
    /// ended with neither a stop reason nor the end marker (a proxy timing out, a server dying):
    /// a cut-off answer is asked again, never validated as if it were whole. A refusal or a
    /// filtered answer is its error.
    fn finish(&mut self) -> Result<Completion, ProviderError> {
        let word = self.answer().stop.clone();
        if word.is_none() && !self.answer().done {
            return Err(ProviderError::Interrupted(
                "the answer stream ended before the model finished".into(),
            ));
        }
        let mut stop = self.stop_reason(word.as_deref());
        if stop == StopReason::Filtered {
            // The provider's own word says which filter (`content_filter`, `SAFETY`, …).
            let why = word.unwrap_or_else(|| "content filter".into());
            return Err(ProviderError::Filtered(why));
        }
        let answer = self.answer();
        let mut text = std::mem::take(&mut answer.text);
        if !answer.refusal.is_empty() {
            stop = StopReason::Refused;
            text = std::mem::take(&mut answer.refusal);
        }
        refuse_or_pass(Completion {
            stop,
            text,
            input_tokens: answer.input_tokens,
            output_tokens: answer.output_tokens,
            cost_micro_usd: answer.cost_micro_usd,
        })
    }
}

/// One streamed call decoded by `state`: sends `call`, hands each new piece of text to the
/// request's `on_text`, and returns the completion (from the events, or from `parse_json` when
/// the server answered one JSON body instead of a stream).
pub(crate) async fn complete_streamed(
    provider: ProviderId,
    model: &str,
    call: HttpCall,
    request: &CallRequest<'_>,
    state: &mut dyn StreamDecoder,
    parse_json: ParseJson,
) -> Result<Completion, ProviderError> {
    let streamed = post_stream(provider, model, &call, request.abort, &mut |data| {
        let before = state.answer().text.len();
        let end = state.event(data)?;
        let text = &state.answer().text;
        if let (Some(on_text), true) = (request.on_text, text.len() > before) {
            on_text(&text[before..]);
        }
        Ok(end)
    })
    .await?;
    match streamed {
        Streamed::Events => state.finish(),
        Streamed::Json(answer) => parse_json(&answer).and_then(refuse_or_pass),
    }
}

/// What a streaming request got back.
pub(crate) enum Streamed {
    /// An event stream: every event's data went to the callback.
    Events,
    /// One JSON body: the server ignored `stream` (some local servers do).
    Json(serde_json::Value),
}

/// How a streamed body is cut into events.
enum Frames {
    /// `text/event-stream`.
    Sse(sse::SseDecoder),
    /// `application/x-ndjson` (Ollama).
    Lines(ndjson::NdjsonDecoder),
}

impl Frames {
    fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        match self {
            Frames::Sse(d) => d.feed(bytes),
            Frames::Lines(d) => d.feed(bytes),
        }
    }

    fn finish(&mut self) -> Vec<String> {
        match self {
            Frames::Sse(d) => d.finish(),
            Frames::Lines(d) => d.finish(),
        }
    }
}

/// Sends a JSON request that asks for a streamed answer and reads the stream as it arrives
/// (server-sent events or JSON lines, by content type), handing each event's data to `on_data`
/// (which returns `true` once the answer is complete). Any other 2xx body is read whole as JSON.
/// A network failure, a non-2xx status (sorted by [`errors::classify`], with `Retry-After`) and
/// a body that is not JSON each become their own [`ProviderError`]. The abort signal also ends
/// the body read: its pending `read()` rejects, which comes back as a network error.
pub(crate) async fn post_stream(
    provider: ProviderId,
    model: &str,
    call: &HttpCall,
    abort: Option<&web_sys::AbortSignal>,
    on_data: &mut dyn FnMut(&str) -> Result<bool, ProviderError>,
) -> Result<Streamed, ProviderError> {
    use wasm_bindgen::JsCast;
    let url = call.url.as_str();
    let network = |e: wasm_bindgen::JsValue| {
        errors::network(
            url,
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "the answer stream failed".into()),
        )
    };
    let mut builder = gloo_net::http::Request::post(url);
    for (name, value) in &call.headers {
        builder = builder.header(name, value);
    }
    let response = builder
        .abort_signal(abort)
        .json(&call.body)
        .map_err(|e| ProviderError::Malformed(e.to_string()))?
        .send()
        .await
        .map_err(|e| errors::network(url, e.to_string()))?;
    let status = response.status();
    let media = response
        .headers()
        .get("content-type")
        .map(|t| {
            t.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let frames = match media.as_str() {
        "text/event-stream" => Some(Frames::Sse(sse::SseDecoder::new())),
        "application/x-ndjson" | "application/jsonl" => {
            Some(Frames::Lines(ndjson::NdjsonDecoder::default()))
        }
        _ => None,
    };
    let (stream, mut frames) = match (response.body(), frames) {
        (Some(stream), Some(frames)) if (200..300).contains(&status) => (stream, frames),
        _ => {
            let text = response
                .text()
                .await
                .map_err(|e| errors::network(url, e.to_string()))?;
            if !(200..300).contains(&status) {
                let headers = response.headers();
                let wait = errors::retry_after_ms(
                    headers.get("retry-after").as_deref(),
                    headers.get("retry-after-ms").as_deref(),
                    &text,
                );
                return Err(errors::classify(
                    provider.label(),
                    model,
                    status,
                    &text,
                    wait,
                ));
            }
            return serde_json::from_str(&text)
                .map(Streamed::Json)
                .map_err(|e| ProviderError::Malformed(e.to_string()));
        }
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    loop {
        let chunk = wasm_bindgen_futures::JsFuture::from(reader.read())
            .await
            .map_err(network)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        let datas = if done {
            frames.finish()
        } else {
            let value = js_sys::Reflect::get(&chunk, &"value".into()).map_err(network)?;
            frames.feed(&js_sys::Uint8Array::new(&value).to_vec())
        };
        for data in datas {
            match on_data(&data) {
                Ok(false) => {}
                end => {
                    // Complete or broken off: let go of the connection instead of draining it.
                    let _ = reader.cancel();
                    return end.map(|_| Streamed::Events);
                }
            }
        }
        if done {
            return Ok(Streamed::Events);
        }
    }
}
