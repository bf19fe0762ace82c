//! ext.Strings (version 2) and the Kubernetes regex library (`find`, `findAll`); `format` and string `reverse`.

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
        // ext Strings.
        ("charAt", Some(t)) if n == 1 && is(t, &T::String) => ok(T::String),
        ("indexOf" | "lastIndexOf", Some(T::String)) if (1..=2).contains(&n) => {
            Sig::Ok(T::Int, Extra::Strings)
        }
        ("lowerAscii" | "upperAscii" | "trim", Some(t)) if n == 0 && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("replace", Some(t)) if (2..=3).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("split", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::List(Box::new(T::String)), Extra::Strings)
        }
        ("substring", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("join", Some(t)) if n <= 1 && matches!(t, T::List(_) | T::Dyn) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("format", Some(t)) if n == 1 && is(t, &T::String) => ok(T::String),
        ("quote", Some(T::Dyn)) if n == 1 => ok(T::String),
        // Kubernetes regex.
        ("find", Some(t)) if n == 1 && is(t, &T::String) => Sig::Ok(T::String, Extra::Strings),
        ("findAll", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::List(Box::new(T::String)), Extra::Strings)
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
        // ext Strings.
        ("charAt", Some(Value::String(s))) if n == 1 => {
            let i = int_arg(a(0), name)?;
            let chars: Vec<char> = s.chars().collect();
            match usize::try_from(i) {
                Ok(i) if i < chars.len() => Ok(Value::string(&chars[i].to_string())),
                Ok(i) if i == chars.len() => Ok(Value::string("")),
                _ => Err(format!("index out of range: {i}")),
            }
        }
        ("indexOf", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sub = str_arg(a(0), name)?;
            let from = if n == 2 { int_arg(a(1), name)? } else { 0 };
            let chars: Vec<char> = s.chars().collect();
            let from = usize::try_from(from).map_err(|_| format!("index out of range: {from}"))?;
            if from > chars.len() {
                return Err(format!("index out of range: {from}"));
            }
            let hay: String = chars[from..].iter().collect();
            Ok(Value::Int(
                hay.find(sub)
                    .map_or(-1, |b| (from + hay[..b].chars().count()) as i64),
            ))
        }
        ("lastIndexOf", Some(Value::String(s))) if n == 1 => {
            let sub = str_arg(a(0), name)?;
            Ok(Value::Int(
                s.rfind(sub).map_or(-1, |b| s[..b].chars().count() as i64),
            ))
        }
        ("lowerAscii", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.to_ascii_lowercase()))
        }
        ("upperAscii", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.to_ascii_uppercase()))
        }
        ("trim", Some(Value::String(s))) if n == 0 => Ok(Value::string(s.trim())),
        ("replace", Some(Value::String(s))) if (2..=3).contains(&n) => {
            let (from, to) = (str_arg(a(0), name)?, str_arg(a(1), name)?);
            let limit = if n == 3 { int_arg(a(2), name)? } else { -1 };
            Ok(Value::string(&if limit < 0 {
                s.replace(from, to)
            } else {
                s.replacen(from, to, limit as usize)
            }))
        }
        ("split", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sep = str_arg(a(0), name)?;
            let limit = if n == 2 { int_arg(a(1), name)? } else { -1 };
            let parts: Vec<Value> = match limit {
                0 => Vec::new(),
                l if l < 0 => s.split(sep).map(Value::string).collect(),
                l => s.splitn(l as usize, sep).map(Value::string).collect(),
            };
            Ok(list(parts))
        }
        ("substring", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let chars: Vec<char> = s.chars().collect();
            let start = int_arg(a(0), name)?;
            let end = if n == 2 {
                int_arg(a(1), name)?
            } else {
                chars.len() as i64
            };
            // cel-go ext/strings.go substrRange, in its order (the
            // generated cases' upstream verdicts: start, end, then the range).
            let len = chars.len() as i64;
            if start < 0 || start > len {
                return Err(format!("index out of range: {start}"));
            }
            if end < 0 || end > len {
                return Err(format!("index out of range: {end}"));
            }
            if start > end {
                return Err(format!(
                    "invalid substring range. start: {start}, end: {end}"
                ));
            }
            Ok(Value::string(
                &chars[start as usize..end as usize]
                    .iter()
                    .collect::<String>(),
            ))
        }
        ("join", Some(Value::List(l))) if n <= 1 => {
            let sep = if n == 1 { str_arg(a(0), name)? } else { "" };
            let parts: Result<Vec<&str>, String> = l.iter().map(|v| str_arg(v, name)).collect();
            Ok(Value::string(&parts?.join(sep)))
        }
        // Kubernetes regex; its own wording of a bad pattern (regex.go).
        ("find", Some(Value::String(s))) if n == 1 => {
            let re = regex(str_arg(a(0), name)?).map_err(|e| format!("Illegal regex: {e}"))?;
            Ok(Value::string(re.find(s).map_or("", |m| m.as_str())))
        }
        ("findAll", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let re = regex(str_arg(a(0), name)?).map_err(|e| format!("Illegal regex: {e}"))?;
            let limit = if n == 2 { int_arg(a(1), name)? } else { -1 };
            let it = re.find_iter(s).map(|m| Value::string(m.as_str()));
            Ok(list(if limit < 0 {
                it.collect()
            } else {
                it.take(limit as usize).collect()
            }))
        }
        ("reverse", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.chars().rev().collect::<String>()))
        }
        ("format", Some(Value::String(s))) if n == 1 => match a(0) {
            Value::List(args) => {
                crate::cel::strings_format::format(s, args).map(|t| Value::string(&t))
            }
            _ => Err(err()),
        },
        _ => return Ok(None),
    };
    result.map(Some)
}
