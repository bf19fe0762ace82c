//! apimachinery's name checks as they word their errors, per release: each
//! returns the messages the apiserver puts after `Invalid value: "...":`,
//! one field error per message, in upstream order.
//!
//! Read in kubernetes/apimachinery: `pkg/util/validation/validation.go`
//! (DNS labels and subdomains in every release; qualified names and label
//! values in 1.34) and, from 1.35, `pkg/api/validate/content/kube.go`, to
//! which `IsQualifiedName` and `IsValidLabelValue` moved: it says "a valid
//! label key" for "a qualified name", and its `MaxLenError` counts "bytes"
//! where util's counts "characters" (release-1.34, release-1.35,
//! release-1.36 and the 1.37 line agree within each package).
use crate::gates::Version;

const DNS_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QNAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QNAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

/// `RegexError`: the message, its examples and the pattern.
fn regex_error(msg: &str, pattern: &str, examples: &[&str]) -> String {
    let mut out = msg.to_owned();
    if examples.is_empty() {
        return format!("{out} (regex used for validation is '{pattern}')");
    }
    out.push_str(" (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{pattern}')"));
    out
}

/// Which `MaxLenError` counts: util's "characters" or content's "bytes".
#[derive(Clone, Copy)]
enum Unit {
    Characters,
    Bytes,
}

fn max_len_error(n: usize, unit: Unit) -> String {
    let unit = match unit {
        Unit::Characters => "characters",
        Unit::Bytes => "bytes",
    };
    format!("must be no more than {n} {unit}")
}

/// The content package (1.35+) or util (1.34) for qualified names and
/// label values.
fn label_unit(v: Version) -> Unit {
    if v < Version::V1_35 {
        Unit::Characters
    } else {
        Unit::Bytes
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, whatever the length.
pub(crate) fn label_regex(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

fn subdomain_regex(s: &str) -> bool {
    s.split('.').all(label_regex)
}

/// `IsDNS1123Label` (util, every release).
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63, Unit::Characters));
    }
    if !label_regex(s) {
        if subdomain_regex(s) {
            // A valid subdomain but no label: the length is checked, so dots.
            out.push("must not contain dots".to_owned());
        } else {
            out.push(regex_error(
                DNS_LABEL_MSG,
                DNS_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    out
}

/// `IsDNS1035Label` (util, every release): the CEL format library's
/// `dns1035Label`.
pub fn dns1035_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63, Unit::Characters));
    }
    let b = s.as_bytes();
    let shape = !b.is_empty()
        && b[0].is_ascii_lowercase()
        && b[b.len() - 1] != b'-'
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-');
    if !shape {
        out.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    out
}

fn dns1123_subdomain_in(s: &str, unit: Unit) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_error(253, unit));
    }
    if !subdomain_regex(s) {
        out.push(regex_error(
            DNS_SUBDOMAIN_MSG,
            DNS_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    out
}

/// `IsDNS1123Subdomain` (util, every release).
pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    dns1123_subdomain_in(s, Unit::Characters)
}

/// `validate.LongName` (DeviceClass names from 1.35): content's
/// `IsDNS1123Subdomain`, which counts bytes.
pub fn long_name(s: &str) -> Vec<String> {
    dns1123_subdomain_in(s, Unit::Bytes)
}

/// `validate.LongNameCaseless` (declarative validation's
/// `k8s-long-name-caseless`): content's `IsDNS1123SubdomainCaseless`, any
/// letter case, its example "Example.com" but the lower-case pattern in the
/// message (release-1.36 and v0.37.0-beta.0 `content/dns.go`).
pub fn long_name_caseless(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_error(253, Unit::Bytes));
    }
    // Go's `(?i)` folds case by Unicode's simple folding: the Kelvin sign
    // matches `k` and the long s matches `s`.
    let folded: String = s
        .chars()
        .map(|c| match c {
            '\u{212A}' => 'k',
            '\u{17F}' => 's',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    if !subdomain_regex(&folded) {
        out.push(regex_error(
            "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS_SUBDOMAIN_FMT,
            &["Example.com"],
        ));
    }
    out
}

/// `validate.ResourcePoolName` (declarative validation's
/// `k8s-resource-pool-name`, the same at release-1.36 and v0.37.0-beta.0):
/// whether the name is over 253 bytes (TooLong), then one Invalid message
/// per fault of each '/'-separated segment, each saying which segment.
pub fn resource_pool_name(s: &str) -> (bool, Vec<String>) {
    let mut out = Vec::new();
    for (i, part) in s.split('/').enumerate() {
        if part.is_empty() {
            out.push(format!("segment {i}: must not be empty"));
            continue;
        }
        out.extend(
            long_name(part)
                .into_iter()
                .map(|m| format!("segment {i}: {m}")),
        );
    }
    (s.len() > 253, out)
}

/// `IsQualifiedName`, the label-key format (`ValidateLabelName`, condition
/// types, finalizers, node-selector keys): util's in 1.34, content's
/// `IsLabelKey` from 1.35.
pub fn label_key(v: Version, s: &str) -> Vec<String> {
    let unit = label_unit(v);
    let mut out = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".to_owned());
            } else {
                out.extend(
                    dns1123_subdomain_in(prefix, unit)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            let what = match unit {
                Unit::Characters => "a qualified name",
                Unit::Bytes => "a valid label key",
            };
            out.push(format!(
                "{what} {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QNAME_MSG, QNAME_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return out;
        }
    };
    if name.is_empty() {
        out.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        out.push(format!("name part {}", max_len_error(63, unit)));
    }
    // The pattern itself has no length bound.
    if !qname_chars(name) {
        out.push(format!(
            "name part {}",
            regex_error(QNAME_MSG, QNAME_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    out
}

/// The qualified-name pattern without `is_qualified_name_part`'s length bound.
fn qname_chars(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsValidLabelValue`: util's in 1.34, content's `IsLabelValue` from 1.35.
pub fn label_value(v: Version, s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63, label_unit(v)));
    }
    if !(s.is_empty() || qname_chars(s)) {
        out.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    out
}

/// `IsCIdentifier` (the format only; callers bound the length).
pub fn c_identifier(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            C_IDENTIFIER_MSG,
            C_IDENTIFIER_FMT,
            &["my_name", "MY_NAME", "MyName"],
        )]
    }
}

/// metav1's `isValidConditionReason` (every release).
pub fn condition_reason(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && (b.len() == 1
            || b[1..]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b',' | b':'))
                && (b[b.len() - 1].is_ascii_alphanumeric() || b[b.len() - 1] == b'_'));
    if ok {
        return Vec::new();
    }
    vec![regex_error(
        "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
        "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
        &["my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"],
    )]
}

/// `path.IsValidPathSegmentName` (or, `prefix`, `IsValidPathSegmentPrefix`):
/// the names of RBAC objects.
pub fn path_segment(s: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        if let Some(bad) = [".", ".."].into_iter().find(|b| *b == s) {
            return vec![format!("may not be '{bad}'")];
        }
    }
    ["/", "%"]
        .into_iter()
        .filter(|c| s.contains(c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// content's `IsDNS1123SubdomainCaseless` and strfmt's `ResourcePoolName`
    /// (apimachinery release-1.36 and v0.37.0-beta.0).
    #[test]
    fn declarative_formats() {
        assert!(long_name_caseless("GPU.Example.com").is_empty());
        // Go's (?i) folds the Kelvin sign to k.
        assert!(long_name_caseless("\u{212A}.example.com").is_empty());
        assert_eq!(
            long_name_caseless("gpu_example"),
            ["an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(
            long_name_caseless(&"a".repeat(254)),
            ["must be no more than 253 bytes"]
        );
        assert_eq!(resource_pool_name("node-1/gpu"), (false, vec![]));
        assert_eq!(
            resource_pool_name("/a"),
            (false, vec!["segment 0: must not be empty".to_owned()])
        );
        let (long, msgs) = resource_pool_name(&format!("{}/Bad", "a".repeat(254)));
        assert!(long);
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].starts_with("segment 0: must be no more than 253 bytes"));
        assert!(msgs[1].starts_with("segment 1: a lowercase RFC 1123 subdomain"));
    }

    /// The exact strings, as apimachinery's own tests and kubectl show them.
    #[test]
    fn messages_are_apimachinerys() {
        assert_eq!(
            dns1123_label("GPU_0"),
            ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
        );
        assert_eq!(dns1123_label("gpu.0"), ["must not contain dots"]);
        assert_eq!(
            dns1123_label(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        assert_eq!(dns1123_label("").len(), 1);
        assert!(dns1123_label("gpu-0").is_empty());
        assert_eq!(
            dns1123_subdomain("Gpu"),
            ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(dns1123_subdomain(&format!("{}_", "a".repeat(253))).len(), 2);
        assert_eq!(
            c_identifier("1a"),
            ["a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"]
        );
        assert_eq!(path_segment("..", false), ["may not be '..'"]);
        assert!(condition_reason("A").is_empty());
        assert!(condition_reason("Reason_A,B:c_").is_empty());
        assert_eq!(condition_reason("A,").len(), 1);
        assert_eq!(condition_reason("_A").len(), 1);
        assert!(path_segment("..", true).is_empty());
        assert_eq!(
            path_segment("a/%", true),
            ["may not contain '/'", "may not contain '%'"]
        );
    }

    /// 1.34 words qualified names as util did; 1.35 moved them to content.
    #[test]
    fn label_keys_per_release() {
        let long = "a".repeat(64);
        assert_eq!(
            label_key(Version::V1_34, &long),
            ["name part must be no more than 63 characters"]
        );
        assert_eq!(
            label_key(Version::V1_35, &long),
            ["name part must be no more than 63 bytes"]
        );
        assert_eq!(
            label_key(Version::V1_35, ""),
            [
                "name part must be non-empty",
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
            ]
        );
        assert_eq!(
            label_key(Version::V1_37, "/a"),
            ["prefix part must be non-empty"]
        );
        assert!(label_key(Version::V1_37, "Example.com/a")[0]
            .starts_with("prefix part a lowercase RFC 1123 subdomain"));
        assert!(label_key(Version::V1_34, "a/b/c")[0].starts_with("a qualified name must consist"));
        assert!(label_key(Version::V1_36, "a/b/c")[0].starts_with("a valid label key must consist"));
        assert!(label_key(Version::V1_37, "example.com/My.Name_1").is_empty());
        assert_eq!(
            label_value(Version::V1_34, &long),
            ["must be no more than 63 characters"]
        );
        assert_eq!(label_value(Version::V1_37, "-x").len(), 1);
        assert!(label_value(Version::V1_37, "").is_empty());
    }
}
