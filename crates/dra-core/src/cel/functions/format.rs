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
            let ok = match *f {
                "dns1123Label" => crate::format::is_dns_label(s),
                "dns1123Subdomain" => crate::format::is_dns_subdomain(s),
                "qualifiedName" => crate::format::is_label_key(s),
                "labelValue" => crate::format::is_label_value(s),
                "uuid" => {
                    s.len() == 36
                        && s.chars().enumerate().all(|(i, c)| {
                            if [8, 13, 18, 23].contains(&i) {
                                c == '-'
                            } else {
                                c.is_ascii_hexdigit()
                            }
                        })
                }
                "dns1035Label" => is_dns1035_label(s),
                // Prefixes get a suffix appended later: a trailing '-' is fine
                // (apimachinery's maskTrailingDash).
                "dns1123LabelPrefix" => crate::format::is_dns_label(&mask_trailing_dash(s)),
                "dns1123SubdomainPrefix" => crate::format::is_dns_subdomain(&mask_trailing_dash(s)),
                "dns1035LabelPrefix" => is_dns1035_label(&mask_trailing_dash(s)),
                "uri" => crate::cel::time::parse_url(s).is_ok(),
                "byte" => is_base64(s),
                "date" => {
                    s.len() == 10
                        && crate::cel::time::parse_timestamp(&format!("{s}T00:00:00Z")).is_ok()
                }
                "datetime" => crate::cel::time::parse_timestamp(s).is_ok(),
                other => return Err(format!("format.{other}() is not supported by kubectl-dra")),
            };
            Ok(Value::Optional((!ok).then(|| {
                Box::new(list(vec![Value::string(&format!("invalid {f}"))]))
            })))
        }
        _ => return Ok(None),
    };
    result.map(Some)
}
