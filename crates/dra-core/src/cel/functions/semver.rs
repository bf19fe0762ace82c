//! The Kubernetes semver library (`semver()`, comparisons, parts), and the methods both it and quantity declare, on a value of unknown type.

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
        // Kubernetes semver.
        ("semver", None) if (1..=2).contains(&n) => typed(
            is(a(0), &T::String) && (n == 1 || is(a(1), &T::Bool)),
            T::Semver,
        ),
        ("isSemver", None) if (1..=2).contains(&n) => typed(is(a(0), &T::String), T::Bool),
        ("isGreaterThan" | "isLessThan", Some(T::Semver)) if n == 1 => {
            typed(is(a(0), &T::Semver), T::Bool)
        }
        ("compareTo", Some(T::Semver)) if n == 1 => typed(is(a(0), &T::Semver), T::Int),
        ("major" | "minor" | "patch", Some(T::Semver)) if n == 0 => ok(T::Int),
        // Either, on an attribute of unknown type.
        ("isGreaterThan" | "isLessThan", Some(T::Dyn)) if n == 1 => ok(T::Bool),
        ("compareTo", Some(T::Dyn)) if n == 1 => ok(T::Int),
        ("add" | "sub", Some(T::Dyn)) if n == 1 => ok(T::Dyn),
        ("asInteger" | "major" | "minor" | "patch", Some(T::Dyn)) if n == 0 => ok(T::Int),
        ("isInteger", Some(T::Dyn)) if n == 0 => ok(T::Bool),
        ("asApproximateFloat", Some(T::Dyn)) if n == 0 => ok(T::Double),
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
        // Semver.
        ("semver", None) if (1..=2).contains(&n) => {
            let s = str_arg(a(0), name)?;
            let normalize = n == 2 && matches!(a(1), Value::Bool(true));
            let parsed = if normalize {
                Semver::parse_normalized(s)
            } else {
                Semver::parse(s)
            };
            parsed.map(|v| Value::Semver(Arc::new(v)))
        }
        ("isSemver", None) if (1..=2).contains(&n) => {
            let s = str_arg(a(0), name)?;
            let normalize = n == 2 && matches!(a(1), Value::Bool(true));
            Ok(Value::Bool(if normalize {
                Semver::parse_normalized(s).is_ok()
            } else {
                Semver::parse(s).is_ok()
            }))
        }
        ("isGreaterThan" | "isLessThan" | "compareTo", Some(Value::Semver(v))) if n == 1 => {
            match a(0) {
                Value::Semver(o) => Ok(match name {
                    "isGreaterThan" => Value::Bool(**v > **o),
                    "isLessThan" => Value::Bool(**v < **o),
                    _ => Value::Int(v.cmp(o) as i64),
                }),
                _ => Err(err()),
            }
        }
        ("major", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.major as i64)),
        ("minor", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.minor as i64)),
        ("patch", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.patch as i64)),
        _ => return Ok(None),
    };
    result.map(Some)
}
