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
        // The conversions' overloads as common/stdlib/standard.go declares
        // them, with the Kubernetes IP and CIDR libraries' string(ip) and
        // string(cidr) (no string() of a quantity, semver or URL).
        ("int", None) if n == 1 => conversion(
            a(0),
            &[
                T::Int,
                T::Double,
                T::Duration,
                T::String,
                T::Timestamp,
                T::Uint,
            ],
            T::Int,
        ),
        ("uint", None) if n == 1 => {
            conversion(a(0), &[T::Uint, T::Double, T::Int, T::String], T::Uint)
        }
        ("double", None) if n == 1 => {
            conversion(a(0), &[T::Double, T::Int, T::String, T::Uint], T::Double)
        }
        ("string", None) if n == 1 => conversion(
            a(0),
            &[
                T::String,
                T::Bool,
                T::Bytes,
                T::Double,
                T::Duration,
                T::Int,
                T::Timestamp,
                T::Uint,
                T::Ip,
                T::Cidr,
            ],
            T::String,
        ),
        ("bytes", None) if n == 1 => conversion(a(0), &[T::Bytes, T::String], T::Bytes),
        ("bool", None) if n == 1 => conversion(a(0), &[T::Bool, T::String], T::Bool),
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
        // Each overload is the source type's ConvertToType
        // (common/types/*.go), with overflow.go's range checks.
        ("int", None) if n == 1 => match a(0) {
            Value::Int(i) => Ok(Value::Int(*i)),
            Value::Uint(u) => i64::try_from(*u)
                .map(Value::Int)
                .map_err(|_| INTEGER_OVERFLOW.into()),
            // doubleToInt64Checked: the bounds themselves overflow.
            Value::Double(d) => {
                if d.is_nan() || *d <= i64::MIN as f64 || *d >= i64::MAX as f64 {
                    Err(INTEGER_OVERFLOW.into())
                } else {
                    Ok(Value::Int(*d as i64))
                }
            }
            // Nanoseconds.
            Value::Duration(d) => Ok(Value::Int(*d as i64)),
            // time.Unix(): whole seconds, rounded down.
            Value::Timestamp(t, _) => Ok(Value::Int(t.div_euclid(1_000_000_000) as i64)),
            Value::String(s) => go_strconv::parse_int(s)
                .map(Value::Int)
                .ok_or_else(|| conversion_error("int")),
            _ => Err(err()),
        },
        ("uint", None) if n == 1 => match a(0) {
            Value::Uint(u) => Ok(Value::Uint(*u)),
            Value::Int(i) => u64::try_from(*i)
                .map(Value::Uint)
                .map_err(|_| UINT_OVERFLOW.into()),
            // doubleToUint64Checked: below zero or from 2^64 on.
            Value::Double(d) => {
                if d.is_nan() || *d < 0.0 || *d >= 18_446_744_073_709_551_616.0 {
                    Err(UINT_OVERFLOW.into())
                } else {
                    Ok(Value::Uint(*d as u64))
                }
            }
            Value::String(s) => go_strconv::parse_uint(s)
                .map(Value::Uint)
                .ok_or_else(|| conversion_error("uint")),
            _ => Err(err()),
        },
        ("double", None) if n == 1 => match a(0) {
            Value::Double(d) => Ok(Value::Double(*d)),
            Value::Int(i) => Ok(Value::Double(*i as f64)),
            Value::Uint(u) => Ok(Value::Double(*u as f64)),
            Value::String(s) => go_strconv::parse_float(s)
                .map(Value::Double)
                .ok_or_else(|| conversion_error("double")),
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
            Value::Ip(ip) => ip.to_string(),
            Value::Cidr(ip, p) => format!("{ip}/{p}"),
            Value::Duration(d) => crate::cel::time::format_duration(*d),
            Value::Timestamp(t, zone) => crate::cel::time::format_timestamp(*t, *zone),
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

/// overflow.go's errIntOverflow and errUintOverflow.
const INTEGER_OVERFLOW: &str = "integer overflow";
const UINT_OVERFLOW: &str = "unsigned integer overflow";

/// cel-go's `String.ConvertToType` when the text does not parse.
fn conversion_error(to: &str) -> String {
    format!("type conversion error from 'string' to '{to}'")
}

#[cfg(test)]
mod tests {
    const DEVICE: &str =
        "name: d\nattributes:\n  one: {int: 1}\n  neg: {int: -1}\n  ver: {version: 1.2.3}\n";

    fn run(expr: &str) -> Result<bool, String> {
        super::super::run_on(DEVICE, expr)
    }

    /// The conversions' overloads as common/stdlib/standard.go (v0.26.0)
    /// declares them: an argument type no overload takes is a compile
    /// error, where it compiled and failed on every device.
    #[test]
    fn conversions_take_the_declared_types() {
        for (e, call) in [
            ("int(true) == 1", "'int' applied to '(bool)'"),
            ("uint(b'1') == 1u", "'uint' applied to '(bytes)'"),
            (
                "double(duration('1s')) == 1.0",
                "'double' applied to '(google.protobuf.Duration)'",
            ),
            (
                "string(quantity('1')) == '1'",
                "'string' applied to '(kubernetes.Quantity)'",
            ),
            (
                "string(semver('1.0.0')) == ''",
                "'string' applied to '(kubernetes.Semver)'",
            ),
            ("bytes(1) == b''", "'bytes' applied to '(int)'"),
            ("bool(1)", "'bool' applied to '(int)'"),
            (
                "timestamp(1.5) < timestamp(2)",
                "'timestamp' applied to '(double)'",
            ),
            (
                "duration(true) < duration('1s')",
                "'duration' applied to '(bool)'",
            ),
        ] {
            let err = run(e).expect_err(e);
            assert!(
                err.contains(&format!("found no matching overload for {call}")),
                "{e}: {err}"
            );
        }
    }

    /// A literal argument of duration() or timestamp() is checked by the
    /// base environment's formatValidator, which evaluates the call
    /// (cel/validator.go evalCall): the compile error names the function.
    #[test]
    fn literal_conversions_are_validated_at_compile_time() {
        for (e, want) in [
            (
                "duration(5) == duration('5ns')",
                "invalid duration argument",
            ),
            (
                "duration('5x') == duration('5ns')",
                "invalid duration argument",
            ),
            (
                "timestamp(253402300800) > timestamp(0)",
                "invalid timestamp argument",
            ),
            (
                "timestamp('2024-02-30T00:00:00Z') > timestamp(0)",
                "invalid timestamp argument",
            ),
        ] {
            let err = run(e).expect_err(e);
            assert!(
                err.ends_with(want) && !err.contains("instantiation"),
                "{e}: {err}"
            );
        }
        assert_eq!(run("timestamp(1) > timestamp(0)"), Ok(true));
    }

    /// Each overload is its source type's ConvertToType (common/types/*.go)
    /// with overflow.go's checks and words; a constant argument is
    /// converted when the program is built (plan.rs), so those errors
    /// refuse the program.
    #[test]
    fn conversions_compute_as_cel_go() {
        let n = "device.attributes[\"d.example.com\"].one";
        let neg = "device.attributes[\"d.example.com\"].neg";
        let ver = "device.attributes[\"d.example.com\"].ver";
        for e in [
            "int(duration('1s')) == 1000000000".to_string(),
            "int(timestamp('1970-01-01T00:00:01Z')) == 1".into(),
            "int(timestamp('1969-12-31T23:59:59.5Z')) == -1".into(),
            "int(-9.2e18) == -9200000000000000000".into(),
            "uint(1.8e19) == 18000000000000000000u".into(),
            "uint(-0.0) == 0u".into(),
            "double('0x1p-2') == 0.25".into(),
            "double('1_000.5') == 1000.5".into(),
            "string(ip('::1')) == '::1'".into(),
            "string(cidr('10.0.0.0/8')) == '10.0.0.0/8'".into(),
            // A time keeps the offset it was written with; getters read UTC.
            "string(timestamp('2024-01-01T00:00:00.500+02:00')) == '2024-01-01T00:00:00.5+02:00'".into(),
            "string(timestamp('2024-01-01T00:00:00+02:00') + duration('1h')) == '2024-01-01T01:00:00+02:00'".into(),
            "timestamp('2024-01-01T00:00:00+02:00') == timestamp('2023-12-31T22:00:00Z')".into(),
            "timestamp('2024-01-01T00:00:00+02:00').getHours() == 22".into(),
            "'%s'.format([timestamp('2024-01-01T00:00:00-05:30')]) == '2024-01-01T00:00:00-05:30'".into(),
            "string(timestamp('2024-01-01T9:00:00,5Z')) == '2024-01-01T09:00:00.5Z'".into(),
            format!("uint({n}) == 1u"),
            format!("double({n}) == 1.0"),
        ] {
            assert_eq!(run(&e), Ok(true), "{e}");
        }
        for (e, want) in [
            (format!("uint({neg}) == 0u"), "unsigned integer overflow"),
            (format!("int(double({n}) * 1e19) == 0"), "integer overflow"),
            (
                format!("int(double({n}) * 9223372036854775807.0) == 0"),
                "integer overflow",
            ),
            (
                format!("uint(double({n}) * -0.5) == 0u"),
                "unsigned integer overflow",
            ),
            (
                format!("int(uint({n}) * 18446744073709551615u) == 0"),
                "integer overflow",
            ),
            // IntToDuration is declared; Int.ConvertToType has no duration.
            (
                format!("duration({n}) == duration('1ns')"),
                "type conversion error from 'int' to 'google.protobuf.Duration'",
            ),
            // No string() of a semantic version (the semver library declares none).
            (format!("string({ver}) == '1.2.3'"), "no such overload"),
        ] {
            let err = run(&e).expect_err(&e);
            assert!(err.contains(want), "{e}: {err}");
        }
        for (e, want) in [
            ("int(9.3e18) == 0", "integer overflow"),
            ("uint(-1) == 0u", "unsigned integer overflow"),
            (
                "uint('+5') == 5u",
                "type conversion error from 'string' to 'uint'",
            ),
            (
                "double('1e400') == 0.0",
                "type conversion error from 'string' to 'double'",
            ),
        ] {
            let err = run(e).expect_err(e);
            assert!(
                err.starts_with("program instantiation failed: ") && err.contains(want),
                "{e}: {err}"
            );
        }
    }
}
