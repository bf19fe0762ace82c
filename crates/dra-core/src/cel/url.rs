//! Go's `net/url` as the Kubernetes URL library calls it (library/urls.go:
//! `url.ParseRequestURI` to check the text, then `url.Parse` for the value;
//! `Hostname`, `Port`, `EscapedPath`, `Query`): what it accepts, what it
//! reads, and its error texts. Read in golang/go src/net/url/url.go.

use std::sync::Arc;

use super::go_fmt::quote;

/// The parts of a URL the Kubernetes URL library exposes.
#[derive(Debug, PartialEq, Eq)]
pub struct Url {
    /// The text given to `url()`.
    pub text: String,
    /// Lower-cased, as parse lower-cases it.
    pub scheme: String,
    /// host[:port], unescaped; an IPv6 literal in brackets.
    pub host: String,
    path: String,
    raw_path: String,
    pub raw_query: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// `url.ParseRequestURI(s)`: an error as url.Error prints it
/// (`parse "<text>": <cause>`).
pub fn parse_request_uri(s: &str) -> Result<(), String> {
    parse(s, true)
        .map(|_| ())
        .map_err(|e| format!("parse {}: {e}", quote(s)))
}

/// `url(s)`: ParseRequestURI must accept the text, then Parse reads it
/// (Parse drops a `#fragment` that ParseRequestURI leaves in the query).
pub fn parse_url(s: &str) -> Result<Arc<Url>, String> {
    const WORDS: &str = "URL parse error during conversion from string";
    parse_request_uri(s).map_err(|e| format!("{WORDS}: {e}"))?;
    let (before, fragment) = s.split_once('#').unwrap_or((s, ""));
    let mut url =
        parse(before, false).map_err(|e| format!("{WORDS}: parse {}: {e}", quote(before)))?;
    if !fragment.is_empty() {
        unescape(fragment, Mode::Fragment)
            .map_err(|e| format!("{WORDS}: parse {}: {e}", quote(s)))?;
    }
    url.text = s.to_owned();
    Ok(Arc::new(url))
}

/// url.go `parse`.
fn parse(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut url = Url {
        text: raw.to_owned(),
        scheme: String::new(),
        host: String::new(),
        path: String::new(),
        raw_path: String::new(),
        raw_query: String::new(),
    };
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.raw_query = q.to_owned();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path is opaque.
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        url.host = parse_authority(authority)?;
        rest = path;
    }
    url.path = unescape(rest, Mode::Path)?;
    if escape(&url.path, Mode::Path) != rest {
        url.raw_path = rest.to_owned();
    }
    Ok(url)
}

/// getScheme: `[a-zA-Z][a-zA-Z0-9+-.]*` before a colon, or none.
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// parseAuthority: the host (user information checked and dropped).
fn parse_authority(authority: &str) -> Result<String, String> {
    let (user, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let host = parse_host(host)?;
    if let Some(user) = user {
        let valid = user
            .chars()
            .all(|r| r.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(r));
        if !valid {
            return Err("net/url: invalid userinfo".into());
        }
        let (name, password) = user.split_once(':').unwrap_or((user, ""));
        unescape(name, Mode::UserPassword)?;
        unescape(password, Mode::UserPassword)?;
    }
    Ok(host)
}

/// parseHost: host[:port], an IPv6 literal in brackets (with an RFC 6874
/// zone after `%25`).
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            return Ok(unescape(&host[..zone], Mode::Host)?
                + &unescape(&host[zone..i], Mode::Zone)?
                + &unescape(&host[i..], Mode::Host)?);
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
    }
    unescape(host, Mode::Host)
}

/// validOptionalPort: empty, or a colon and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// shouldEscape.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

/// unescape: `%XX` decoded, with its checks per mode; `+` is a space in
/// a query component.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    let end = (i + 3).min(b.len());
                    return Err(escape_error(&b[i..end]));
                }
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && &b[i..i + 3] != b"%25" {
                    return Err(escape_error(&b[i..i + 3]));
                }
                if mode == Mode::Zone {
                    let v = unhex(b[i + 1]) << 4 | unhex(b[i + 2]);
                    if &b[i..i + 3] != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(&b[i..i + 3]));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&(c as char).to_string())
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
                i += 3;
                continue;
            }
            b'+' if mode == Mode::QueryComponent => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// EscapeError: the bad escape, at most three bytes, strconv-quoted.
fn escape_error(bytes: &[u8]) -> String {
    format!(
        "invalid URL escape {}",
        quote(&String::from_utf8_lossy(bytes))
    )
}

/// escape, for the path.
fn escape(s: &str, mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(c, mode) {
            out.push('%');
            out.push_str(&format!("{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

impl Url {
    /// URL.Hostname: the host without a valid port, brackets removed.
    pub fn hostname(&self) -> &str {
        split_host_port(&self.host).0
    }

    /// URL.Port: the digits after the last colon, if they make a port.
    pub fn port(&self) -> &str {
        split_host_port(&self.host).1
    }

    /// URL.EscapedPath: the raw path when it is a valid escaping of the
    /// path, else the path escaped.
    pub fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }

    /// URL.Query (ParseQuery, errors dropped): keys in the order met,
    /// values unescaped; a pair with a semicolon or a bad escape skipped.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for pair in self.raw_query.split('&') {
            if pair.contains(';') || pair.is_empty() {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (
                unescape(k, Mode::QueryComponent),
                unescape(v, Mode::QueryComponent),
            ) else {
                continue;
            };
            match out.iter_mut().find(|(x, _)| *x == k) {
                Some((_, vs)) => vs.push(v),
                None => out.push((k, vec![v])),
            }
        }
        out
    }
}

/// splitHostPort (url.go, not net's): a port only when numeric.
fn split_host_port(host_port: &str) -> (&str, &str) {
    let (mut host, mut port) = (host_port, "");
    if let Some(colon) = host.rfind(':') {
        if valid_optional_port(&host[colon..]) {
            (host, port) = (&host_port[..colon], &host_port[colon + 1..]);
        }
    }
    if host.len() >= 2 && host.starts_with('[') && host.ends_with(']') {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

/// validEncoded (path mode): nothing that would need escaping but the
/// sub-delimiters, `:`, `@`, brackets and `%`.
fn valid_encoded(s: &str) -> bool {
    s.bytes()
        .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, Mode::Path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// url.go's errors, as url.Error prints them and urls.go wraps them.
    #[test]
    fn errors_as_net_url_words_them() {
        let words = "URL parse error during conversion from string: parse";
        for (text, cause) in [
            ("foo", "invalid URI for request"),
            ("", "empty url"),
            (":x", "missing protocol scheme"),
            ("https://a b/", r#"invalid character " " in host name"#),
            ("https://a:x/", r#"invalid port ":x" after host"#),
            ("https://[::1/", "missing ']' in host"),
            ("https://a/%zz", r#"invalid URL escape "%zz""#),
            ("https://a/%4", r#"invalid URL escape "%4""#),
            ("https://u^p@a/", "net/url: invalid userinfo"),
            (
                "https://a/\u{7f}",
                "net/url: invalid control character in URL",
            ),
        ] {
            let want = format!("{words} {}: {cause}", quote(text));
            assert_eq!(parse_url(text).map(|_| ()), Err(want), "{text:?}");
        }
    }

    /// What the library's getters read: the lower-cased scheme, the
    /// unescaped host, Hostname and Port by url.go's splitHostPort, the
    /// raw path when it is a valid escaping, ParseQuery without errors
    /// (a pair with a semicolon skipped); the fragment is not the query.
    #[test]
    fn getters_as_net_url_reads_them() {
        let u = parse_url("HTTPS://Example.com:8080/a%20b;c?x=1&y=a+b&x=2&z;=3#frag").unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.host, "Example.com:8080");
        assert_eq!((u.hostname(), u.port()), ("Example.com", "8080"));
        assert_eq!(u.escaped_path(), "/a%20b;c");
        assert_eq!(
            u.query(),
            vec![
                ("x".to_string(), vec!["1".to_string(), "2".to_string()]),
                ("y".to_string(), vec!["a b".to_string()]),
            ]
        );
        let v6 = parse_url("https://[fe80::1%25en0]:80/").unwrap();
        assert_eq!((v6.hostname(), v6.port()), ("fe80::1%en0", "80"));
        let spaced = parse_url("https://e/a b").unwrap();
        assert_eq!(spaced.escaped_path(), "/a%20b");
        let opaque = parse_url("mailto:x@y").unwrap();
        assert_eq!(
            (opaque.scheme.as_str(), opaque.host.as_str()),
            ("mailto", "")
        );
        assert_eq!(parse_request_uri("/a?b"), Ok(()));
    }
}
