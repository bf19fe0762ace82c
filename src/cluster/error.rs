//! Cluster failures as one paragraph each, saying what to do.

use std::fmt;
use std::time::Duration;

use super::Request;

/// A failed read: which request, and how it failed.
#[derive(Debug)]
pub struct ReadError {
    pub request: Request,
    pub kind: ReadErrorKind,
}

#[derive(Debug)]
pub enum ReadErrorKind {
    /// The apiserver answered with an error status (a `Status` object, usually).
    Status {
        code: u16,
        reason: String,
        message: String,
    },
    Timeout(Duration),
    Tls(String),
    Unreachable(String),
    Auth(String),
    Transport(String),
    Decode(String),
}

/// Server text with anything that looks like a credential cut out: the value
/// after `Bearer`/`Basic`, and after `token`/`password`/`authorization` keys.
pub fn redact(text: &str) -> String {
    let text = &*without_url_credentials(text);
    let mut out = String::with_capacity(text.len());
    let mut hide_next = false;
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if hide_next && !word.is_empty() {
            out.push_str("<redacted>");
            // `Authorization: Bearer TOKEN`: the scheme, then the token.
            hide_next = matches!(word.to_ascii_lowercase().as_str(), "bearer" | "basic");
            continue;
        }
        let lower = word.to_ascii_lowercase();
        let key = lower.trim_end_matches([':', '=', '"', '\'']);
        if matches!(
            key,
            "bearer" | "basic" | "authorization" | "token" | "password" | "\"token" | "\"password"
        ) {
            out.push_str(word);
            hide_next = true;
        } else if let Some((k, _)) = lower.split_once(['=', ':']).filter(|(k, v)| {
            matches!(
                k.trim_matches('"'),
                "token" | "password" | "access_token" | "authorization"
            ) && !v.is_empty()
        }) {
            out.push_str(&word[..k.len() + 1]);
            out.push_str("<redacted>");
        } else {
            out.push_str(word);
        }
    }
    out
}

/// Every `scheme://user:password@host` in `text` without its user and
/// password (a proxy URL from a kubeconfig or `HTTPS_PROXY` quoted in an
/// error).
pub fn without_url_credentials(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("://") || !text.contains('@') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c == '/' || c.is_whitespace() || "\"'<>)".contains(c))
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(i) => out.push_str(&authority[i + 1..]),
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

impl ReadError {
    pub fn code(&self) -> Option<u16> {
        match &self.kind {
            ReadErrorKind::Status { code, .. } => Some(*code),
            _ => None,
        }
    }
    pub fn status(req: &super::Request, code: u16, body: &[u8]) -> Self {
        #[derive(serde::Deserialize)]
        struct Status {
            #[serde(default)]
            reason: String,
            #[serde(default)]
            message: String,
        }
        let (reason, message) = match serde_json::from_slice::<Status>(body) {
            Ok(s) => (s.reason, redact(&s.message)),
            // A non-Status body of a refused request may echo the request
            // (its Authorization header): not shown.
            Err(_) if matches!(code, 401 | 403) => (String::new(), String::new()),
            Err(_) => {
                let text = String::from_utf8_lossy(body);
                (
                    String::new(),
                    redact(text.chars().take(300).collect::<String>().trim()),
                )
            }
        };
        ReadError {
            request: req.clone(),
            kind: ReadErrorKind::Status {
                code,
                reason,
                message,
            },
        }
    }
    pub fn timeout(req: &Request, t: Duration) -> Self {
        ReadError {
            request: req.clone(),
            kind: ReadErrorKind::Timeout(t),
        }
    }
    pub fn transport(req: &Request, msg: String) -> Self {
        ReadError {
            request: req.clone(),
            kind: ReadErrorKind::Transport(msg),
        }
    }
    pub fn decode(req: &Request, msg: String) -> Self {
        ReadError {
            request: req.clone(),
            kind: ReadErrorKind::Decode(msg),
        }
    }
    /// Sorts a client error by its cause chain: TLS, unreachable, auth.
    pub fn from_kube(req: &Request, e: &kube::Error) -> Self {
        let mut chain = vec![e.to_string()];
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            chain.push(s.to_string());
            source = s.source();
        }
        let all = chain.join(": ");
        let lower = all.to_ascii_lowercase();
        let kind = if matches!(e, kube::Error::Auth(_)) {
            ReadErrorKind::Auth(all)
        } else if lower.contains("certificate")
            || lower.contains("tls")
            || lower.contains("handshake")
        {
            ReadErrorKind::Tls(chain.last().cloned().unwrap_or(all))
        } else if lower.contains("connection refused")
            || lower.contains("dns error")
            || lower.contains("no route")
            || lower.contains("failed to lookup")
            || lower.contains("connect")
        {
            ReadErrorKind::Unreachable(chain.last().cloned().unwrap_or(all))
        } else if lower.contains("timed out") || lower.contains("elapsed") {
            ReadErrorKind::Timeout(Duration::ZERO)
        } else {
            ReadErrorKind::Transport(all)
        };
        ReadError {
            request: req.clone(),
            kind,
        }
    }
    /// A few words for a warning: "403 Forbidden".
    pub fn short(&self) -> String {
        match &self.kind {
            ReadErrorKind::Status { code, reason, .. } => {
                let reason = if reason.is_empty() {
                    http::StatusCode::from_u16(*code)
                        .ok()
                        .and_then(|c| c.canonical_reason())
                        .unwrap_or("")
                        .to_owned()
                } else {
                    reason.clone()
                };
                format!("{code} {reason}")
            }
            ReadErrorKind::Timeout(_) => "timed out".into(),
            ReadErrorKind::Tls(_) => "TLS failure".into(),
            ReadErrorKind::Unreachable(_) => "unreachable".into(),
            ReadErrorKind::Auth(_) => "credentials failed".into(),
            ReadErrorKind::Transport(_) => "transport error".into(),
            ReadErrorKind::Decode(_) => "unreadable answer".into(),
        }
    }
    fn target(&self) -> String {
        let r = &self.request;
        match &r.namespace {
            Some(ns) => format!("{} {} in namespace {ns}", r.verb, r.what),
            None if r.what.starts_with('/') => format!("{} {}", r.verb, r.what),
            None => format!("{} {}", r.verb, r.what),
        }
    }
}

/// Why a command could not use the cluster (exit code 2).
#[derive(Debug)]
pub enum ClusterError {
    Config(String),
    Read(ReadError),
    /// The cluster serves no `resource.k8s.io/v1`.
    NoDra {
        git_version: String,
    },
    Unsupported(String),
    NotFound(String),
}

impl From<ReadError> for ClusterError {
    fn from(e: ReadError) -> Self {
        ClusterError::Read(e)
    }
}

/// The user named in a Forbidden message (`User "alice" cannot list ...`).
fn user_of(message: &str) -> Option<&str> {
    let rest = &message[message.find("User \"")? + 6..];
    Some(&rest[..rest.find('"')?])
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reader = || {
            let gates = dra_core::gates::FeatureGates::defaults(dra_core::gates::Version::V1_37);
            indent(&dra_core::rbac::least_privilege(
                dra_core::rbac::Persona::KubectlDra,
                &gates,
                "dra.example.com",
            ))
        };
        match self {
            ClusterError::Config(m) => write!(f, "cannot configure the connection: {m}"),
            ClusterError::Unsupported(m) => write!(f, "{m}"),
            ClusterError::NotFound(m) => write!(f, "{m}"),
            ClusterError::NoDra { git_version } => write!(
                f,
                "the cluster (Kubernetes {git_version}) does not serve resource.k8s.io/v1: it is older than 1.34, or DynamicResourceAllocation is off. kubectl-dra reads DRA v1 objects only; check files offline with -f and --kubernetes-version"
            ),
            ClusterError::Read(e) => {
                let target = e.target();
                match &e.kind {
                    ReadErrorKind::Status { code: 401, message, .. } => write!(
                        f,
                        "the cluster did not accept the credentials to {target} (401 Unauthorized{}). Log in again or check the user of the kubeconfig context (--context, --user).",
                        if message.is_empty() { String::new() } else { format!(": {message}") }
                    ),
                    ReadErrorKind::Status { code: 403, message, .. } => {
                        let who = user_of(message).map(|u| format!(" for user \"{u}\"")).unwrap_or_default();
                        write!(
                            f,
                            "the cluster refused to {target} (403 Forbidden{who}). kubectl-dra only reads; grant it with:\n\n{}",
                            reader()
                        )
                    }
                    ReadErrorKind::Status { code: 404, .. } => write!(
                        f,
                        "the cluster does not know the path to {target} (404 Not Found): the API may not be served by this version or is switched off"
                    ),
                    ReadErrorKind::Status { code, reason, message } if *code >= 500 => write!(
                        f,
                        "the cluster failed to {target} ({code} {reason}{}). The apiserver or its storage is in trouble; try again, or look at the apiserver's logs.",
                        if message.is_empty() { String::new() } else { format!(": {message}") }
                    ),
                    ReadErrorKind::Status { code, reason, message } => write!(
                        f,
                        "the cluster answered {code} {reason} to {target}{}",
                        if message.is_empty() { String::new() } else { format!(": {message}") }
                    ),
                    ReadErrorKind::Timeout(t) => write!(
                        f,
                        "no answer to {target} within {}: the cluster is slow or unreachable. Raise --request-timeout, or check the network path to the apiserver.",
                        if t.is_zero() { "the request timeout".to_owned() } else { format!("{}s (--request-timeout)", t.as_secs_f64()) }
                    ),
                    ReadErrorKind::Tls(m) => write!(
                        f,
                        "TLS failed while trying to {target}: {m}. The server certificate is not signed by the kubeconfig's certificate-authority, or names another host; check the cluster entry of the kubeconfig."
                    ),
                    ReadErrorKind::Unreachable(m) => write!(
                        f,
                        "cannot reach the apiserver to {target}: {m}. Check the server address of the kubeconfig context and that the cluster is up."
                    ),
                    ReadErrorKind::Auth(m) => write!(
                        f,
                        "could not get credentials to {target}: {m}. Check the user's exec plugin or token in the kubeconfig."
                    ),
                    ReadErrorKind::Transport(m) => write!(f, "the request to {target} failed: {m}"),
                    ReadErrorKind::Decode(m) => write!(f, "the cluster's answer to {target} is not what Kubernetes sends: {m}"),
                }
            }
        }
    }
}

#[cfg(test)]
mod redact_tests {
    use super::redact;

    #[test]
    fn credentials_are_cut_out() {
        assert_eq!(
            redact("header Authorization: Bearer abc.def was refused"),
            "header Authorization: <redacted> <redacted> was refused"
        );
        assert_eq!(redact("token=s3cr3t rest"), "token=<redacted> rest");
        assert_eq!(
            redact("proxyconnect tcp: dial http://bob:hunter2@proxy.corp:3128/x failed"),
            "proxyconnect tcp: dial http://proxy.corp:3128/x failed"
        );
        assert_eq!(redact("\"socks5://u:p@h:1\""), "\"socks5://h:1\"");
        assert_eq!(
            redact("forbidden: user \"alice\" cannot list"),
            "forbidden: user \"alice\" cannot list"
        );
    }
}
