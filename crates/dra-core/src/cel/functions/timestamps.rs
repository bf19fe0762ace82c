//! Durations and timestamps: `duration()`, `timestamp()` and their getters.

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
        // common/stdlib/standard.go: duration(duration | int | string).
        ("duration", None) if n == 1 => {
            conversion(a(0), &[T::Duration, T::Int, T::String], T::Duration)
        }
        ("getHours" | "getMinutes" | "getSeconds" | "getMilliseconds", Some(T::Duration))
            if n == 0 =>
        {
            ok(T::Int)
        }
        (
            "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek"
            | "getDayOfYear" | "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds",
            Some(T::Timestamp),
        ) if n <= 1 => ok(T::Int),
        // timestamp(timestamp | int | string).
        ("timestamp", None) if n == 1 => {
            conversion(a(0), &[T::Timestamp, T::Int, T::String], T::Timestamp)
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
        ("duration", None) if n == 1 => match a(0) {
            Value::Duration(d) => Ok(Value::Duration(*d)),
            // IntToDuration is declared, but Int.ConvertToType has no
            // duration case: every call is this error.
            Value::Int(_) => {
                Err("type conversion error from 'int' to 'google.protobuf.Duration'".into())
            }
            Value::String(s) => crate::cel::time::parse_duration(s).map(Value::Duration),
            _ => Err(err()),
        },
        ("timestamp", None) if n == 1 => match a(0) {
            Value::Timestamp(t, zone) => Ok(Value::Timestamp(*t, *zone)),
            // Int.ConvertToType: seconds in UTC; outside years 1-9999
            // `timestamp overflow`.
            Value::Int(secs) => {
                crate::cel::time::checked_timestamp(i128::from(*secs) * 1_000_000_000)
                    .map(|t| Value::Timestamp(t, 0))
            }
            Value::String(s) => {
                crate::cel::time::parse_timestamp(s).map(|(t, zone)| Value::Timestamp(t, zone))
            }
            _ => Err(err()),
        },
        (_, Some(Value::Duration(d))) if n == 0 => crate::cel::time::duration_part(*d, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t, _))) if n == 0 => crate::cel::time::timestamp_part(*t, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t, _))) if n == 1 => {
            let offset = crate::cel::time::zone_offset(*t, str_arg(a(0), name)?)?;
            crate::cel::time::timestamp_part(*t + i128::from(offset) * 1_000_000_000, name)
                .map(Value::Int)
                .ok_or_else(err)
        }
        _ => return Ok(None),
    };
    result.map(Some)
}
