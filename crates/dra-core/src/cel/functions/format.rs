//! The Kubernetes format library (`format.dns1123Label()`, ..., `validate`).

use super::*;

/// The declared result type of a call of this family, or `None` when the
/// family declares no such call.
pub(super) fn signature(
    name: &str,
    target: Option<&Type>,
    args: &[&Type],
    env: &Env,
) -> Option<Sig> {
    let n = args.len();
    let a = |i: usize| args.get(i).copied().unwrap_or(&T::Dyn);
    let _ = (n, &a, env);
    Some(match (name, target) {
        // Kubernetes format.
        ("named", Some(T::Dyn)) if n == 1 => ok(T::Optional(Box::new(T::Format))),
        (
            "dns1123Label"
            | "dns1123Subdomain"
            | "dns1035Label"
            | "qualifiedName"
            | "dns1123LabelPrefix"
            | "dns1123SubdomainPrefix"
            | "dns1035LabelPrefix"
            | "labelValue"
            | "uri"
            | "uuid"
            | "byte"
            | "date"
            | "datetime",
            Some(T::Dyn),
        ) if n == 0 => ok(T::Format),
        ("validate", Some(T::Format)) if n == 1 => {
            ok(T::Optional(Box::new(T::List(Box::new(T::String)))))
        }
        _ => return None,
    })
}

/// Evaluates a call of this family; `Ok(None)` when the family has no
/// such call.
pub(super) fn call(
    name: &str,
    target: Option<&Value>,
    args: &[Value],
    err: &dyn Fn() -> String,
) -> Result<Option<Value>, String> {
    let n = args.len();
    let a = |i: usize| &args[i];
    let _ = (n, &a, err);
    let result: R = match (name, target) {
        ("validate", Some(Value::Format(f))) if n == 1 => {
            let s = str_arg(a(0), name)?;
            let problems = messages(f, s)?;
            Ok(Value::Optional((!problems.is_empty()).then(|| {
                Box::new(list(problems.iter().map(|m| Value::string(m)).collect()))
            })))
        }
        _ => return Ok(None),
    };
    result.map(Some)
}

/// What `<Format>.validate(s)` lists (apiserver `library/format.go`
/// ConstantFormats): apimachinery's own messages. The DNS names come from
/// `util/validation` (lengths in "characters"); `qualifiedName` and
/// `labelValue` from `api/validate/content` (1.35 on: lengths in "bytes",
/// "a valid label key"; 1.34's util/validation said "characters" and "a
/// qualified name", a difference kubectl-dra does not model).
fn messages(f: &str, s: &str) -> Result<Vec<String>, String> {
    Ok(match f {
        "dns1123Label" => dns1123_label(s),
        "dns1123Subdomain" => dns1123_subdomain(s, "characters"),
        "dns1035Label" => dns1035_label(s),
        "dns1123LabelPrefix" => dns1123_label(&mask_trailing_dash(s)),
        "dns1123SubdomainPrefix" => dns1123_subdomain(&mask_trailing_dash(s), "characters"),
        "dns1035LabelPrefix" => dns1035_label(&mask_trailing_dash(s)),
        "qualifiedName" => label_key(s),
        "labelValue" => label_value(s),
        "uri" => request_uri(s).err().into_iter().collect(),
        "uuid" => refuse(is_uuid(s), "does not match the UUID format"),
        "byte" => refuse(is_base64(s), "invalid base64"),
        "date" => refuse(
            s.len() == 10 && crate::cel::time::parse_timestamp(&format!("{s}T00:00:00Z")).is_ok(),
            "invalid date",
        ),
        "datetime" => refuse(
            crate::cel::time::parse_timestamp(s).is_ok(),
            "invalid datetime",
        ),
        other => return Err(format!("format.{other}() is not supported by kubectl-dra")),
    })
}

fn refuse(ok: bool, message: &str) -> Vec<String> {
    if ok {
        Vec::new()
    } else {
        vec![message.to_owned()]
    }
}

const LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// apimachinery `RegexError`.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let shown: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{re}')",
        shown.join("or ")
    )
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, whatever the length.
fn label_regex(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn subdomain_regex(s: &str) -> bool {
    s.split('.').all(label_regex)
}

fn dns1123_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 characters".to_owned());
    }
    if !label_regex(s) {
        out.push(if subdomain_regex(s) {
            "must not contain dots".to_owned()
        } else {
            regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                LABEL_FMT,
                &["my-name", "123-abc"],
            )
        });
    }
    out
}

fn dns1123_subdomain(s: &str, unit: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(format!("must be no more than 253 {unit}"));
    }
    if !subdomain_regex(s) {
        out.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            &format!("{LABEL_FMT}(\\.{LABEL_FMT})*"),
            &["example.com"],
        ));
    }
    out
}

fn dns1035_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 characters".to_owned());
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

/// The label-key name regex, whatever the length.
fn label_key_name_regex(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// content `IsLabelKey`.
fn label_key(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".to_owned());
            } else {
                out.extend(
                    dns1123_subdomain(prefix, "bytes")
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            )]
        }
    };
    if name.is_empty() {
        out.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        out.push("name part must be no more than 63 bytes".to_owned());
    }
    if !label_key_name_regex(name) {
        out.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    out
}

/// content `IsLabelValue`.
fn label_value(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 bytes".to_owned());
    }
    if !(s.is_empty() || label_key_name_regex(s)) {
        out.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            &format!("({LABEL_KEY_FMT})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    out
}

/// Go's `url.ParseRequestURI`, with its commonest errors.
fn request_uri(s: &str) -> Result<(), String> {
    let q = crate::cel::go_fmt::quote(s);
    if s.is_empty() {
        return Err(format!("parse {q}: empty url"));
    }
    if s.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err(format!(
            "parse {q}: net/url: invalid control character in URL"
        ));
    }
    if s.starts_with(':') {
        return Err(format!("parse {q}: missing protocol scheme"));
    }
    crate::cel::time::parse_url(s)
        .map(|_| ())
        .map_err(|_| format!("parse {q}: invalid URI for request"))
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.chars().enumerate().all(|(i, c)| {
            if [8, 13, 18, 23].contains(&i) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

#[cfg(test)]
mod tests {
    use super::messages;

    #[test]
    fn validate_lists_apimachinerys_messages() {
        assert!(messages("dns1123Label", "my-name").unwrap().is_empty());
        assert_eq!(
            messages("dns1123Label", "a.b").unwrap(),
            vec!["must not contain dots"]
        );
        assert_eq!(
            messages("dns1123Label", "My_Name").unwrap(),
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
        );
        let long = "a".repeat(64);
        assert_eq!(
            messages("dns1123Label", &long).unwrap(),
            vec!["must be no more than 63 characters"]
        );
        assert_eq!(messages("qualifiedName", "a/b/c").unwrap().len(), 1);
        assert_eq!(
            messages("qualifiedName", "/x").unwrap(),
            vec!["prefix part must be non-empty"]
        );
        assert!(messages("labelValue", "").unwrap().is_empty());
        assert_eq!(
            messages("labelValue", &long).unwrap(),
            vec!["must be no more than 63 bytes"]
        );
        // maskTrailingDash drops the last two characters for an "a".
        assert!(messages("dns1123LabelPrefix", "ab.-").unwrap().is_empty());
        assert_eq!(
            messages("uri", "abc").unwrap(),
            vec![r#"parse "abc": invalid URI for request"#]
        );
        assert_eq!(messages("byte", "!").unwrap(), vec!["invalid base64"]);
    }
}
