//! The Kubernetes URL library.

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
        // Kubernetes URL (declared; see evaluation).
        ("url", None) if n == 1 => typed(is(a(0), &T::String), T::Url),
        ("isURL", None) if n == 1 => typed(is(a(0), &T::String), T::Bool),
        ("getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath", Some(T::Url))
            if n == 0 =>
        {
            ok(T::String)
        }
        ("getQuery", Some(T::Url)) if n == 0 => {
            ok(T::Map(Box::new(T::String), Box::new(T::list(T::String))))
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
        ("url", None) if n == 1 => crate::cel::url::parse_url(str_arg(a(0), name)?).map(Value::Url),
        ("isURL", None) if n == 1 => Ok(Value::Bool(
            crate::cel::url::parse_url(str_arg(a(0), name)?).is_ok(),
        )),
        ("getScheme", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.scheme)),
        ("getHost", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.host)),
        ("getHostname", Some(Value::Url(u))) if n == 0 => Ok(Value::string(u.hostname())),
        ("getPort", Some(Value::Url(u))) if n == 0 => Ok(Value::string(u.port())),
        ("getEscapedPath", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.escaped_path())),
        ("getQuery", Some(Value::Url(u))) if n == 0 => Ok(Value::Map(Arc::new(MapValue {
            entries: u
                .query()
                .into_iter()
                .map(|(k, vs)| {
                    (
                        Value::string(&k),
                        list(vs.iter().map(|v| Value::string(v)).collect()),
                    )
                })
                .collect(),
        }))),
        _ => return Ok(None),
    };
    result.map(Some)
}
