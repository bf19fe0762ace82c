//! The Kubernetes quantity library (`quantity()`, comparisons, arithmetic, `sign`).

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
        // Kubernetes quantity.
        ("quantity", None) if n == 1 => typed(is(a(0), &T::String), T::Quantity),
        ("isQuantity", None) if n == 1 => typed(is(a(0), &T::String), T::Bool),
        ("isGreaterThan" | "isLessThan", Some(T::Quantity)) if n == 1 => {
            typed(is(a(0), &T::Quantity), T::Bool)
        }
        ("compareTo", Some(T::Quantity)) if n == 1 => typed(is(a(0), &T::Quantity), T::Int),
        ("add" | "sub", Some(T::Quantity)) if n == 1 => {
            typed(matches!(a(0), T::Quantity | T::Int | T::Dyn), T::Quantity)
        }
        ("asInteger", Some(T::Quantity)) if n == 0 => ok(T::Int),
        // sign is a global function of the quantity library, not a method.
        ("sign", None) if n == 1 => typed(is(a(0), &T::Quantity), T::Int),
        ("isInteger", Some(T::Quantity)) if n == 0 => ok(T::Bool),
        ("asApproximateFloat", Some(T::Quantity)) if n == 0 => ok(T::Double),
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
        // Quantity.
        ("quantity", None) if n == 1 => Quantity::parse(str_arg(a(0), name)?)
            .map(Value::Quantity)
            .map_err(|e| e.to_string()),
        ("isQuantity", None) if n == 1 => {
            Ok(Value::Bool(Quantity::parse(str_arg(a(0), name)?).is_ok()))
        }
        ("isGreaterThan" | "isLessThan" | "compareTo", Some(Value::Quantity(q))) if n == 1 => {
            match a(0) {
                Value::Quantity(o) => Ok(match name {
                    "isGreaterThan" => Value::Bool(q > o),
                    "isLessThan" => Value::Bool(q < o),
                    _ => Value::Int(q.cmp(o) as i64),
                }),
                _ => Err(err()),
            }
        }
        ("add" | "sub", Some(Value::Quantity(q))) if n == 1 => {
            let o = match a(0) {
                Value::Quantity(o) => *o,
                Value::Int(i) => Quantity::from_int(*i),
                _ => return Err(err()),
            };
            let r = if name == "add" {
                q.checked_add(&o)
            } else {
                q.checked_sub(&o)
            };
            r.map(Value::Quantity)
                .ok_or_else(|| "quantity overflow".into())
        }
        ("asInteger", Some(Value::Quantity(q))) if n == 0 => {
            if q.is_fractional()
                || q.value() > i128::from(i64::MAX)
                || q.value() < i128::from(i64::MIN)
            {
                Err("cannot convert value to integer".into())
            } else {
                Ok(Value::Int(q.value() as i64))
            }
        }
        ("isInteger", Some(Value::Quantity(q))) if n == 0 => Ok(Value::Bool(
            !q.is_fractional()
                && q.value() <= i128::from(i64::MAX)
                && q.value() >= i128::from(i64::MIN),
        )),
        ("asApproximateFloat", Some(Value::Quantity(q))) if n == 0 => Ok(Value::Double(q.to_f64())),
        ("sign", None) if n == 1 => match a(0) {
            Value::Quantity(q) => Ok(Value::Int(if q.is_zero() {
                0
            } else if q.is_negative() {
                -1
            } else {
                1
            })),
            _ => Err(err()),
        },
        _ => return Ok(None),
    };
    result.map(Some)
}
