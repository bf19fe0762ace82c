//! ext.Lists and the Kubernetes lists library; `includes` on list-type attributes (DRAListTypeAttributes).

use super::*;

/// ResourceSliceMaxAttributeValuesPerDevice: the longest list `includes`
/// searches, and its estimated cost.
const INCLUDES_MAX_VALUES: usize = 48;

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
    // The element type of a list receiver: `dyn` for a dyn one (its type
    // parameter is unbound), `None` for anything that is not a list.
    let element = match target {
        Some(T::List(e)) => Some((**e).clone()),
        Some(T::Dyn) => Some(T::Dyn),
        _ => None,
    };
    let list_of = |e: &Type| T::List(Box::new(e.clone()));
    Some(match (name, target) {
        // ext.Lists (version 3) joins the base environment in 1.34, so a new
        // expression sees it from Kubernetes 1.35 (compatibility version
        // n-1; apiserver/pkg/cel/environment/base.go).
        ("slice" | "flatten" | "distinct" | "sort" | "reverse", Some(T::List(_) | T::Dyn))
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
        // Declared per element type (templatedOverloads over the
        // comparable or summable types), so a list of lists has no `sort`.
        ("isSorted", Some(T::List(e))) if n == 0 && comparable_element(e) => ok(T::Bool),
        ("isSorted", Some(T::Dyn)) if n == 0 => ok(T::Bool),
        ("min" | "max", Some(T::List(e))) if n == 0 && comparable_element(e) => ok((**e).clone()),
        ("sum", Some(T::List(e)))
            if n == 0
                && matches!(
                    **e,
                    T::Int | T::Uint | T::Double | T::Duration | T::Dyn | T::Any | T::Free
                ) =>
        {
            ok((**e).clone())
        }
        ("sum" | "min" | "max", Some(T::Dyn)) if n == 0 => ok(T::Dyn),
        // `list(T).indexOf(T)` (library/lists.go): the value must be of the
        // element's type.
        ("indexOf" | "lastIndexOf", Some(_)) => match &element {
            Some(e) if n == 1 && assignable(e, a(0)) => Sig::Ok(
                T::Int,
                Extra::ListScan {
                    sized_elements: !matches!(e, T::String | T::Bytes),
                },
            ),
            _ => Sig::NoOverload,
        },
        ("slice", Some(_)) => match &element {
            Some(e) if n == 2 && assignable(&T::Int, a(0)) && assignable(&T::Int, a(1)) => {
                ok(list_of(e))
            }
            _ => Sig::NoOverload,
        },
        // `flatten()` takes a list of lists (list(list(T)) -> list(T));
        // `flatten(n)` any list, to list(dyn).
        ("flatten", Some(_)) if n == 0 => match &element {
            Some(T::List(inner)) => ok(T::List(inner.clone())),
            Some(T::Dyn | T::Any) => ok(list_of(&T::Dyn)),
            _ => Sig::NoOverload,
        },
        ("flatten", Some(_)) => typed(
            element.is_some() && n == 1 && assignable(&T::Int, a(0)),
            list_of(&T::Dyn),
        ),
        ("sort", Some(_)) => match &element {
            Some(e) if n == 0 && comparable_element(e) => ok(list_of(e)),
            _ => Sig::NoOverload,
        },
        ("distinct" | "reverse", Some(_)) => match &element {
            Some(e) if n == 0 => ok(list_of(e)),
            _ => Sig::NoOverload,
        },
        // The optional library's `first` and `last` (cel.OptionalTypes at
        // its latest version, in the base environment since 1.28).
        ("first" | "last", Some(_)) => match &element {
            Some(e) if n == 0 => ok(T::Optional(Box::new(e.clone()))),
            _ => Sig::NoOverload,
        },
        ("unwrapOpt", Some(_)) => match &element {
            Some(T::Optional(v)) if n == 0 => ok(list_of(v)),
            Some(T::Dyn) if n == 0 => ok(list_of(&T::Dyn)),
            _ => Sig::NoOverload,
        },
        // `lists.range(n)` and `optional.unwrap(l)`: namespaced globals.
        ("range", Some(T::Dyn)) => typed(n == 1 && assignable(&T::Int, a(0)), list_of(&T::Int)),
        ("unwrap", Some(T::Dyn)) => match (n, a(0)) {
            (1, T::List(v)) => match &**v {
                T::Optional(v) => ok(list_of(v)),
                T::Dyn => ok(list_of(&T::Dyn)),
                _ => Sig::NoOverload,
            },
            (1, T::Dyn) => ok(list_of(&T::Dyn)),
            _ => Sig::NoOverload,
        },
        // List-type attributes (DRAListTypeAttributes): a list attribute, or
        // a scalar one read as a one-element list, includes a value.
        // Estimated as `arg in target` over the longest list an attribute
        // may hold (ResourceSliceMaxAttributeValuesPerDevice).
        ("includes", Some(_)) if n == 1 && env.list_type_attributes => {
            Sig::Ok(T::Bool, Extra::Flat(INCLUDES_MAX_VALUES as f64))
        }
        ("includes", _) => {
            Sig::Gated("undeclared reference to 'includes' (in container '')".into())
        }
        _ => return None,
    })
}

/// The element types the lists libraries declare `sort`, `min`, `max` and
/// `isSorted` for (`comparableTypes`), and dyn.
fn comparable_element(e: &Type) -> bool {
    matches!(
        e,
        T::Int
            | T::Uint
            | T::Double
            | T::Bool
            | T::Duration
            | T::Timestamp
            | T::String
            | T::Bytes
            | T::Dyn
            | T::Any
            | T::Free
    )
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
            // The Kubernetes lists library's wording (library/lists.go cmp).
            best.cloned()
                .ok_or_else(|| format!("{name} called on empty list"))
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
            // ext/lists.go slice: the three refusals, in its order.
            if s < 0 || e < 0 {
                return Err(format!(
                    "cannot slice({s}, {e}), negative indexes not supported"
                ));
            }
            if s > e {
                return Err(format!(
                    "cannot slice({s}, {e}), start index must be less than or equal to end index"
                ));
            }
            if e as usize > l.len() {
                return Err(format!(
                    "cannot slice({s}, {e}), list is length {}",
                    l.len()
                ));
            }
            Ok(list(l[s as usize..e as usize].to_vec()))
        }
        // `flatten()` is `flatten(1)` (ext/lists.go list_flatten).
        ("flatten", Some(Value::List(l))) if n <= 1 => {
            let depth = if n == 1 { int_arg(a(0), name)? } else { 1 };
            if depth < 0 {
                return Err("level must be non-negative".into());
            }
            let mut out = Vec::new();
            flatten_into(l, depth, &mut out);
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
        // ext/lists.go sortListByAssociatedKeys: the first element must be
        // comparable, and every element of its type.
        ("sort", Some(Value::List(l))) if n == 0 => sort_by_associated_keys(l, l),
        ("reverse", Some(Value::List(l))) if n == 0 => Ok(list(l.iter().rev().cloned().collect())),
        ("includes", Some(Value::List(l))) if n == 1 => includes(l, a(0)),
        ("includes", Some(v)) if n == 1 => Ok(Value::Bool(equals(v, a(0)) == Some(true))),
        ("first" | "last", Some(Value::List(l))) if n == 0 => {
            let v = if name == "first" { l.first() } else { l.last() };
            Ok(Value::Optional(v.map(|v| Box::new(v.clone()))))
        }
        // cel/library.go optUnwrap: the present values, in order.
        ("unwrapOpt", Some(Value::List(l))) if n == 0 => unwrap_optionals(l),
        _ => return Ok(None),
    };
    result.map(Some)
}

/// ext/lists.go sortListByAssociatedKeys (`sort()` is the list by itself,
/// `sortBy(v, key)` the list by its keys): the first key must be
/// comparable, and every key of its type.
pub(crate) fn sort_by_associated_keys(l: &[Value], keys: &[Value]) -> R {
    if l.len() != keys.len() {
        return Err(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            l.len(),
            keys.len()
        ));
    }
    let Some(first) = keys.first() else {
        return Ok(list(Vec::new()));
    };
    if compare(first, first).is_none() {
        return Err("list elements must be comparable".into());
    }
    if keys.iter().any(|v| v.type_name() != first.type_name()) {
        return Err("list elements must have the same type".into());
    }
    let mut order: Vec<usize> = (0..l.len()).collect();
    order.sort_by(|&x, &y| compare(&keys[x], &keys[y]).unwrap_or(std::cmp::Ordering::Equal));
    Ok(list(order.into_iter().map(|i| l[i].clone()).collect()))
}

/// cel/library.go optUnwrap (`optional.unwrap(l)`, `l.unwrapOpt()`).
pub(super) fn unwrap_optionals(l: &[Value]) -> R {
    let mut out = Vec::new();
    for v in l {
        match v {
            Value::Optional(Some(v)) => out.push((**v).clone()),
            Value::Optional(None) => {}
            other => return Err(format!("value {} is not optional", go_value(other))),
        }
    }
    Ok(list(out))
}

/// Go's `%v` of a scalar CEL value (cel-go's error texts print values so);
/// other values by their type name.
fn go_value(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Double(d) => crate::cel::go_fmt::g(*d),
        Value::String(s) => s.to_string(),
        other => other.type_name().to_string(),
    }
}

/// ext/lists.go flatten: lists `depth` levels down are spliced in.
fn flatten_into(l: &[Value], depth: i64, out: &mut Vec<Value>) {
    for v in l {
        match v {
            Value::List(inner) if depth > 0 => flatten_into(inner, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}

/// compile.go includesFunc: a list is searched up to the most values an
/// attribute may hold (ResourceSliceMaxAttributeValuesPerDevice, 48);
/// reaching a 49th element is an error, not a bounded miss.
fn includes(l: &[Value], x: &Value) -> R {
    for (i, v) in l.iter().enumerate() {
        if i >= INCLUDES_MAX_VALUES {
            return Err(format!(
                "'includes' function cannot be applied to lists longer than {INCLUDES_MAX_VALUES} values"
            ));
        }
        if equals(v, x) == Some(true) {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

#[cfg(test)]
mod tests {
    fn run(expr: &str) -> Result<bool, String> {
        super::super::run_on("name: d\n", expr)
    }

    /// cel-go v0.27.0 ext/lists.go and the Kubernetes lists library, word
    /// for word.
    #[test]
    fn list_errors_as_upstream_words_them() {
        for (e, want) in [
            (
                "[1, 2].slice(-1, 1) == []",
                "cannot slice(-1, 1), negative indexes not supported",
            ),
            (
                "[1, 2].slice(2, 1) == []",
                "cannot slice(2, 1), start index must be less than or equal to end index",
            ),
            (
                "[1, 2].slice(0, 3) == []",
                "cannot slice(0, 3), list is length 2",
            ),
            ("[[1]].flatten(-1) == []", "level must be non-negative"),
            (
                "[dyn([1]), dyn([2])].sort() == []",
                "list elements must be comparable",
            ),
            (
                // Both `dyn`: `[1, dyn(2u)]` would be the homogeneous-literal
                // validator's compile error in Kubernetes.
                "[dyn(1), dyn(2u)].sort() == []",
                "list elements must have the same type",
            ),
            ("lists.range(0).min() == 0", "min called on empty list"),
            ("lists.range(0).max() == 0", "max called on empty list"),
        ] {
            assert_eq!(run(e), Err(want.to_owned()), "{e}");
        }
        assert_eq!(run("[[[1, 2]], [[3]]].flatten(2) == [1, 2, 3]"), Ok(true));
        assert_eq!(run("[[[1]], [[2]]].flatten() == [[1], [2]]"), Ok(true));
        assert_eq!(run("[[[1]]].flatten(0) == [[[1]]]"), Ok(true));
        // Declared per element type: no overload for a list of lists.
        for e in [
            "[[1]].sort() == [[1]]",
            "[[1]].min() == [1]",
            "[\"a\"].sum() == \"a\"",
            "[1].flatten() == [1]",
        ] {
            let err = run(e).unwrap_err();
            assert!(err.contains("found no matching overload"), "{e}: {err}");
        }
    }

    /// What the optional library declares at its latest version (the base
    /// environment's cel.OptionalTypes(), cel/library.go): `first`, `last`,
    /// `unwrapOpt` and `optional.unwrap`; genRange's empty list below 1;
    /// and the argument types each list overload declares.
    #[test]
    fn list_overloads_as_declared() {
        for e in [
            "[1, 2].last().value() == 2",
            "[].first().hasValue() == false",
            "[optional.of(1), optional.of(2)].unwrapOpt() == [1, 2]",
            "optional.unwrap([optional.of('a')]) == ['a']",
            "lists.range(-2) == []",
            "lists.range(3) == [0, 1, 2]",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
        for (e, want) in [
            (
                "[1].indexOf('a') == 0",
                "'indexOf' applied to 'list(int).(string)'",
            ),
            (
                "[1, 2].slice(0, 'a') == []",
                "'slice' applied to 'list(int).(int, string)'",
            ),
            (
                "[1].flatten('a') == []",
                "'flatten' applied to 'list(int).(string)'",
            ),
            (
                "lists.range('a') == []",
                "'lists.range' applied to '(string)'",
            ),
            ("'ab'.distinct() == []", "'distinct' applied to 'string.()'"),
        ] {
            assert_eq!(
                run(e),
                Err(format!("found no matching overload for {want}")),
                "{e}"
            );
        }
    }

    /// ext/lists.go's sortBy macro (ListsVersion 2+): the list ordered by
    /// each element's key, sortListByAssociatedKeys' errors, the macro's
    /// own refusals (sortByMacro, parser.MakeMap), and a key type with no
    /// @sortByAssociatedKeys overload (the comparable types only).
    #[test]
    fn sort_by_as_the_macro_expands() {
        for e in [
            "[1, 3, 2].sortBy(x, -x) == [3, 2, 1]",
            "['bb', 'a', 'ccc'].sortBy(s, s.size()) == ['a', 'bb', 'ccc']",
            "lists.range(3).sortBy(i, -i) == [2, 1, 0]",
            "[].sortBy(x, x) == []",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
        for (e, want) in [
            (
                "[1, 2].sortBy(x, x > 1 ? dyn(1) : dyn('a')) == [1, 2]",
                "list elements must have the same type".to_string(),
            ),
            (
                "{'a': 1}.sortBy(x, x) == []",
                "sortBy can only be applied to a list, identifier, comprehension, call or select expression".into(),
            ),
            ("[1].sortBy(1, 1) == [1]", "argument is not an identifier".into()),
            (
                "[1, 2].sortBy(x, [x]) == [1, 2]",
                "found no matching overload for '@sortByAssociatedKeys' applied to 'list(int).(list(list(int)))'".into(),
            ),
        ] {
            assert_eq!(run(e), Err(want), "{e}");
        }
    }

    /// compile.go includesFunc (1.36, 1.37): up to 48 values are searched;
    /// reaching a 49th is an error.
    #[test]
    fn includes_stops_at_the_attribute_value_limit() {
        let run = |e: &str| super::super::run_on("name: d\n", e);
        assert_eq!(run("lists.range(100).includes(47)"), Ok(true));
        assert_eq!(run("lists.range(48).includes(99)"), Ok(false));
        assert_eq!(
            run("lists.range(100).includes(48)"),
            Err("'includes' function cannot be applied to lists longer than 48 values".into())
        );
        assert_eq!(run("7.includes(7.0)"), Ok(true));
    }
}
