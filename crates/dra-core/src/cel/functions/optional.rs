//! Optionals (`optional.of`, `hasValue`, `value`, `orValue`, `or`).

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
        // Optionals.
        ("of" | "ofNonZeroValue", Some(T::Dyn)) if n == 1 => {
            ok(T::Optional(Box::new(a(0).clone())))
        }
        ("none", Some(T::Dyn)) if n == 0 => ok(T::Optional(Box::new(T::Free))),
        ("hasValue", Some(T::Optional(_) | T::Dyn)) if n == 0 => ok(T::Bool),
        ("value", Some(T::Optional(t))) if n == 0 => ok((**t).clone()),
        // `optional(A).orValue(A)` and `optional(A).or(optional(A))`: the
        // type parameter takes the most general of the two (cel-go's
        // mostGeneral: `any` stays `any`); types that do not fit one
        // another have no overload.
        ("orValue", Some(T::Optional(t))) if n == 1 => match t.join(a(0)) {
            Some(t) => ok(t),
            None => Sig::NoOverload,
        },
        ("value" | "orValue", Some(T::Dyn)) => ok(T::Dyn),
        ("or", Some(T::Optional(t))) if n == 1 => match T::Optional(t.clone()).join(a(0)) {
            Some(t @ T::Optional(_)) => ok(t),
            Some(_) => ok(T::Optional(t.clone())),
            None => Sig::NoOverload,
        },
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
        ("hasValue", Some(Value::Optional(o))) if n == 0 => Ok(Value::Bool(o.is_some())),
        ("value", Some(Value::Optional(o))) if n == 0 => o
            .as_deref()
            .cloned()
            .ok_or_else(|| "optional.none() dereference".into()),
        ("orValue", Some(Value::Optional(o))) if n == 1 => {
            Ok(o.as_deref().cloned().unwrap_or_else(|| a(0).clone()))
        }
        ("or", Some(Value::Optional(o))) if n == 1 => Ok(if o.is_some() {
            Value::Optional(o.clone())
        } else {
            a(0).clone()
        }),
        _ => return Ok(None),
    };
    result.map(Some)
}
