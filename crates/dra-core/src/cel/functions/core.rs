//! The standard library's size, contains/startsWith/endsWith, matches, type conversions, `type` and `dyn`.

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
        // Standard library.
        ("size", None) if n == 1 => sized(a(0)),
        ("size", Some(t)) if n == 0 => sized(t),
        ("contains" | "startsWith" | "endsWith", Some(t)) if n == 1 => {
            if is(t, &T::String) && is(a(0), &T::String) {
                Sig::Ok(
                    T::Bool,
                    if name == "contains" {
                        Extra::Contains
                    } else {
                        Extra::Affix
                    },
                )
            } else {
                Sig::NoOverload
            }
        }
        ("matches", Some(t)) if n == 1 => {
            if is(t, &T::String) && is(a(0), &T::String) {
                Sig::Ok(T::Bool, Extra::Matches)
            } else {
                Sig::NoOverload
            }
        }
        ("int" | "uint" | "double" | "string" | "bytes" | "bool", None) if n == 1 => {
            ok(match name {
                "int" => T::Int,
                "uint" => T::Uint,
                "double" => T::Double,
                "string" => T::String,
                "bytes" => T::Bytes,
                _ => T::Bool,
            })
        }
        ("type", None) if n == 1 => ok(T::TypeT),
        ("dyn", None) if n == 1 => ok(T::Dyn),
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
        ("size", None) if n == 1 => size(a(0)).ok_or_else(err),
        ("size", Some(t)) if n == 0 => size(t).ok_or_else(err),
        ("contains", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.contains(str_arg(a(0), name)?)))
        }
        ("startsWith", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.starts_with(str_arg(a(0), name)?)))
        }
        ("endsWith", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.ends_with(str_arg(a(0), name)?)))
        }
        ("matches", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(regex(str_arg(a(0), name)?)?.is_match(s)))
        }
        ("int", None) if n == 1 => match a(0) {
            Value::Int(i) => Ok(Value::Int(*i)),
            Value::Uint(u) => i64::try_from(*u)
                .map(Value::Int)
                .map_err(|_| "int overflow".into()),
            Value::Double(d) if d.is_finite() && *d > -9.3e18 && *d < 9.3e18 => {
                Ok(Value::Int(*d as i64))
            }
            Value::String(s) => s
                .parse()
                .map(Value::Int)
                .map_err(|_| conversion_error("int")),
            _ => Err(err()),
        },
        ("uint", None) if n == 1 => match a(0) {
            Value::Uint(u) => Ok(Value::Uint(*u)),
            Value::Int(i) => u64::try_from(*i)
                .map(Value::Uint)
                .map_err(|_| "uint overflow".into()),
            Value::Double(d) if *d >= 0.0 && *d < 1.8e19 => Ok(Value::Uint(*d as u64)),
            Value::String(s) => s
                .parse()
                .map(Value::Uint)
                .map_err(|_| conversion_error("uint")),
            _ => Err(err()),
        },
        ("double", None) if n == 1 => match a(0) {
            Value::Double(d) => Ok(Value::Double(*d)),
            Value::Int(i) => Ok(Value::Double(*i as f64)),
            Value::Uint(u) => Ok(Value::Double(*u as f64)),
            Value::String(s) => s
                .parse()
                .map(Value::Double)
                .map_err(|_| conversion_error("double")),
            _ => Err(err()),
        },
        ("string", None) if n == 1 => Ok(Value::string(&match a(0) {
            Value::String(s) => s.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Uint(u) => u.to_string(),
            // cel-go: fmt.Sprintf("%g", d).
            Value::Double(d) => crate::cel::go_fmt::g(*d),
            Value::Bool(b) => b.to_string(),
            Value::Bytes(b) => match std::str::from_utf8(b) {
                Ok(s) => s.to_owned(),
                Err(_) => return Err("invalid UTF-8 in bytes, cannot convert to string".into()),
            },
            Value::Quantity(q) => q.to_string(),
            Value::Semver(s) => s.to_string(),
            Value::Ip(ip) => ip.to_string(),
            Value::Cidr(ip, p) => format!("{ip}/{p}"),
            Value::Url(u) => u.text.clone(),
            Value::Duration(d) => crate::cel::time::format_duration(*d),
            Value::Timestamp(t) => crate::cel::time::format_timestamp(*t),
            _ => return Err(err()),
        })),
        ("bool", None) if n == 1 => match a(0) {
            Value::Bool(b) => Ok(Value::Bool(*b)),
            Value::String(s) => match &**s {
                // strconv.ParseBool's spellings.
                "true" | "True" | "TRUE" | "t" | "T" | "1" => Ok(Value::Bool(true)),
                "false" | "False" | "FALSE" | "f" | "F" | "0" => Ok(Value::Bool(false)),
                _ => Err(conversion_error("bool")),
            },
            _ => Err(err()),
        },
        ("bytes", None) if n == 1 => match a(0) {
            Value::String(s) => Ok(Value::Bytes(s.as_bytes().into())),
            Value::Bytes(b) => Ok(Value::Bytes(b.clone())),
            _ => Err(err()),
        },
        ("dyn", None) if n == 1 => Ok(a(0).clone()),
        ("type", None) if n == 1 => Ok(Value::Type(a(0).type_name())),
        _ => return Ok(None),
    };
    result.map(Some)
}

/// cel-go's `String.ConvertToType` when the text does not parse.
fn conversion_error(to: &str) -> String {
    format!("type conversion error from 'string' to '{to}'")
}
