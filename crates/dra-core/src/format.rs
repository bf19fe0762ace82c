//! Name formats of the Kubernetes API (DNS labels, qualified names, semver),
//! as `k8s.io/apimachinery/pkg/util/validation` and the DRA validation define them.

pub const DNS_LABEL_MAX: usize = 63;
pub const DNS_SUBDOMAIN_MAX: usize = 253;
pub const C_IDENTIFIER_MAX: usize = 32;
pub const DRIVER_NAME_MAX: usize = 63;

/// RFC 1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 characters.
pub fn is_dns_label(s: &str) -> bool {
    s.len() <= DNS_LABEL_MAX && crate::name_errors::label_regex(s)
}

/// RFC 1123 subdomain: labels joined by dots, at most 253 characters.
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= DNS_SUBDOMAIN_MAX && s.split('.').all(crate::name_errors::label_regex)
}

/// A generateName as `NameIsDNSSubdomain`/`NameIsDNSLabel(name,
/// prefix=true)` take it: `maskTrailingDash` replaces a final `-` and the
/// character before it by one letter (a name of one character is left as
/// it is). `None` for non-ASCII text, which no DNS name accepts.
fn mask_trailing_dash(s: &str) -> Option<String> {
    if !s.is_ascii() {
        return None;
    }
    Some(if s.len() > 1 && s.ends_with('-') {
        format!("{}a", &s[..s.len() - 2])
    } else {
        s.to_owned()
    })
}

/// `maskTrailingDash` as Go does it, on bytes: a character cut in two
/// becomes U+FFFD, which no DNS name accepts either.
pub fn masked_prefix(s: &str) -> String {
    let b = s.as_bytes();
    if b.len() > 1 && b[b.len() - 1] == b'-' {
        format!("{}a", String::from_utf8_lossy(&b[..b.len() - 2]))
    } else {
        s.to_owned()
    }
}

/// A generateName that `NameIsDNSSubdomain(prefix=true)` accepts.
pub fn is_dns_subdomain_prefix(s: &str) -> bool {
    mask_trailing_dash(s).is_some_and(|m| is_dns_subdomain(&m))
}

/// A generateName that `NameIsDNSLabel(prefix=true)` accepts.
pub fn is_dns_label_prefix(s: &str) -> bool {
    mask_trailing_dash(s).is_some_and(|m| is_dns_label(&m))
}

/// `path.IsValidPathSegmentName` (RBAC names): not `.` or `..`, and no
/// `/` or `%`; a prefix (`IsValidPathSegmentPrefix`) only the latter.
pub fn is_path_segment_name(s: &str, prefix: bool) -> bool {
    !s.contains(['/', '%']) && (prefix || (s != "." && s != ".."))
}

/// What `SimpleNameGenerator.GenerateName` makes of a generateName: its
/// first 58 bytes and 5 random lower-case letters or digits (any five give
/// the same verdict). Go cuts bytes: a character cut in two becomes U+FFFD
/// here, which no DNS name accepts and which is neither `/` nor `%`.
pub fn generated_name(base: &str) -> String {
    const MAX_BASE: usize = 58;
    let head = &base.as_bytes()[..base.len().min(MAX_BASE)];
    format!("{}xxxxx", String::from_utf8_lossy(head))
}

/// C identifier: `[A-Za-z_][A-Za-z0-9_]*` (length checked separately).
pub fn is_c_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The name part of a qualified name: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, at most 63.
pub fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// A label key (`IsQualifiedName`): optional DNS-subdomain prefix and `/`, then a name.
pub fn is_label_key(s: &str) -> bool {
    match s.split_once('/') {
        None => is_qualified_name_part(s),
        Some((prefix, name)) => {
            !prefix.is_empty() && is_dns_subdomain(prefix) && is_qualified_name_part(name)
        }
    }
}

/// A label value: empty, or a qualified-name part.
pub fn is_label_value(s: &str) -> bool {
    s.is_empty() || is_qualified_name_part(s)
}

/// Semantic version 2.0.0, strict (no leading `v`, no leading zeros).
pub fn is_semver(s: &str) -> bool {
    let (core, build) = match s.split_once('+') {
        Some((c, b)) => (c, Some(b)),
        None => (s, None),
    };
    let (core, pre) = match core.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (core, None),
    };
    let numeric = |p: &str| {
        !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()) && (p == "0" || !p.starts_with('0'))
    };
    let ident =
        |p: &str| !p.is_empty() && p.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() != 3 || !parts.iter().all(|p| numeric(p)) {
        return false;
    }
    if let Some(pre) = pre {
        let ok = pre
            .split('.')
            .all(|p| ident(p) && (!p.bytes().all(|c| c.is_ascii_digit()) || numeric(p)));
        if !ok {
            return false;
        }
    }
    if let Some(build) = build {
        if !build.split('.').all(ident) {
            return false;
        }
    }
    true
}

/// What is wrong with a driver name (DRA `validateDriverName`), or `None`.
pub fn driver_name_problem(s: &str) -> Option<DriverNameProblem> {
    if s.is_empty() {
        return Some(DriverNameProblem::Empty);
    }
    if s.len() > DRIVER_NAME_MAX {
        return Some(DriverNameProblem::TooLong);
    }
    if !is_dns_subdomain(&s.to_ascii_lowercase()) {
        return Some(DriverNameProblem::NotSubdomain);
    }
    None
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverNameProblem {
    Empty,
    TooLong,
    NotSubdomain,
}

/// `validateDriverName` past its Required check: TooLong past 63
/// characters, and every complaint of `IsDNS1123Subdomain` on the
/// lower-cased name (too long for a subdomain, not one) as Invalid; both
/// can be reported.
pub fn driver_name_errors(s: &str) -> Vec<(crate::diag::ErrorType, String)> {
    use crate::diag::ErrorType::*;
    let mut out = Vec::new();
    if s.len() > DRIVER_NAME_MAX {
        out.push((
            TooLong,
            format!("may not be more than {DRIVER_NAME_MAX} bytes"),
        ));
    }
    let lower = s.to_ascii_lowercase();
    out.extend(
        crate::name_errors::dns1123_subdomain(&lower)
            .into_iter()
            .map(|m| (Invalid, m)),
    );
    out
}

/// `validateCIdentifier`: TooLong past 32 characters, Invalid when not a C
/// identifier (an empty one is not); both can be reported.
fn c_identifier_errors(id: &str) -> Vec<(crate::diag::ErrorType, String)> {
    use crate::diag::ErrorType::*;
    let mut out = Vec::new();
    if id.len() > C_IDENTIFIER_MAX {
        out.push((
            TooLong,
            format!("may not be more than {C_IDENTIFIER_MAX} bytes"),
        ));
    }
    out.extend(
        crate::name_errors::c_identifier(id)
            .into_iter()
            .map(|m| (Invalid, m)),
    );
    out
}

/// `validateQualifiedName` of an attribute or capacity name (and of the
/// constraint attributes) as each release words it:
/// - 1.34 (C34 ≈49.8k): an empty name is Required ("name required") and
///   nothing else; an empty domain or identifier is Required;
/// - 1.35, 1.36 (C35 ≈51.5k): the same checks Invalid ("" is no C identifier);
/// - 1.37 (C37 ≈74.5k): also Invalid "must not contain more than one slash"
///   (every earlier release passes `a/b/c` silently: kubernetes/kubernetes#141869).
pub fn qualified_name_errors(
    v: crate::gates::Version,
    name: &str,
) -> Vec<(crate::diag::ErrorType, String)> {
    use crate::diag::ErrorType::*;
    let old = v < crate::gates::Version::V1_35;
    let empty = if old { Required } else { Invalid };
    if old && name.is_empty() {
        return vec![(Required, "name required".to_owned())];
    }
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => c_identifier_errors(id),
        [domain, id] => {
            let mut out = if domain.is_empty() {
                vec![(empty, "the domain must not be empty".to_owned())]
            } else {
                driver_name_errors(domain)
            };
            if id.is_empty() {
                out.push((empty, "the name must not be empty".to_owned()));
            } else {
                out.extend(c_identifier_errors(id));
            }
            out
        }
        _ if v >= crate::gates::Version::V1_37 => {
            vec![(Invalid, "must not contain more than one slash".to_owned())]
        }
        _ => Vec::new(),
    }
}

/// `validateFullyQualifiedName` (matchAttribute, distinctAttribute): the
/// qualified-name errors, then the missing domain: 1.34 "must include a
/// domain", not for an empty name; from 1.35 for every name without `/`.
pub fn fully_qualified_name_errors(
    v: crate::gates::Version,
    name: &str,
) -> Vec<(crate::diag::ErrorType, String)> {
    let mut out = qualified_name_errors(v, name);
    if v < crate::gates::Version::V1_35 {
        if !name.is_empty() && !name.contains('/') {
            out.push((
                crate::diag::ErrorType::Invalid,
                "must include a domain".to_owned(),
            ));
        }
    } else if !name.contains('/') {
        out.push((
            crate::diag::ErrorType::Invalid,
            "a fully qualified name must be a domain and a name separated by a slash".to_owned(),
        ));
    }
    out
}

/// A map key in a field path, shortened in the middle as the apiserver's
/// `truncateIfTooLong` does (never below 16 characters).
pub fn truncated_key(key: &str, max: usize) -> String {
    let max = max.max(16);
    if key.len() <= max || !key.is_ascii() {
        return key.to_owned();
    }
    let remaining = max - 3;
    format!(
        "{}...{}",
        &key[..remaining.div_ceil(2)],
        &key[key.len() - remaining / 2..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert!(is_dns_label("gpu-0"));
        assert!(!is_dns_label("gpu.0"));
        assert!(!is_dns_label("-a"));
        assert!(is_dns_subdomain("gpu.example.com"));
        assert!(!is_dns_subdomain("Gpu.example.com"));
        assert!(is_c_identifier("_a1"));
        assert!(!is_c_identifier("1a"));
        assert!(is_label_key("example.com/key"));
        assert!(!is_label_key("/key"));
        assert!(is_semver("1.2.3-rc.1+build.5"));
        assert!(!is_semver("v1.2.3"));
        assert!(!is_semver("1.02.3"));
        assert!(!is_semver("1.2"));
        use crate::gates::Version;
        let q = qualified_name_errors;
        assert!(q(Version::V1_37, "gpu.example.com/model").is_empty());
        assert!(q(Version::V1_36, "a/b/c").is_empty());
        assert_eq!(q(Version::V1_37, "a/b/c").len(), 1);
        assert!(!q(Version::V1_35, "Bad_Domain/model").is_empty());
        assert!(!q(Version::V1_35, "/model").is_empty());
    }

    /// `NameIsDNSSubdomain(prefix=true)` masks a trailing dash by replacing
    /// the last two characters with one letter (apimachinery generic.go).
    #[test]
    fn generate_name_prefixes() {
        assert!(is_dns_subdomain_prefix("gpu-"));
        assert!(is_dns_subdomain_prefix("a-"));
        assert!(!is_dns_subdomain_prefix("-"));
        assert!(!is_dns_subdomain_prefix("Gpu-"));
        assert!(is_dns_label_prefix("ml-"));
        assert!(!is_dns_label_prefix("ml.team-"));
        assert!(is_path_segment_name("system:aggregate-to-edit", false));
        assert!(!is_path_segment_name("..", false));
        assert!(is_path_segment_name("..", true));
        assert!(!is_path_segment_name("a%2F", true));
        // "a.-" masks to "aa": the prefix passes, the generated name not.
        assert!(is_dns_subdomain_prefix("a.-"));
        assert!(!is_dns_subdomain(&generated_name("a.-")));
        // 252 letters and '-' mask to 252 characters, within 253.
        let long = format!("{}-", "a".repeat(252));
        assert!(is_dns_subdomain_prefix(&long));
        assert!(is_dns_subdomain_prefix(&format!("a{long}")));
        assert!(!is_dns_subdomain_prefix(&format!("aa{long}")));
        assert_eq!(generated_name(&long).len(), 63);
        assert_eq!(generated_name("gpu-"), "gpu-xxxxx");
        // Go cuts bytes: a character across byte 58 leaves no valid name.
        assert!(!is_dns_subdomain(&generated_name(&format!(
            "{}é",
            "a".repeat(57)
        ))));
        assert!(is_dns_subdomain(&generated_name(&format!(
            "{}é",
            "a".repeat(58)
        ))));
        // A path segment (RBAC) may hold any other character, cut or not.
        assert!(is_path_segment_name(
            &generated_name(&format!("{}é", "a".repeat(57))),
            false
        ));
    }
}
