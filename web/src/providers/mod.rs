//! Model providers behind one trait: the runner hands a [`ModelCall`] to a [`Provider`] and gets
//! the raw text back, whoever answered it.
//!
//! Adapters: [`openai::OpenAiCompatible`] (OpenAI, Gemini's OpenAI endpoint, and any local server
//! speaking chat completions on loopback), [`anthropic::Anthropic`] (Messages API), and
//! [`demo::Demo`], which answers from `roundtable-core`'s offline demo model with no network at
//! all. Keys come from the settings store and go only into the request header of their own host;
//! no error message, log line or event ever includes one.

use futures::future::LocalBoxFuture;
use roundtable_core::protocol::ModelCall;
use serde::{Deserialize, Serialize};

pub mod anthropic;
pub mod demo;
pub mod openai;

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
    /// A 2xx answer we could not read.
    #[error("unexpected answer from the provider: {0}")]
    Malformed(String),
}

impl ProviderError {
    /// Whether trying the same call again later can succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Network(_) | ProviderError::RateLimited { .. } => true,
            ProviderError::Http { status, .. } => *status >= 500 || *status == 408,
            _ => false,
        }
    }
}

/// One call as a provider sees it: the engine's call plus the model to use.
pub struct CallRequest<'a> {
    /// The engine's call (messages, schema, envelope).
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

/// Sends a JSON request and reads the JSON answer: the part every HTTP adapter shares. A
/// network failure, a non-2xx status (with the provider's own message) and a body that is not
/// JSON each become their own [`ProviderError`].
pub(crate) async fn post_json(
    request: gloo_net::http::RequestBuilder,
    body: &serde_json::Value,
    abort: Option<&web_sys::AbortSignal>,
) -> Result<serde_json::Value, ProviderError> {
    let response = request
        .abort_signal(abort)
        .json(body)
        .map_err(|e| ProviderError::Malformed(e.to_string()))?
        .send()
        .await
        .map_err(|e| ProviderError::Network(e.to_string()))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| ProviderError::Network(e.to_string()))?;
    if !(200..300).contains(&status) {
        return Err(http_error(status, &text));
    }
    serde_json::from_str(&text).map_err(|e| ProviderError::Malformed(e.to_string()))
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
