//! ext.Lists and the Kubernetes lists library; `includes` on list-type attributes (DRAListTypeAttributes).

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
        // ext.Lists (version 3) joins the base environment in 1.34, so a new
        // expression sees it from Kubernetes 1.35 (compatibility version
        // n-1; apiserver/pkg/cel/environment/base.go).
        ("slice" | "flatten" | "distinct" | "sort", Some(T::List(_) | T::Dyn))
        | ("reverse", Some(T::List(_)))
            if !env.ext_lists =>
        {
            Sig::Gated(format!(
                "undeclared reference to '{name}' (in container '')"
            ))
        }
        ("range", Some(T::Dyn)) if n == 1 && !env.ext_lists => {
            Sig::Gated("undeclared reference to 'lists' (in container '')".into())
        }
        // Kubernetes lists and ext lists.
        ("isSorted", Some(T::List(_) | T::Dyn)) if n == 0 => ok(T::Bool),
        ("sum" | "min" | "max", Some(T::List(e))) if n == 0 => ok((**e).clone()),
        ("sum" | "min" | "max", Some(T::Dyn)) if n == 0 => ok(T::Dyn),
        ("indexOf" | "lastIndexOf", Some(T::List(_) | T::Dyn)) if n == 1 => ok(T::Int),
        ("slice", Some(T::List(e))) if n == 2 => ok(T::List(e.clone())),
        ("flatten", Some(T::List(_) | T::Dyn)) if n <= 1 => ok(T::List(Box::new(T::Dyn))),
        ("distinct" | "sort" | "reverse", Some(T::List(e))) if n == 0 => ok(T::List(e.clone())),
        ("reverse", Some(T::String)) if n == 0 => ok(T::String),
        ("reverse", Some(T::Dyn)) if n == 0 => ok(T::Dyn),
        ("first" | "last", Some(T::List(e))) if n == 0 => ok(T::Optional(e.clone())),
        ("range", Some(T::Dyn)) if n == 1 => ok(T::List(Box::new(T::Int))),
        // List-type attributes (DRAListTypeAttributes): a list attribute, or
        // a scalar one read as a one-element list, includes a value.
        ("includes", Some(_)) if n == 1 && env.list_type_attributes => ok(T::Bool),
        ("includes", _) => {
            Sig::Gated("undeclared reference to 'includes' (in container '')".into())
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
        // Kubernetes lists.
        ("isSorted", Some(Value::List(l))) if n == 0 => {
            let mut sorted = true;
            for w in l.windows(2) {
                match compare(&w[0], &w[1]) {
                    Some(std::cmp::Ordering::Greater) => sorted = false,
                    Some(_) => {}
                    None => return Err(err()),
                }
            }
            Ok(Value::Bool(sorted))
        }
        ("sum", Some(Value::List(l))) if n == 0 => {
            let mut acc = Value::Int(0);
            for (i, v) in l.iter().enumerate() {
                acc = if i == 0 {
                    v.clone()
                } else {
                    arith(op::ADD, &acc, v)?
                };
            }
            Ok(acc)
        }
        ("min" | "max", Some(Value::List(l))) if n == 0 => {
            let mut best: Option<&Value> = None;
            for v in l.iter() {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = compare(v, b).ok_or_else(err)?;
                        if (name == "min" && o.is_lt()) || (name == "max" && o.is_gt()) {
                            v
                        } else {
                            b
                        }
                    }
                });
            }
            best.cloned()
                .ok_or_else(|| format!("{name}() of an empty list"))
        }
        ("indexOf" | "lastIndexOf", Some(Value::List(l))) if n == 1 => {
            let pos = |v: &&Value| equals(v, a(0)) == Some(true);
            let i = if name == "indexOf" {
                l.iter().position(|v| pos(&v))
            } else {
                l.iter().rposition(|v| pos(&v))
            };
            Ok(Value::Int(i.map_or(-1, |i| i as i64)))
        }
        ("slice", Some(Value::List(l))) if n == 2 => {
            let (s, e) = (int_arg(a(0), name)?, int_arg(a(1), name)?);
            if s < 0 || e < s || e as usize > l.len() {
                return Err(format!(
                    "cannot slice({s}, {e}), list is length {}",
                    l.len()
                ));
            }
            Ok(list(l[s as usize..e as usize].to_vec()))
        }
        ("flatten", Some(Value::List(l))) if n == 0 => {
            let mut out = Vec::new();
            for v in l.iter() {
                match v {
                    Value::List(inner) => out.extend(inner.iter().cloned()),
                    other => out.push(other.clone()),
                }
            }
            Ok(list(out))
        }
        ("distinct", Some(Value::List(l))) if n == 0 => {
            let mut out: Vec<Value> = Vec::new();
            for v in l.iter() {
                if !out.iter().any(|o| equals(o, v) == Some(true)) {
                    out.push(v.clone());
                }
            }
            Ok(list(out))
        }
        ("sort", Some(Value::List(l))) if n == 0 => {
            let mut out = l.to_vec();
            out.sort_by(|x, y| compare(x, y).unwrap_or(std::cmp::Ordering::Equal));
            Ok(list(out))
        }
        ("reverse", Some(Value::List(l))) if n == 0 => Ok(list(l.iter().rev().cloned().collect())),
        ("includes", Some(Value::List(l))) if n == 1 => {
            Ok(Value::Bool(l.iter().any(|v| equals(v, a(0)) == Some(true))))
        }
        ("includes", Some(v)) if n == 1 => Ok(Value::Bool(equals(v, a(0)) == Some(true))),
        ("first" | "last", Some(Value::List(l))) if n == 0 => {
            let v = if name == "first" { l.first() } else { l.last() };
            Ok(Value::Optional(v.map(|v| Box::new(v.clone()))))
        }
        _ => return Ok(None),
    };
    result.map(Some)
}
