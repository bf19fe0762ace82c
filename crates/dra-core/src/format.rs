//! Name formats of the Kubernetes API (DNS labels, qualified names, semver),
//! as `k8s.io/apimachinery/pkg/util/validation` and the DRA validation define them.

pub const DNS_LABEL_MAX: usize = 63;
pub const DNS_SUBDOMAIN_MAX: usize = 253;
pub const C_IDENTIFIER_MAX: usize = 32;
pub const DRIVER_NAME_MAX: usize = 63;

fn label_chars_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

/// RFC 1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 characters.
pub fn is_dns_label(s: &str) -> bool {
    s.len() <= DNS_LABEL_MAX && label_chars_ok(s)
}

/// RFC 1123 subdomain: labels joined by dots, at most 253 characters.
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= DNS_SUBDOMAIN_MAX && s.split('.').all(label_chars_ok)
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

/// What is wrong with a qualified attribute or capacity name, or `None`.
/// Names with more than one `/` pass, as in every released apiserver.
pub fn qualified_name_problem(name: &str) -> Option<(crate::diag::ErrorType, String)> {
    use crate::diag::ErrorType::*;
    let ident = |id: &str| -> Option<(crate::diag::ErrorType, String)> {
        if id.is_empty() {
            Some((Invalid, "the name must not be empty".into()))
        } else if id.len() > C_IDENTIFIER_MAX {
            Some((
                TooLong,
                format!("identifier {id:?} is longer than {C_IDENTIFIER_MAX} characters"),
            ))
        } else if !is_c_identifier(id) {
            Some((
                Invalid,
                format!("{id:?} is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"),
            ))
        } else {
            None
        }
    };
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => ident(id),
        [domain, id] => {
            if domain.is_empty() {
                return Some((Invalid, "the domain must not be empty".into()));
            }
            match driver_name_problem(domain) {
                Some(DriverNameProblem::TooLong) => {
                    return Some((
                        TooLong,
                        format!("domain {domain:?} is longer than {DRIVER_NAME_MAX} characters"),
                    ))
                }
                Some(_) => {
                    return Some((Invalid, format!("domain {domain:?} is not a DNS subdomain")))
                }
                None => {}
            }
            ident(id)
        }
        _ => None,
    }
}

/// `qualified_name_problem` as Kubernetes 1.34's hand-written
/// `validateQualifiedName` reported it: an empty name or part is Required, a
/// bad identifier TypeInvalid (`validateCIdentifier`), and the domain and
/// the identifier are both checked.
pub fn qualified_name_problems_1_34(name: &str) -> Vec<(crate::diag::ErrorType, String)> {
    use crate::diag::ErrorType::*;
    let mut out = Vec::new();
    if name.is_empty() {
        out.push((Required, "name required".to_owned()));
        return out;
    }
    let ident = |id: &str, out: &mut Vec<(crate::diag::ErrorType, String)>| {
        if id.len() > C_IDENTIFIER_MAX {
            out.push((
                TooLong,
                format!("identifier {id:?} is longer than {C_IDENTIFIER_MAX} characters"),
            ));
        }
        if !is_c_identifier(id) {
            out.push((
                TypeInvalid,
                format!("{id:?} is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"),
            ));
        }
    };
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        [id] => ident(id, &mut out),
        [domain, id] => {
            if domain.is_empty() {
                out.push((Required, "the domain must not be empty".into()));
            } else {
                match driver_name_problem(domain) {
                    Some(DriverNameProblem::TooLong) => out.push((
                        TooLong,
                        format!("domain {domain:?} is longer than {DRIVER_NAME_MAX} characters"),
                    )),
                    Some(_) => {
                        out.push((Invalid, format!("domain {domain:?} is not a DNS subdomain")))
                    }
                    None => {}
                }
            }
            if id.is_empty() {
                out.push((Required, "the name must not be empty".into()));
            } else {
                ident(id, &mut out);
            }
        }
        _ => {}
    }
    out
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
        assert!(qualified_name_problem("gpu.example.com/model").is_none());
        assert!(qualified_name_problem("a/b/c").is_none());
        assert!(qualified_name_problem("Bad_Domain/model").is_some());
        assert!(qualified_name_problem("/model").is_some());
    }
}
