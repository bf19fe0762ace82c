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
        ("duration", None) if n == 1 => ok(T::Duration),
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
        ("timestamp", None) if n == 1 => ok(T::Timestamp),
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
            other => crate::cel::time::parse_duration(str_arg(other, name)?).map(Value::Duration),
        },
        ("timestamp", None) if n == 1 => match a(0) {
            Value::Timestamp(t) => Ok(Value::Timestamp(*t)),
            // Int.ConvertToType: outside years 1-9999 `timestamp overflow`.
            Value::Int(secs) => {
                crate::cel::time::checked_timestamp(i128::from(*secs) * 1_000_000_000)
                    .map(Value::Timestamp)
            }
            other => crate::cel::time::parse_timestamp(str_arg(other, name)?).map(Value::Timestamp),
        },
        (_, Some(Value::Duration(d))) if n == 0 => crate::cel::time::duration_part(*d, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t))) if n == 0 => crate::cel::time::timestamp_part(*t, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t))) if n == 1 => {
            let offset = crate::cel::time::zone_offset(*t, str_arg(a(0), name)?)?;
            crate::cel::time::timestamp_part(*t + i128::from(offset) * 1_000_000_000, name)
                .map(Value::Int)
                .ok_or_else(err)
        }
        _ => return Ok(None),
    };
    result.map(Some)
}
