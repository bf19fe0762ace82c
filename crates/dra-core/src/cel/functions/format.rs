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
/// ConstantFormats): apimachinery's own messages (`name_errors`). The DNS
/// names come from `util/validation` (lengths in "characters");
/// `qualifiedName` and `labelValue` from `api/validate/content` as 1.35 on
/// words them (lengths in "bytes", "a valid label key"; 1.34's
/// util/validation said "characters" and "a qualified name", a difference
/// the CEL environment, which has no release, does not model).
fn messages(f: &str, s: &str) -> Result<Vec<String>, String> {
    use crate::format::masked_prefix;
    use crate::gates::Version;
    use crate::name_errors as ne;
    Ok(match f {
        "dns1123Label" => ne::dns1123_label(s),
        "dns1123Subdomain" => ne::dns1123_subdomain(s),
        "dns1035Label" => ne::dns1035_label(s),
        "dns1123LabelPrefix" => ne::dns1123_label(&masked_prefix(s)),
        "dns1123SubdomainPrefix" => ne::dns1123_subdomain(&masked_prefix(s)),
        "dns1035LabelPrefix" => ne::dns1035_label(&masked_prefix(s)),
        "qualifiedName" => ne::label_key(Version::V1_35, s),
        "labelValue" => ne::label_value(Version::V1_35, s),
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

/// Go's `url.ParseRequestURI`, its error as url.Error prints it.
fn request_uri(s: &str) -> Result<(), String> {
    crate::cel::url::parse_request_uri(s)
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
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
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
