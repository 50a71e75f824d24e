//! Where a provider is reached and with which key, as the person set it in Settings.
//!
//! A base URL the person types is accepted only when it is `https://`, or `http://` to this
//! machine (`127.0.0.1`, `localhost`): a key must never travel in clear text over a
//! network, and the page's CSP allows plain `http:` only to loopback. A server elsewhere on the
//! local network (an Ollama on `http://192.168.1.20:11434`) is refused with what to do instead
//! ([`BaseUrlError::LocalNetwork`]): https in front of it, or a port forwarded to this machine.
//! Why not allow the LAN: a CSP source cannot name an address range, so allowing it means
//! `http:` to every host, and a key would then cross the network in clear text.

use super::errors::{host_of, is_local_host, is_loopback};
use super::ProviderId;
use crate::storage;

/// A provider's key and address as stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderConfig {
    /// The API key, if one is stored.
    pub key: Option<String>,
    /// The base URL override, if one is stored.
    pub base_url: Option<String>,
    /// The person's limit of parallel calls, if set ([`super::limit`]).
    pub limit: Option<usize>,
}

/// Why a base URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaseUrlError {
    /// Not a URL we can call.
    #[error("\"{0}\" is not a URL: it must start with https:// (or http:// for a server on this machine: 127.0.0.1 or localhost)")]
    NotAUrl(String),
    /// Plain http to a server on the local network.
    #[error("this page may not reach plain http:// on your local network ({host}): the browser allows plain http only to this machine, and a key must never cross a network in clear text. Put the server behind https (for example `tailscale serve` or a Caddy reverse proxy) and use that https:// address, or forward its port to this machine (ssh -N -L {port}:{host} you@{name}) and use http://127.0.0.1:{port}", name = host.rsplit_once(':').map_or(host.as_str(), |(h, _)| h), port = host.rsplit_once(':').map_or("80", |(_, p)| p))]
    LocalNetwork {
        /// The host and port as typed.
        host: String,
    },
    /// Plain http to a host that is not this machine.
    #[error("{0} is not this machine: use https:// (plain http:// is allowed only to 127.0.0.1 or localhost, so a key never crosses a network in clear text)")]
    PlainHttp(String),
}

/// Checks a base URL typed in Settings and returns it without a trailing slash.
pub fn check_base_url(url: &str) -> Result<String, BaseUrlError> {
    let url = url.trim().trim_end_matches('/');
    let host = host_of(url);
    if host.is_empty() || url.contains(char::is_whitespace) {
        return Err(BaseUrlError::NotAUrl(url.to_string()));
    }
    if url.starts_with("https://") {
        return Ok(url.to_string());
    }
    if url.starts_with("http://") {
        return if is_loopback(host) {
            Ok(url.to_string())
        } else if is_local_host(host) {
            Err(BaseUrlError::LocalNetwork {
                host: host.to_string(),
            })
        } else {
            Err(BaseUrlError::PlainHttp(host.to_string()))
        };
    }
    Err(BaseUrlError::NotAUrl(url.to_string()))
}

/// Reads a provider's key (when it takes one) and base URL from the settings store.
pub async fn load(id: ProviderId) -> ProviderConfig {
    if id == ProviderId::Demo {
        return ProviderConfig::default();
    }
    // One transaction for the three: a call waits for this before its request goes out.
    let keys = [
        id.key_setting(),
        id.base_setting(),
        super::limit::setting(id),
    ];
    let mut values = storage::get_settings(&keys)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.filter(|v| !v.trim().is_empty()));
    let (key, base_url, limit) = (
        values.next().flatten(),
        values.next().flatten(),
        values.next().flatten(),
    );
    ProviderConfig {
        key,
        base_url,
        limit: limit.as_deref().and_then(super::limit::parse),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_and_http_only_to_local_servers() {
        assert_eq!(
            check_base_url(" https://llm.example.org/v1/ ").unwrap(),
            "https://llm.example.org/v1"
        );
        assert!(check_base_url("http://127.0.0.1:1234/v1").is_ok());
        assert!(check_base_url("http://localhost:11434").is_ok());
        assert!(
            check_base_url("http://[::1]:11434").is_err(),
            "not in the CSP"
        );
        let lan = check_base_url("http://192.168.1.9:11434").unwrap_err();
        assert_eq!(
            lan,
            BaseUrlError::LocalNetwork {
                host: "192.168.1.9:11434".into()
            }
        );
        let words = lan.to_string();
        assert!(
            words.contains("ssh -N -L 11434:192.168.1.9:11434 you@192.168.1.9"),
            "{words}"
        );
        assert!(words.contains("http://127.0.0.1:11434"), "{words}");
        assert!(matches!(
            check_base_url("http://nas.local/v1"),
            Err(BaseUrlError::LocalNetwork { .. })
        ));
        assert_eq!(
            check_base_url("http://llm.example.org/v1"),
            Err(BaseUrlError::PlainHttp("llm.example.org".into()))
        );
        assert!(matches!(
            check_base_url("ftp://x"),
            Err(BaseUrlError::NotAUrl(_))
        ));
        assert!(check_base_url("https://").is_err());
    }
}
