//! Why a provider call failed, in words a person can act on, and how an HTTP error answer is
//! sorted into one of those causes.
//!
//! [`classify`] is pure: status, body and the `Retry-After` headers in, a [`ProviderError`] out.
//! It reads the body because the status alone misleads: a 429 is a rate limit (wait and retry) or
//! an exhausted quota or spend limit (retrying only burns the person's patience), a 400 may be an
//! unknown model, a prompt over the context window or a low credit balance, and Gemini answers a
//! bad key with 400. Every message names the provider and says what to do; none includes a key.
//!
//! Each provider's own fields are read before any word of the message: Anthropic's `error.type`
//! and `error.details.error_code` (a 429 `enforced_spend_limit_reached` is the month's spend cap,
//! not a rate), OpenAI's `error.code` (`organization_spend_limit_exceeded`, …), Gemini's
//! `QuotaFailure` quota ids and `RetryInfo` (its per-minute 429 says "You exceeded your current
//! quota", the same words as a used-up day), and OpenRouter's `error.metadata` (the upstream's own
//! body in `raw`, its name in `provider_name`, a moderation flag in `reasons`). The real bodies
//! these rules were written from are kept, with their sources, in `fixtures/errors/`.

use roundtable_core::engine::{clause, Fix};
use serde_json::Value;

/// Why a call failed, with enough to decide whether to retry and what to tell the person.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// No key is stored for a provider that needs one.
    #[error("no API key is set for {0}: add one in Settings")]
    MissingKey(&'static str),
    /// The request never got an HTTP answer.
    #[error("{}", network_text(host, *local, detail))]
    Network {
        /// The host that could not be reached.
        host: String,
        /// The host is this machine or the local network (a local server).
        local: bool,
        /// What the browser said (usually only "Failed to fetch").
        detail: String,
    },
    /// The key was refused (401, 403, or Gemini's "API key not valid").
    #[error("{provider} refused the key (HTTP {status}): {}. Check the key in Settings, or make a new one in the provider's console", clause(message))]
    KeyRejected {
        /// The provider's name.
        provider: &'static str,
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// The provider does not know the model (or this key may not use it).
    #[error("{provider} does not know the model \"{model}\": {}. Pick another model in the session's team or refresh the model list in Settings", clause(message))]
    ModelUnknown {
        /// The provider's name.
        provider: &'static str,
        /// The model asked for.
        model: String,
        /// The provider's message.
        message: String,
    },
    /// Too many requests for now; the provider may say how long to wait.
    #[error("{provider} is rate limiting this key{}: {message}", wait_text(*retry_after_ms))]
    RateLimited {
        /// The provider's name.
        provider: &'static str,
        /// How long the provider asked us to wait (`Retry-After`), in milliseconds.
        retry_after_ms: Option<u64>,
        /// The provider's message.
        message: String,
    },
    /// The account's quota, credit or spend limit is used up: waiting does not help.
    #[error("{provider} says this account's quota or credit is used up: {}. Add credit or raise the limit in the provider's billing settings, then resume", clause(message))]
    QuotaExhausted {
        /// The provider's name.
        provider: &'static str,
        /// The provider's message.
        message: String,
    },
    /// The provider is overloaded or down for a moment (529, 503, 5xx).
    #[error("{provider} is overloaded or failing right now (HTTP {status}){}: {message}", wait_text(*retry_after_ms))]
    Overloaded {
        /// The provider's name.
        provider: &'static str,
        /// HTTP status.
        status: u16,
        /// How long the provider asked us to wait, in milliseconds.
        retry_after_ms: Option<u64>,
        /// The provider's message.
        message: String,
    },
    /// The prompt does not fit the model's context window.
    #[error("the prompt is longer than {provider}'s model accepts: {}. Pick a model with a larger context window, or for a local server raise its context size", clause(message))]
    ContextTooLong {
        /// The provider's name.
        provider: &'static str,
        /// The provider's message.
        message: String,
    },
    /// The model declined to answer; its words are never validated as an answer.
    #[error("the model refused to answer: {0}")]
    Refused(String),
    /// The provider's content filter withheld the answer.
    #[error("the provider's content filter withheld the answer ({0})")]
    Filtered(String),
    /// The provider will not stream this model for this account (OpenAI's gpt-5 and o-series for
    /// an organisation that has not verified its identity: 400 "must be verified to stream",
    /// `param: stream`). The adapter asks the same call again without streaming; this error only
    /// reaches the person if that is refused too.
    #[error("{provider} will not stream this model for this account: {}. The call is asked again without streaming", clause(message))]
    StreamNotAllowed {
        /// The provider's name.
        provider: &'static str,
        /// The provider's message.
        message: String,
    },
    /// Any other refused request (a 4xx we did not recognise).
    #[error("{provider} refused the request (HTTP {status}): {message}")]
    BadRequest {
        /// The provider's name.
        provider: &'static str,
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// The provider broke off a streamed answer (an error event, or a stream cut before its end).
    #[error("the provider broke off the answer: {0}")]
    Interrupted(String),
    /// A 2xx answer we could not read.
    #[error("unexpected answer from the provider: {0}")]
    Malformed(String),
}

impl ProviderError {
    /// Where the person can fix this error: a key, a base URL, a model or a local server is
    /// set in Settings; an overloaded provider or a refusal only needs a resume later.
    pub fn fix(&self) -> Fix {
        match self {
            ProviderError::MissingKey(_)
            | ProviderError::Network { .. }
            | ProviderError::KeyRejected { .. }
            | ProviderError::ModelUnknown { .. }
            | ProviderError::QuotaExhausted { .. }
            | ProviderError::ContextTooLong { .. }
            | ProviderError::BadRequest { .. } => Fix::Settings,
            _ => Fix::Resume,
        }
    }

    /// Whether trying the same call again later can succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            ProviderError::Network { .. }
                | ProviderError::RateLimited { .. }
                | ProviderError::Overloaded { .. }
                | ProviderError::Interrupted(_)
        )
    }

    /// What core's retry policy reads of this error ([`roundtable_core::engine::retry`]).
    pub fn failure(&self) -> roundtable_core::engine::retry::Failure {
        roundtable_core::engine::retry::Failure {
            passing: self.is_retryable(),
            retry_after_ms: self.retry_after_ms(),
        }
    }

    /// How long the provider asked us to wait before trying again, if it said.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            ProviderError::RateLimited { retry_after_ms, .. }
            | ProviderError::Overloaded { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }
}

fn wait_text(ms: Option<u64>) -> String {
    match ms {
        Some(ms) => format!(" (it asks to wait {} s)", ms.div_ceil(1000)),
        None => String::new(),
    }
}

fn network_text(host: &str, local: bool, detail: &str) -> String {
    if local {
        format!(
            "could not reach the server at {host} ({detail}). Is it running? A local server must \
             also allow this page's origin: for Ollama, start it with OLLAMA_ORIGINS set to this \
             page's address (for example OLLAMA_ORIGINS=\"https://your.host\" ollama serve); for \
             LM Studio, turn on \"Enable CORS\" in its server settings. If Chrome asks whether this \
             page may reach devices on your local network, allow it"
        )
    } else {
        format!(
            "could not reach {host} ({detail}): check the connection, the base URL in Settings, \
             and that no extension or proxy blocks the request; a server that does not allow \
             requests from this page's origin (CORS) fails the same way"
        )
    }
}

/// Whether `host` (as in a URL, maybe with a port) is this machine or a private network.
pub fn is_local_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(h, _)| h),
    };
    name == "localhost"
        || name.ends_with(".local")
        || name == "::1"
        || name.starts_with("127.")
        || name.starts_with("10.")
        || name.starts_with("192.168.")
        || (name.starts_with("172.")
            && name
                .split('.')
                .nth(1)
                .and_then(|n| n.parse::<u8>().ok())
                .is_some_and(|n| (16..32).contains(&n)))
}

/// Whether `host` is this machine as the page's CSP names it (`127.0.0.1`, `localhost`): the
/// only hosts plain `http:` may reach. (`[::1]` is not listed: Chromium refuses an IPv6 literal
/// in a CSP source.)
pub fn is_loopback(host: &str) -> bool {
    let name = host.rsplit_once(':').map_or(host, |(h, _)| h);
    name == "localhost" || name == "127.0.0.1"
}

/// The host part of a URL (`https://api.x.com/v1/…` → `api.x.com`).
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}

/// A network failure of a request to `url`.
pub fn network(url: &str, detail: impl Into<String>) -> ProviderError {
    let host = host_of(url);
    ProviderError::Network {
        host: host.to_string(),
        local: is_local_host(host),
        detail: detail.into(),
    }
}

/// The provider's own message in an error body (`error.message` in OpenAI, Anthropic, Gemini,
/// Mistral; `error` as a string in Ollama; `message` or `detail` elsewhere), shortened. When
/// OpenRouter wraps an upstream error (`error.metadata.raw`, its `error.message` only "Provider
/// returned error"), the upstream's own words are given, after its name.
pub fn error_message(body: &str) -> String {
    let value = serde_json::from_str::<Value>(body).ok();
    let own = |v: &Value| {
        v.pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(|m| m.as_str().map(str::to_string))
    };
    let upstream = value.as_ref().and_then(|v| {
        let raw = v.pointer("/error/metadata/raw")?;
        let text = match raw {
            Value::String(s) => serde_json::from_str::<Value>(s)
                .ok()
                .and_then(|inner| own(&inner))
                .unwrap_or_else(|| s.trim().to_string()),
            other => own(other).unwrap_or_default(),
        };
        if text.trim().is_empty() {
            return None;
        }
        Some(
            match v
                .pointer("/error/metadata/provider_name")
                .and_then(Value::as_str)
            {
                Some(name) => format!("{name} says: {}", text.trim()),
                None => text,
            },
        )
    });
    // A JSON body with no message of its own is never shown as JSON: a person reads "no
    // details given" (the status and the provider are said around it).
    let message = upstream
        .or_else(|| value.as_ref().and_then(own))
        .unwrap_or_else(|| match value {
            Some(_) => String::new(),
            None => body.trim().to_string(),
        });
    // Our sentences go on after the provider's words: its own full stop would double ours.
    let message = message.trim().trim_end_matches('.').to_string();
    let message = if message.is_empty() {
        "no details given".to_string()
    } else {
        message
    };
    message.chars().take(300).collect()
}

/// `Retry-After` as a delay: seconds (`"30"`) or `retry-after-ms`; an HTTP date is not read
/// (it needs the clock, and providers send seconds). Gemini puts its delay in the body
/// (`error.details[].retryDelay: "17s"`), which is read too.
pub fn retry_after_ms(
    retry_after: Option<&str>,
    retry_after_ms: Option<&str>,
    body: &str,
) -> Option<u64> {
    if let Some(ms) = retry_after_ms.and_then(|v| millis(v, 0)) {
        return Some(ms);
    }
    if let Some(ms) = retry_after.and_then(|v| millis(v, 3)) {
        return Some(ms);
    }
    let value: Value = serde_json::from_str(body).ok()?;
    value
        .pointer("/error/details")?
        .as_array()?
        .iter()
        .find_map(|d| d.get("retryDelay")?.as_str())
        .and_then(|d| millis(d.strip_suffix('s')?, 3))
}

/// A non-negative decimal number times 10^`shift`, as a whole number (`"1.5"`, 3 → 1500): read
/// without floats, whose parsing code would weigh on the download.
fn millis(text: &str, shift: usize) -> Option<u64> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (!frac.is_empty() && !digits(frac)) {
        return None;
    }
    let frac: String = frac
        .chars()
        .chain(std::iter::repeat('0'))
        .take(shift)
        .collect();
    let scale = 10u64.checked_pow(shift as u32)?;
    whole
        .parse::<u64>()
        .ok()?
        .checked_mul(scale)?
        .checked_add(if shift == 0 { 0 } else { frac.parse().ok()? })
}

/// What a body's structured fields say, wherever the provider puts them (an OpenRouter-wrapped
/// upstream body included): Gemini's quota ids and whether it sent a `RetryInfo`, and
/// OpenRouter's moderation flag.
#[derive(Default)]
struct Fields {
    /// Gemini `QuotaFailure.violations[].quotaId` (`…PerMinute…`, `…PerDay…`).
    quota_ids: Vec<String>,
    /// A `retryDelay` was given (Gemini's `RetryInfo`).
    retry_info: bool,
    /// OpenRouter's moderation metadata (`reasons`, `flagged_input`).
    moderation: bool,
}

impl Fields {
    fn read(value: &Value) -> Fields {
        let mut fields = Fields::default();
        fields.walk(value, 0);
        fields.moderation = value.pointer("/error/metadata/reasons").is_some()
            || value.pointer("/error/metadata/flagged_input").is_some();
        fields
    }

    fn walk(&mut self, value: &Value, depth: usize) {
        if depth > 12 {
            return;
        }
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v) {
                        ("quotaId", Value::String(id)) => self.quota_ids.push(id.clone()),
                        ("retryDelay", _) => self.retry_info = true,
                        // OpenRouter's upstream body, itself JSON in a string.
                        ("raw", Value::String(raw)) => {
                            if let Ok(inner) = serde_json::from_str::<Value>(raw) {
                                self.walk(&inner, depth + 1);
                            }
                        }
                        _ => self.walk(v, depth + 1),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v, depth + 1)),
            _ => {}
        }
    }

    /// Gemini's quota for the day, or a model the key has no quota for at all (`limit: 0`):
    /// no wait brings it back, even when the body offers a `retryDelay`.
    fn gemini_day_gone(&self, lower: &str) -> bool {
        self.quota_ids.iter().any(|id| id.contains("PerDay")) || lower.contains("limit: 0,")
    }

    /// Gemini's per-minute limit: a `PerMinute` quota id, or a `RetryInfo` without a day's
    /// quota gone.
    fn gemini_per_minute(&self) -> bool {
        self.retry_info || self.quota_ids.iter().any(|id| id.contains("PerMinute"))
    }
}

/// Sorts an HTTP error answer into its cause. `provider` names the service, `model` the model
/// asked for, `retry_after_ms` what [`retry_after_ms`] read from the headers and body.
///
/// Rules, each from the provider's documentation or a real body in `fixtures/errors/`:
/// - 401, and 403 without OpenRouter's moderation metadata: the key. A 403 with it
///   (`reasons`, `flagged_input`) is OpenRouter's moderation: a filtered request (OpenRouter
///   errors docs, read 2026-11-26).
/// - 400 "must be verified to stream" (OpenAI, also inside OpenRouter's `metadata.raw`): the
///   call is asked again without streaming.
/// - 429 from Gemini: a `PerDay` quota id or `limit: 0` is a used-up quota; a `PerMinute` quota
///   id or a `RetryInfo` is a rate limit, waited for (Gemini rate-limits docs; bodies in
///   fixtures). The words "exceeded your current quota" decide nothing when either is there.
/// - 429 with a spend or credit code (Anthropic `enforced_spend_limit_reached`, OpenAI
///   `insufficient_quota`, `credit_balance_exhausted`, `*_spend_limit_exceeded`,
///   `organization_usage_limit_exceeded`): a used-up quota; any other 429 is a rate limit.
/// - 402, and a 400 about the credit balance or the person's own usage limit (Anthropic): a
///   used-up quota.
pub fn classify(
    provider: &'static str,
    model: &str,
    status: u16,
    body: &str,
    retry_after_ms: Option<u64>,
) -> ProviderError {
    let message = error_message(body);
    let lower = body.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let fields = serde_json::from_str::<Value>(body)
        .map(|v| Fields::read(&v))
        .unwrap_or_default();
    let quota = has(&[
        "insufficient_quota",
        "billing",
        "credit balance",
        "credit_balance_exhausted",
        "insufficient credits",
        "spend limit",
        "spending limit",
        "spend_limit_exceeded",
        "enforced_spend_limit_reached",
        "usage_limit_exceeded",
        "specified api usage limits",
        "specified workspace api usage limits",
        "exceeded your current quota",
        "payment required",
    ]);
    let context = has(&[
        "context_length_exceeded",
        "context length",
        "context window",
        "prompt is too long",
        "too many tokens",
        "maximum context",
        "input is too long",
        "exceeds the context",
    ]);
    let model_unknown = has(&[
        "model_not_found",
        "does not exist",
        "unknown model",
        "invalid model",
        "no such model",
        "is not found for api version",
    ]) || (lower.contains("model") && lower.contains("not found"));
    let stream_refused = has(&["must be verified to stream"]);
    let quota_gone = ProviderError::QuotaExhausted {
        provider,
        message: message.clone(),
    };
    let rate_limited = ProviderError::RateLimited {
        provider,
        retry_after_ms,
        message: message.clone(),
    };
    match status {
        400..=499 if stream_refused => ProviderError::StreamNotAllowed { provider, message },
        403 if fields.moderation => ProviderError::Filtered(message),
        401 | 403 => ProviderError::KeyRejected {
            provider,
            status,
            message,
        },
        400 if has(&["api key not valid", "api_key_invalid", "invalid api key"]) => {
            ProviderError::KeyRejected {
                provider,
                status,
                message,
            }
        }
        402 => quota_gone,
        429 if fields.gemini_day_gone(&lower) => quota_gone,
        429 if fields.gemini_per_minute() => rate_limited,
        429 if quota => quota_gone,
        429 => rate_limited,
        404 => ProviderError::ModelUnknown {
            provider,
            model: model.to_string(),
            message,
        },
        408 | 500..=599 => ProviderError::Overloaded {
            provider,
            status,
            retry_after_ms,
            message,
        },
        _ if quota => quota_gone,
        _ if context || status == 413 => ProviderError::ContextTooLong { provider, message },
        _ if model_unknown => ProviderError::ModelUnknown {
            provider,
            model: model.to_string(),
            message,
        },
        _ => ProviderError::BadRequest {
            provider,
            status,
            message,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(status: u16, body: &str) -> ProviderError {
        classify("OpenAI", "gpt-x", status, body, Some(2000))
    }

    /// A JSON error body without a message is said in words, never shown as JSON (a failed
    /// call's message reaches the page and the report).
    #[test]
    fn a_body_without_a_message_is_never_shown_as_json() {
        for body in [
            r#"{"error":{"code":500,"status":"INTERNAL"}}"#,
            r#"{"error":{"metadata":{"raw":{"code":1},"provider_name":"Up"}}}"#,
            "[]",
        ] {
            let m = error_message(body);
            assert!(!m.contains(['{', '[', '"']), "{body} → {m}");
            let text = c(500, body).to_string();
            assert!(!text.contains(['{', '[']), "{body} → {text}");
        }
        assert_eq!(
            error_message(r#"{"error":{"code":500}}"#),
            "no details given"
        );
        assert_eq!(
            error_message(r#"{"error":{"metadata":{"raw":{"code":1},"provider_name":"Up"}}}"#),
            "no details given"
        );
        assert_eq!(error_message("Bad gateway."), "Bad gateway");
    }

    #[test]
    fn a_refused_key_reads_as_one_sentence_and_points_to_settings() {
        let e = c(
            401,
            r#"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}"#,
        );
        assert!(matches!(e, ProviderError::KeyRejected { .. }));
        let text = e.to_string();
        assert!(!text.contains(".."), "{text}");
        assert!(text.contains("Incorrect API key provided. Check the key in Settings"));
        assert_eq!(e.fix(), Fix::Settings);
        let busy = c(503, r#"{"error":{"message":"Server busy."}}"#);
        assert_eq!(busy.fix(), Fix::Resume, "waiting mends an overload");
    }

    #[test]
    fn a_429_is_a_rate_limit_unless_the_quota_or_credit_is_gone() {
        let rate = c(
            429,
            r#"{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}"#,
        );
        assert!(matches!(
            rate,
            ProviderError::RateLimited {
                retry_after_ms: Some(2000),
                ..
            }
        ));
        assert!(rate.is_retryable());
        let billing = c(
            429,
            r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}"#,
        );
        assert!(matches!(billing, ProviderError::QuotaExhausted { .. }));
        assert!(!billing.is_retryable());
        // Anthropic says a low balance with a 400
        let low = c(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}"#,
        );
        assert!(matches!(low, ProviderError::QuotaExhausted { .. }));
        // OpenRouter: 402
        assert!(matches!(
            c(402, r#"{"error":{"message":"Insufficient credits"}}"#),
            ProviderError::QuotaExhausted { .. }
        ));
    }

    #[test]
    fn overload_server_errors_keys_models_and_context_are_told_apart() {
        let overloaded = c(
            529,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        );
        assert!(matches!(
            overloaded,
            ProviderError::Overloaded { status: 529, .. }
        ));
        assert!(overloaded.is_retryable());
        assert!(matches!(
            c(503, "upstream unavailable"),
            ProviderError::Overloaded { status: 503, .. }
        ));
        assert!(matches!(
            c(401, r#"{"error":{"message":"Incorrect API key provided"}}"#),
            ProviderError::KeyRejected { status: 401, .. }
        ));
        // Gemini answers a bad key with 400
        assert!(matches!(
            c(
                400,
                r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#
            ),
            ProviderError::KeyRejected { status: 400, .. }
        ));
        assert!(matches!(
            c(404, r#"{"error":"model 'llama9' not found"}"#),
            ProviderError::ModelUnknown { .. }
        ));
        assert!(matches!(
            c(
                400,
                r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}"#
            ),
            ProviderError::ContextTooLong { .. }
        ));
        assert!(matches!(
            c(
                400,
                r#"{"error":{"message":"Invalid model: mistral-huge"}}"#
            ),
            ProviderError::ModelUnknown { .. }
        ));
        let other = c(400, r#"{"error":{"message":"temperature must be ≤ 2"}}"#);
        assert!(matches!(other, ProviderError::BadRequest { .. }));
        assert!(!other.is_retryable());
    }

    #[test]
    fn retry_after_comes_from_headers_or_geminis_retry_info() {
        assert_eq!(retry_after_ms(Some("7"), None, ""), Some(7000));
        assert_eq!(retry_after_ms(Some("7"), Some("1500"), ""), Some(1500));
        assert_eq!(retry_after_ms(Some("0.25"), None, ""), Some(250));
        assert_eq!(retry_after_ms(Some("-3"), None, ""), None);
        assert_eq!(
            retry_after_ms(None, None, "Wed, 21 Oct 2015 07:28:00 GMT"),
            None
        );
        let gemini = r#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"17s"}]}}"#;
        assert_eq!(retry_after_ms(None, None, gemini), Some(17000));
    }

    /// Every real error body in `fixtures/errors/` is sorted as its file says: the cause, whether
    /// it is retried, the wait read from it, and the words the person reads. Each file names its
    /// source and the date it was read.
    #[test]
    fn real_error_bodies_are_sorted_by_their_own_fields() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/providers/fixtures/errors");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".json") {
                continue;
            }
            let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            for field in ["source", "read", "about"] {
                assert!(case[field].is_string(), "{name} says its {field}");
            }
            let provider: &'static str = match case["provider"].as_str().unwrap() {
                "Google Gemini" => "Google Gemini",
                "Anthropic" => "Anthropic",
                "OpenRouter" => "OpenRouter",
                "OpenAI" => "OpenAI",
                other => panic!("{name}: provider {other}"),
            };
            let body = match &case["body"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let status = case["status"].as_u64().unwrap() as u16;
            let wait = retry_after_ms(None, None, &body);
            let got = classify(provider, "the-model", status, &body, wait);
            let kind = format!("{got:?}");
            let kind = kind.split([' ', '(', '{']).next().unwrap();
            assert_eq!(kind, case["expect"].as_str().unwrap(), "{name}: {got:?}");
            let retried = roundtable_core::engine::retry::delay_ms(got.failure(), 1, 7);
            match case["retry_after_ms"].as_u64() {
                Some(ms) => {
                    assert_eq!(got.retry_after_ms(), Some(ms), "{name}");
                    let wait = retried.unwrap_or_else(|| panic!("{name} is retried"));
                    assert!((ms..=ms + 250).contains(&wait), "{name}: waits {wait}");
                }
                None => assert_eq!(
                    retried.is_some(),
                    matches!(kind, "RateLimited" | "Overloaded"),
                    "{name}"
                ),
            }
            let text = got.to_string();
            assert!(!text.contains("Provider returned error"), "{name}: {text}");
            for words in case["message_has"].as_array().into_iter().flatten() {
                let words = words.as_str().unwrap();
                assert!(text.contains(words), "{name}: {text} lacks {words}");
            }
            seen += 1;
        }
        assert!(seen >= 15, "{seen} fixtures");
    }

    #[test]
    fn messages_say_what_to_do() {
        let local = network("http://127.0.0.1:11434/api/chat", "Failed to fetch");
        let text = local.to_string();
        assert!(text.contains("OLLAMA_ORIGINS"), "{text}");
        assert!(text.contains("127.0.0.1:11434"), "{text}");
        assert!(text.contains("local network"), "{text}");
        let cloud = network(
            "https://api.mistral.ai/v1/chat/completions",
            "Failed to fetch",
        );
        assert!(!cloud.to_string().contains("OLLAMA"), "{cloud}");
        assert!(cloud.to_string().contains("api.mistral.ai"));
        let limited = c(429, r#"{"error":{"message":"slow down."}}"#).to_string();
        assert_eq!(
            limited,
            "OpenAI is rate limiting this key (it asks to wait 2 s): slow down"
        );
    }

    #[test]
    fn local_hosts_are_recognised() {
        for h in [
            "localhost:1234",
            "127.0.0.1:11434",
            "[::1]:8080",
            "192.168.1.20:11434",
            "172.20.0.5",
            "box.local",
        ] {
            assert!(is_local_host(h), "{h}");
        }
        for h in ["api.openai.com", "172.40.0.1", "8.8.8.8:443"] {
            assert!(!is_local_host(h), "{h}");
        }
        assert_eq!(
            host_of("https://api.groq.com/openai/v1/models"),
            "api.groq.com"
        );
    }
}
