//! Which requests the server answers at all: only those addressed to it (`Host`), from its
//! own page or a program that is not a browser page (`Origin`, `Sec-Fetch-Site`), and, when
//! they change something, sent as JSON — so that a page of another site can neither act at
//! a table (a cross-site form or `text/plain` POST) nor read one through a name it points
//! at this machine (DNS rebinding).

use crate::rejection::ApiError;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The names the server answers to.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The port it is served on.
    port: u16,
    /// Names given by the operator (`--allow-host`), lower case: `name` or `name:port`.
    hosts: Vec<String>,
}

impl Guard {
    pub fn new(port: u16, hosts: &[String]) -> Guard {
        Guard { port, hosts: hosts.iter().map(|h| h.trim().to_ascii_lowercase()).collect() }
    }

    /// Whether `authority` (a `Host` value, or an origin's `host[:port]`) names this server:
    /// `localhost` or an IP address at the port served (a name an attacker controls cannot be
    /// an address), or a name the operator allowed.
    pub fn allows(&self, authority: &str) -> bool {
        let a = authority.to_ascii_lowercase();
        if self.hosts.contains(&a) {
            return true;
        }
        let Some((name, port)) = split(&a) else { return false };
        let at_port = port.map_or(self.port == 80, |p| p == self.port);
        let local = name == "localhost" || name.parse::<IpAddr>().is_ok();
        at_port && (local || self.hosts.iter().any(|h| h == name))
    }

    /// Why a request is refused, if it is.
    pub fn check(&self, method: &Method, path: &str, headers: &HeaderMap) -> Result<(), ApiError> {
        let value = |name: header::HeaderName| text(headers, name);
        let Some(host) = value(header::HOST)? else {
            return Err(ApiError::bad("the request names no Host: send the address you opened"));
        };
        if !self.allows(host) {
            return Err(ApiError::forbidden(format!(
                "Host `{host}` is not this server's address: open it as localhost or by its IP address \
                 at port {} (to serve it under a name, start it with --allow-host NAME)",
                self.port
            )));
        }
        if let Some(origin) = value(header::ORIGIN)? {
            let own = origin_authority(origin).is_some_and(|a| a.eq_ignore_ascii_case(host) || self.named(a));
            if !own {
                return Err(ApiError::forbidden(format!(
                    "Origin `{origin}` is not this server: a page of another site may not use this table"
                )));
            }
        }
        // A browser says where a request comes from even when it sends no Origin (a
        // cross-site GET): the API answers only its own page, or an address typed in.
        if path.starts_with("/api/") {
            if let Some(site) = value(header::HeaderName::from_static("sec-fetch-site"))? {
                if !matches!(site, "same-origin" | "none") {
                    return Err(ApiError::forbidden(format!(
                        "a request from another site's page ({site}) may not use this table's API"
                    )));
                }
            }
        }
        if method == Method::POST {
            let json = value(header::CONTENT_TYPE)?.is_some_and(|t| {
                t.split(';').next().is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
            });
            if !json {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "a request that changes something is sent as JSON (Content-Type: application/json)",
                ));
            }
        }
        Ok(())
    }

    /// Whether an origin's authority is one the operator named.
    fn named(&self, authority: &str) -> bool {
        let a = authority.to_ascii_lowercase();
        self.hosts.contains(&a)
    }
}

/// A header's value as text, if sent.
fn text(headers: &HeaderMap, name: header::HeaderName) -> Result<Option<&str>, ApiError> {
    headers
        .get(&name)
        .map(|v| v.to_str().map_err(|_| ApiError::bad(format!("the {name} header is not text"))))
        .transpose()
}

/// `name` and port of `host[:port]` (`[v6]:port` too); `None` if it does not read.
fn split(authority: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (v6, after) = rest.split_once(']')?;
            v6.parse::<std::net::Ipv6Addr>().ok()?;
            match after {
                "" => (v6, None),
                p => (v6, Some(p.strip_prefix(':')?)),
            }
        }
        None => match authority.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (authority, None),
        },
    };
    if name.is_empty() || name.contains(':') && !authority.starts_with('[') {
        return None;
    }
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((name, port))
}

/// The `host[:port]` of an `http` or `https` origin; `None` for `null` or anything else.
fn origin_authority(origin: &str) -> Option<&str> {
    let rest = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://"))?;
    (!rest.is_empty() && !rest.contains(['/', '?', '#', '@'])).then_some(rest)
}

/// The middleware: refuses, before any route runs, what [`Guard::check`] refuses.
pub async fn guard(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match g.check(req.method(), req.uri().path(), req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_this_server() {
        let g = Guard::new(8163, &["Table.example.org".into(), "lan-box:9000".into()]);
        for ok in ["localhost:8163", "127.0.0.1:8163", "[::1]:8163", "192.168.1.7:8163", "LOCALHOST:8163"] {
            assert!(g.allows(ok), "{ok}");
        }
        for ok in ["table.example.org", "table.example.org:8163", "lan-box:9000"] {
            assert!(g.allows(ok), "{ok}");
        }
        for no in [
            "evil.example:8163",
            "localhost:80",
            "localhost",
            "127.0.0.1",
            "127.0.0.1:8164",
            "lan-box:8163",
            "table.example.org:9",
            "127.0.0.1.nip.io:8163",
            "[::1",
            "::1:8163",
            ":8163",
            "localhost:x",
            "",
        ] {
            assert!(!g.allows(no), "{no}");
        }
        assert_eq!(origin_authority("http://127.0.0.1:8163"), Some("127.0.0.1:8163"));
        assert_eq!(origin_authority("null"), None);
        assert_eq!(origin_authority("http://a@127.0.0.1:8163"), None);
        assert_eq!(origin_authority("file://"), None);
    }
}
