//! ext.Strings (version 2, the base environment's: no string `reverse`) and the Kubernetes regex library (`find`, `findAll`); `format`.

use super::*;

/// The declared result type of a call of this family, or `None` when the
/// family declares no such call.
pub(super) fn signature(
    name: &str,
    target: Option<&Type>,
    args: &[&Type],
    env: &Env,
) -> Option<Sig> {
    let _ = env;
    const S: Type = T::String;
    const I: Type = T::Int;
    let strings = || T::List(Box::new(T::String));
    // The overloads cel-go v0.26/v0.27 declares (ext/strings.go at
    // StringsVersion(2), the base environment's; Kubernetes' regex.go):
    // a call that fits none is the checker's "no matching overload".
    let fits = |receiver: &Type, params: &[Type]| member(target, args, receiver, params);
    // Estimates: the Kubernetes library's CostEstimator, which cel-go asks
    // before its own table (checker/cost.go functionCost).
    let estimated = |result: Type, extra: Extra, overloads: &[&[Type]]| {
        if overloads.iter().any(|p| fits(&S, p)) {
            Sig::Ok(result, extra)
        } else {
            Sig::NoOverload
        }
    };
    Some(match (name, target) {
        // ext Strings.
        ("charAt", Some(_)) => typed(fits(&S, &[I]), T::String),
        // A dyn receiver with one argument may be a list (the Kubernetes
        // lists library's indexOf): left to that family.
        ("indexOf" | "lastIndexOf", Some(t)) if *t == T::String || args.len() == 2 => {
            estimated(T::Int, Extra::Traversal(0.1), &[&[S], &[S, I]])
        }
        ("lowerAscii" | "upperAscii" | "trim", Some(_)) => {
            estimated(T::String, Extra::Traversal(0.1), &[&[]])
        }
        ("replace", Some(_)) => estimated(T::String, Extra::Traversal(0.2), &[&[S, S], &[S, S, I]]),
        ("split", Some(_)) => estimated(strings(), Extra::Traversal(0.2), &[&[S], &[S, I]]),
        ("substring", Some(_)) => estimated(T::String, Extra::Traversal(0.1), &[&[I], &[I, I]]),
        ("join", Some(_)) => {
            if [&[][..], &[S][..]]
                .iter()
                .any(|p| member(target, args, &strings(), p))
            {
                Sig::Ok(T::String, Extra::Join)
            } else {
                Sig::NoOverload
            }
        }
        // cel-go's ExtFormatString: the format string's length.
        ("format", Some(_)) => estimated(
            T::String,
            Extra::Traversal(0.1),
            &[&[T::List(Box::new(T::Dyn))]],
        ),
        // `strings.quote(s)`, a namespaced global.
        ("quote", Some(T::Dyn)) => {
            if args.len() == 1 && assignable(&S, args[0]) {
                Sig::Ok(T::String, Extra::ArgTraversal)
            } else {
                Sig::NoOverload
            }
        }
        // Kubernetes regex, estimated as `matches` is.
        ("find", Some(_)) => estimated(T::String, Extra::Matches, &[&[S]]),
        ("findAll", Some(_)) => estimated(strings(), Extra::Matches, &[&[S], &[S, I]]),
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
        // indexOfOffset and lastIndexOfOffset (ext/strings.go): an empty
        // substring is found at the offset, whatever it is; only a negative
        // offset is an error, one past the end finds nothing.
        ("indexOf", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sub = str_arg(a(0), name)?;
            let offset = if n == 2 { int_arg(a(1), name)? } else { 0 };
            index_of(s, sub, offset).map(Value::Int)
        }
        ("lastIndexOf", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sub = str_arg(a(0), name)?;
            if n == 2 {
                last_index_of(s, sub, int_arg(a(1), name)?).map(Value::Int)
            } else if sub.is_empty() {
                Ok(Value::Int(s.chars().count() as i64))
            } else if s.len() < sub.len() {
                Ok(Value::Int(-1))
            } else {
                last_index_of(s, sub, s.chars().count() as i64 - 1).map(Value::Int)
            }
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
            Ok(list(go_split(s, sep, limit).map(Value::string).collect()))
        }
        ("substring", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let chars: Vec<char> = s.chars().collect();
            let start = int_arg(a(0), name)?;
            let end = if n == 2 {
                int_arg(a(1), name)?
            } else {
                chars.len() as i64
            };
            // cel-go ext/strings.go: substring(start) is substr, which
            // checks the start alone; substring(start, end) is substrRange,
            // which checks the range first, then each end (v0.20 to v0.27
            // alike).
            let len = chars.len() as i64;
            if n == 2 && start > end {
                return Err(format!(
                    "invalid substring range. start: {start}, end: {end}"
                ));
            }
            if start < 0 || start > len {
                return Err(format!("index out of range: {start}"));
            }
            if end < 0 || end > len {
                return Err(format!("index out of range: {end}"));
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

/// What indexOfOffset and lastIndexOfOffset share (ext/strings.go): an
/// empty substring is found at the offset, a negative offset is an error,
/// an offset at or past the end finds nothing; otherwise `search` runs over
/// the runes of both from the offset.
fn offset_search(
    s: &str,
    sub: &str,
    offset: i64,
    search: impl Fn(&[char], &[char], usize) -> Option<usize>,
) -> Result<i64, String> {
    if sub.is_empty() {
        return Ok(offset);
    }
    if offset < 0 {
        return Err(format!("index out of range: {offset}"));
    }
    let runes: Vec<char> = s.chars().collect();
    let sub: Vec<char> = sub.chars().collect();
    let from = usize::try_from(offset).unwrap_or(usize::MAX);
    if from >= runes.len() {
        return Ok(-1);
    }
    Ok(search(&runes, &sub, from).map_or(-1, |i| i as i64))
}

/// ext/strings.go indexOfOffset: the first match at or after the offset.
fn index_of(s: &str, sub: &str, offset: i64) -> Result<i64, String> {
    offset_search(s, sub, offset, |runes, sub, from| {
        runes[from..]
            .windows(sub.len())
            .position(|w| w == sub)
            .map(|i| from + i)
    })
}

/// ext/strings.go lastIndexOfOffset: the last match starting at or before
/// the offset.
fn last_index_of(s: &str, sub: &str, offset: i64) -> Result<i64, String> {
    offset_search(s, sub, offset, |runes, sub, off| {
        let last = off.min(runes.len().checked_sub(sub.len())?);
        (0..=last).rev().find(|&i| runes[i..i + sub.len()] == *sub)
    })
}

/// Go's strings.SplitN (Split is SplitN with -1): an empty separator
/// splits after each rune, the last piece keeping the rest; 0 pieces
/// for a limit of 0.
fn go_split<'s>(s: &'s str, sep: &'s str, limit: i64) -> Box<dyn Iterator<Item = &'s str> + 's> {
    let max = usize::try_from(limit).ok();
    match (max, sep.is_empty()) {
        (Some(0), _) => Box::new(std::iter::empty()),
        (_, true) => {
            let count = s.chars().count();
            let pieces = max.map_or(count, |m| m.min(count));
            let mut rest = s;
            Box::new((0..pieces).map(move |k| {
                let cut = if k + 1 == pieces {
                    rest.len()
                } else {
                    rest.chars().next().map_or(0, char::len_utf8)
                };
                let (piece, tail) = rest.split_at(cut);
                rest = tail;
                piece
            }))
        }
        (Some(m), false) => Box::new(s.splitn(m, sep)),
        (None, false) => Box::new(s.split(sep)),
    }
}

/// ext/strings.go quote: CEL's escapes for the nine characters it names,
/// every other character as it is.
pub(super) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    /// Compiles for the scheduler (every library) and evaluates on a device
    /// whose `model` attribute is "A100-SXM" (typed `any`, as attributes are).
    fn run(expr: &str) -> Result<bool, String> {
        super::super::run_on("name: d\nattributes:\n  model: {string: A100-SXM}\n", expr)
    }

    /// cel-go v0.26.0/v0.27.0 ext/strings.go (identical in both):
    /// indexOfOffset, lastIndexOf(Offset), substr against substrRange,
    /// strings.Split/SplitN on an empty separator, quote.
    #[test]
    fn string_functions_as_cel_go_computes_them() {
        let model = "device.attributes[\"d.example.com\"].model";
        for e in [
            // An empty substring is found at the offset, any offset.
            "'abc'.indexOf('', 7) == 7".to_string(),
            "'abc'.indexOf('', -1) == -1".into(),
            // An offset at or past the end finds nothing; no error.
            "'abc'.indexOf('a', 3) == -1".into(),
            "'abc'.indexOf('a', 10) == -1".into(),
            "'aXbX'.indexOf('X', 2) == 3".into(),
            // lastIndexOf with an offset: the last match starting there or before.
            "'abcabc'.lastIndexOf('bc', 3) == 1".into(),
            "'abcabc'.lastIndexOf('bc', 4) == 4".into(),
            "'abcabc'.lastIndexOf('bc', 10) == -1".into(),
            "'abc'.lastIndexOf('', 10) == 10".into(),
            "'abc'.lastIndexOf('') == 3".into(),
            "'ab'.lastIndexOf('abc') == -1".into(),
            // Runes, not bytes.
            "'éaé'.lastIndexOf('é') == 2".into(),
            "'éaé'.indexOf('a', 1) == 1".into(),
            // Go's Split("", sep) explodes into runes, the last piece the rest.
            "'abc'.split('') == ['a', 'b', 'c']".into(),
            "''.split('') == []".into(),
            "''.split(',') == ['']".into(),
            "'abc'.split('', 2) == ['a', 'bc']".into(),
            "'abc'.split('', 0) == []".into(),
            "'a,b,c'.split(',', 2) == ['a', 'b,c']".into(),
            // An `any` receiver takes the two-argument overloads.
            format!("{model}.indexOf('X', 100) == -1"),
            format!("{model}.lastIndexOf('S', 5) == 5"),
            // quote escapes CEL's nine and leaves the rest as it is.
            "strings.quote('a\\u0001é\"\\\\') == '\"a\\u0001é\\\\\"\\\\\\\\\"'".into(),
        ] {
            assert_eq!(run(&e), Ok(true), "{e}");
        }
    }

    /// substring(start) checks the start alone (substr); substring(start,
    /// end) checks the range first (substrRange), then each end; a negative
    /// offset of indexOf is an error.
    #[test]
    fn string_errors_in_cel_go_order() {
        for (e, want) in [
            ("'abc'.substring(5) == ''", "index out of range: 5"),
            (
                "'abc'.substring(10, 2) == ''",
                "invalid substring range. start: 10, end: 2",
            ),
            (
                "'abc'.substring(1, -1) == ''",
                "invalid substring range. start: 1, end: -1",
            ),
            ("'abc'.substring(-1, 2) == ''", "index out of range: -1"),
            ("'abc'.substring(1, 4) == ''", "index out of range: 4"),
            ("'abc'.indexOf('a', -1) == 0", "index out of range: -1"),
            ("'abc'.lastIndexOf('a', -2) == 0", "index out of range: -2"),
            ("'abc'.charAt(4) == ''", "index out of range: 4"),
        ] {
            assert_eq!(run(e), Err(want.to_string()), "{e}");
        }
    }

    /// The checker refuses what no declared overload takes, in cel-go's
    /// words (checker/errors.go noMatchingOverload, format.go: a member
    /// call shows its receiver before the dot). StringsVersion(2) declares
    /// no string `reverse` (that is version 3).
    #[test]
    fn calls_no_overload_takes_do_not_compile() {
        for (e, want) in [
            (
                "'abc'.charAt('x') == 'a'",
                "'charAt' applied to 'string.(string)'",
            ),
            (
                "'abc'.indexOf(1) == 0",
                "'indexOf' applied to 'string.(int)'",
            ),
            (
                "'abc'.split(1).size() == 1",
                "'split' applied to 'string.(int)'",
            ),
            (
                "'abc'.replace('a', 1) == ''",
                "'replace' applied to 'string.(string, int)'",
            ),
            (
                "'abc'.substring('a') == ''",
                "'substring' applied to 'string.(string)'",
            ),
            ("[1].join() == ''", "'join' applied to 'list(int).()'"),
            (
                "['a'].join(1) == ''",
                "'join' applied to 'list(string).(int)'",
            ),
            (
                "'abc'.reverse() == 'cba'",
                "'reverse' applied to 'string.()'",
            ),
            (
                "'abc'.format(1) == ''",
                "'format' applied to 'string.(int)'",
            ),
            ("'abc'.find(1) == ''", "'find' applied to 'string.(int)'"),
            (
                "strings.quote(1) == ''",
                "'strings.quote' applied to '(int)'",
            ),
        ] {
            let got = run(e).expect_err(e);
            assert_eq!(got, format!("found no matching overload for {want}"), "{e}");
        }
    }
}
