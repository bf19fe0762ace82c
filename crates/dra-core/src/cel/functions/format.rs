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
        "date" => refuse(is_date(s), "invalid date"),
        "datetime" => refuse(is_date_time(s), "invalid datetime"),
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

/// strfmt's UUIDPattern (kube-openapi `pkg/validation/strfmt/default.go`):
/// `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`,
/// so each dash may be left out.
fn is_uuid(s: &str) -> bool {
    let mut rest = s.as_bytes();
    for (i, len) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            rest = rest.strip_prefix(b"-").unwrap_or(rest);
        }
        match rest.get(..len) {
            Some(group) if group.iter().all(u8::is_ascii_hexdigit) => rest = &rest[len..],
            _ => return false,
        }
    }
    rest.is_empty()
}

/// strfmt's IsDate: `time.Parse("2006-01-02", s)`, whose layout parser
/// takes exactly four digits, two and two, and a day that exists (year 0
/// included: no range check here).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    match (digits(0..4), digits(5..7), digits(8..10)) {
        (Some(year), Some(month), Some(day)) => {
            (1..=12).contains(&month) && (1..=crate::go_time::days_in(month, year)).contains(&day)
        }
        _ => false,
    }
}

/// strfmt's IsDateTime: the lower-cased text split at every `t`, the first
/// part a date, the second matching DateTimePattern (its `.` any character)
/// with hours, minutes and seconds compared as text; later parts unread.
fn is_date_time(s: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$",
        )
        .expect("strfmt's DateTimePattern compiles")
    });
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    PATTERN
        .captures(time)
        .is_some_and(|m| &m[1] <= "23" && &m[2] <= "59" && &m[3] <= "59")
}

#[cfg(test)]
mod tests {
    use super::messages;

    /// Formats compare by name (apiserver/pkg/cel Format.Equal), as
    /// format_test.go's lookup-and-comparison cases check.
    #[test]
    fn formats_compare_by_name() {
        for e in [
            "format.named('uri').value() == format.uri()",
            "format.named('dns1123Label').value() == format.dns1123Label()",
            "format.uri() != format.uuid()",
            "!format.named('unknown').hasValue()",
        ] {
            assert_eq!(super::super::run_on("name: d\n", e), Ok(true), "{e}");
        }
    }

    /// strfmt's date, date-time and UUID checks (go-openapi/strfmt date.go
    /// and time.go, whose fork kube-openapi keeps; default.go's UUIDPattern).
    #[test]
    fn strfmt_date_time_and_uuid() {
        let valid = |f: &str, s: &str| messages(f, s).unwrap().is_empty();
        for ok in ["2024-02-29", "0000-01-01"] {
            assert!(valid("date", ok), "{ok}");
        }
        for bad in [
            "2023-02-29",
            "2024-1-01",
            "2024-13-01",
            "24-01-01",
            "2024-01-01 ",
        ] {
            assert!(!valid("date", bad), "{bad}");
        }
        for ok in [
            "2024-01-01T00:00:00Z",
            "2024-01-01t23:59:59z",
            "2024-01-01T00:00:00.5+05:30",
            "2024-01-01T00:00:00x5-99:99",
            "2024-01-01T00:00:00ZT",
        ] {
            assert!(valid("datetime", ok), "{ok}");
        }
        for bad in [
            "2024-01-01",
            "2024-01-01T24:00:00Z",
            "2024-01-01T9:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
            "2024-02-30T00:00:00Z",
        ] {
            assert!(!valid("datetime", bad), "{bad}");
        }
        for ok in [
            "0123abcd-0123-abcd-0123-0123456789ab",
            "0123ABCD0123abcd01230123456789ab",
            "0123abcd-0123abcd-0123-0123456789ab",
        ] {
            assert!(valid("uuid", ok), "{ok}");
        }
        for bad in [
            "0123abcd-0123-abcd-0123-0123456789a",
            "0123abcd--0123-abcd-0123-0123456789ab",
            "g123abcd-0123-abcd-0123-0123456789ab",
        ] {
            assert!(!valid("uuid", bad), "{bad}");
        }
        assert!(!valid("byte", ""));
        assert!(valid("byte", "AA=="));
    }

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
