//! Model providers behind one trait: the runner hands a [`ModelCall`] to a [`Provider`] and gets
//! the raw text back, whoever answered it.
//!
//! Adapters: [`openai::OpenAiCompatible`] (OpenAI, Gemini's OpenAI endpoint, and any local server
//! speaking chat completions on loopback), [`anthropic::Anthropic`] (Messages API), and
//! [`demo::Demo`], which answers from `roundtable-core`'s offline demo model with no network at
//! all. The two HTTP adapters ask for a streamed answer and read it as it arrives ([`post_stream`],
//! [`sse`]), reporting each new piece of text through [`CallRequest::on_text`]. Keys come from the settings store and go only into the request header of their own host;
//! no error message, log line or event ever includes one.

use futures::future::LocalBoxFuture;
use roundtable_core::protocol::ModelCall;
use serde::{Deserialize, Serialize};

pub mod anthropic;
pub mod demo;
pub mod openai;
pub mod sse;

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
    /// Google Gemini through its OpenAI-compatible endpoint.
    Gemini,
    /// A server on this machine speaking OpenAI chat completions (Ollama, LM Studio, llama.cpp).
    Local,
}

impl ProviderId {
    /// Every provider, in the order the settings page lists them.
    pub const ALL: [ProviderId; 5] = [
        ProviderId::Demo,
        ProviderId::OpenAi,
        ProviderId::Anthropic,
        ProviderId::Gemini,
        ProviderId::Local,
    ];

    /// The id stored in files and settings keys.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderId::Demo => "demo",
            ProviderId::OpenAi => "openai",
            ProviderId::Anthropic => "anthropic",
            ProviderId::Gemini => "gemini",
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
            ProviderId::Local => "Local server (OpenAI-compatible)",
        }
    }

    /// The model used when a member names none.
    pub fn default_model(self) -> &'static str {
        match self {
            ProviderId::Demo => roundtable_core::demo::MODEL,
            ProviderId::OpenAi => "gpt-4.1-mini",
            ProviderId::Anthropic => "claude-sonnet-4-5",
            ProviderId::Gemini => "gemini-2.5-flash",
            ProviderId::Local => "llama3.1",
        }
    }

    /// Whether a key must be set before a session can use this provider.
    pub fn needs_key(self) -> bool {
        matches!(
            self,
            ProviderId::OpenAi | ProviderId::Anthropic | ProviderId::Gemini
        )
    }

    /// The settings key under which this provider's API key is kept.
    pub fn key_setting(self) -> String {
        format!("{}{}", crate::storage::KEY_PREFIX, self.as_str())
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
    /// Anything else the provider reported (content filter, tool call, …).
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
}

/// Why a call failed, with enough to decide whether to retry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// No key is stored for a provider that needs one.
    #[error("no API key is set for {0}; add one in Settings")]
    MissingKey(&'static str),
    /// The request never got an HTTP answer (offline, blocked by CSP, DNS, CORS).
    #[error("network error: {0}")]
    Network(String),
    /// The key was refused.
    #[error("the provider refused the key ({status}): {message}")]
    Auth {
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// Too many requests; wait and retry.
    #[error("rate limited ({status}): {message}")]
    RateLimited {
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// Any other HTTP error.
    #[error("HTTP {status}: {message}")]
    Http {
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// The provider broke off a streamed answer with an error event (overloaded, server error).
    #[error("the provider broke off the answer: {0}")]
    Interrupted(String),
    /// A 2xx answer we could not read.
    #[error("unexpected answer from the provider: {0}")]
    Malformed(String),
}

impl ProviderError {
    /// Whether trying the same call again later can succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Network(_)
            | ProviderError::RateLimited { .. }
            | ProviderError::Interrupted(_) => true,
            ProviderError::Http { status, .. } => *status >= 500 || *status == 408,
            _ => false,
        }
    }
}

/// One call as a provider sees it: the engine's call plus the model to use.
pub struct CallRequest<'a> {
    /// The engine's call (messages, schema; for demo members, the demo model's answer).
    pub call: &'a ModelCall,
    /// The model name on that provider.
    pub model: &'a str,
    /// The most answer tokens to allow.
    pub max_tokens: u32,
    /// The API key, when the provider needs one. Never logged.
    pub key: Option<&'a str>,
    /// Base URL override (local servers).
    pub base_url: Option<&'a str>,
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
        ProviderId::OpenAi => Box::new(openai::OpenAiCompatible::openai()),
        ProviderId::Gemini => Box::new(openai::OpenAiCompatible::gemini()),
        ProviderId::Local => Box::new(openai::OpenAiCompatible::local()),
        ProviderId::Anthropic => Box::new(anthropic::Anthropic),
    }
}

/// Reads an HTTP error body and pulls out the provider's message (`error.message` in all three
/// APIs), shortened, so the person sees why without the whole JSON.
pub(crate) fn error_message(body: &str) -> String {
    let message = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.pointer("/error/message")
                .or_else(|| v.pointer("/message"))
                .and_then(|m| m.as_str().map(str::to_string))
        })
        .unwrap_or_else(|| body.to_string());
    message.chars().take(400).collect()
}

/// Turns a non-2xx status and body into the matching error.
pub(crate) fn http_error(status: u16, body: &str) -> ProviderError {
    let message = error_message(body);
    match status {
        401 | 403 => ProviderError::Auth { status, message },
        429 => ProviderError::RateLimited { status, message },
        _ => ProviderError::Http { status, message },
    }
}

/// What a streamed answer has added up to so far, whichever provider sent it.
#[derive(Debug, Default)]
pub(crate) struct StreamedAnswer {
    /// The answer so far.
    pub text: String,
    /// The provider's stop reason, once it said one (`finish_reason`, `stop_reason`).
    pub stop: Option<String>,
    /// The provider's end marker arrived (`[DONE]`, `message_stop`).
    pub done: bool,
    /// Prompt tokens the provider counted, if it said.
    pub input_tokens: Option<u64>,
    /// Answer tokens the provider counted, if it said.
    pub output_tokens: Option<u64>,
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
    /// a cut-off answer is asked again, never validated as if it were whole.
    fn finish(&mut self) -> Result<Completion, ProviderError> {
        let word = self.answer().stop.clone();
        if word.is_none() && !self.answer().done {
            return Err(ProviderError::Interrupted(
                "the answer stream ended before the model finished".into(),
            ));
        }
        let stop = self.stop_reason(word.as_deref());
        let answer = self.answer();
        Ok(Completion {
            stop,
            text: std::mem::take(&mut answer.text),
            input_tokens: answer.input_tokens,
            output_tokens: answer.output_tokens,
        })
    }
}

/// One streamed call decoded by `state`: sends `body`, hands each new piece of text to the
/// call's `on_text`, and returns the completion (from the events, or from `parse_json` when the
/// server answered one JSON body instead of a stream). Not generic: one copy in the download.
pub(crate) async fn complete_streamed(
    builder: gloo_net::http::RequestBuilder,
    body: &serde_json::Value,
    request: &CallRequest<'_>,
    state: &mut dyn StreamDecoder,
    parse_json: fn(&serde_json::Value) -> Result<Completion, ProviderError>,
) -> Result<Completion, ProviderError> {
    let streamed = post_stream(builder, body, request.abort, &mut |data| {
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
        Streamed::Json(answer) => parse_json(&answer),
    }
}

/// What a streaming request got back.
pub(crate) enum Streamed {
    /// An event stream: every event's data went to the callback.
    Events,
    /// One JSON body: the server ignored `stream` (some local servers do).
    Json(serde_json::Value),
}

/// Sends a JSON request that asks for a streamed answer and reads the event stream as it
/// arrives, handing each event's data to `on_data` (which returns `true` once the answer is
/// complete). A body that is not `text/event-stream` is read whole as JSON instead. A network
/// failure, a non-2xx status (with the provider's own message) and a body that is not JSON each
/// become their own [`ProviderError`]. The abort signal also ends the body read: its pending `read()`
/// rejects, which comes back as [`ProviderError::Network`].
pub(crate) async fn post_stream(
    request: gloo_net::http::RequestBuilder,
    body: &serde_json::Value,
    abort: Option<&web_sys::AbortSignal>,
    on_data: &mut dyn FnMut(&str) -> Result<bool, ProviderError>,
) -> Result<Streamed, ProviderError> {
    use wasm_bindgen::JsCast;
    let network = |e: wasm_bindgen::JsValue| {
        ProviderError::Network(
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "the answer stream failed".into()),
        )
    };
    let response = request
        .abort_signal(abort)
        .json(body)
        .map_err(|e| ProviderError::Malformed(e.to_string()))?
        .send()
        .await
        .map_err(|e| ProviderError::Network(e.to_string()))?;
    let status = response.status();
    let events = response.headers().get("content-type").is_some_and(|t| {
        let media = t.split(';').next().unwrap_or_default().trim();
        media.eq_ignore_ascii_case("text/event-stream")
    });
    let stream = match response.body() {
        Some(stream) if events && (200..300).contains(&status) => stream,
        _ => {
            let text = response
                .text()
                .await
                .map_err(|e| ProviderError::Network(e.to_string()))?;
            if !(200..300).contains(&status) {
                return Err(http_error(status, &text));
            }
            return serde_json::from_str(&text)
                .map(Streamed::Json)
                .map_err(|e| ProviderError::Malformed(e.to_string()));
        }
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut decoder = sse::SseDecoder::new();
    loop {
        let chunk = wasm_bindgen_futures::JsFuture::from(reader.read())
            .await
            .map_err(network)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        let datas = if done {
            decoder.finish()
        } else {
            let value = js_sys::Reflect::get(&chunk, &"value".into()).map_err(network)?;
            decoder.feed(&js_sys::Uint8Array::new(&value).to_vec())
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
