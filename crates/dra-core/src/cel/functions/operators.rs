//! Operators: logical, conditional, equality and ordering, arithmetic, index, optional selection, `in` (cel-go's standard declarations).

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
        (op::LOGICAL_AND | op::LOGICAL_OR, None) if n == 2 => {
            if is(a(0), &T::Bool) && is(a(1), &T::Bool) {
                ok(T::Bool)
            } else {
                Sig::NoOverload
            }
        }
        (op::LOGICAL_NOT, None) if n == 1 => bool_if(is(a(0), &T::Bool)),
        (op::NOT_STRICTLY_FALSE, None) => ok(T::Bool),
        (op::CONDITIONAL, None) if n == 3 => {
            if !is(a(0), &T::Bool) {
                return Some(Sig::NoOverload);
            }
            // `(bool, A, A) -> A`: `true ? 1 : "a"` has no overload.
            match a(1).join(a(2)) {
                Some(t) => ok(t),
                None => Sig::NoOverload,
            }
        }
        (op::EQUALS | op::NOT_EQUALS, None) if n == 2 => {
            if comparable(a(0), a(1)) {
                Sig::Ok(T::Bool, Extra::Equality)
            } else {
                Sig::NoOverload
            }
        }
        (op::LESS | op::LESS_EQUALS | op::GREATER | op::GREATER_EQUALS, None) if n == 2 => {
            let orderable = |t: &Type| {
                matches!(
                    t,
                    T::Int
                        | T::Uint
                        | T::Double
                        | T::String
                        | T::Bytes
                        | T::Bool
                        | T::Duration
                        | T::Timestamp
                        | T::Dyn
                )
            };
            let ok_pair = orderable(a(0))
                && orderable(a(1))
                && (a(0) == a(1)
                    || a(0).is_dyn_like()
                    || a(1).is_dyn_like()
                    || (is_num(a(0)) && is_num(a(1))));
            if ok_pair && (a(0) == &T::String || a(0) == &T::Bytes) && a(0) == a(1) {
                Sig::Ok(T::Bool, Extra::Equality)
            } else {
                bool_if(ok_pair)
            }
        }
        (op::ADD, None) if n == 2 => match (a(0), a(1)) {
            (T::Dyn, t) | (t, T::Dyn) => ok(t.clone()),
            (T::Int, T::Int)
            | (T::Uint, T::Uint)
            | (T::Double, T::Double)
            | (T::String, T::String)
            | (T::Bytes, T::Bytes) => ok(a(0).clone()),
            // `list(A) + list(A)`: the elements must fit one another.
            (T::List(_), T::List(_)) => match a(0).join(a(1)) {
                Some(t) => ok(t),
                None => Sig::NoOverload,
            },
            (T::Duration, T::Duration) => ok(T::Duration),
            (T::Timestamp, T::Duration) | (T::Duration, T::Timestamp) => ok(T::Timestamp),
            _ => Sig::NoOverload,
        },
        (op::SUBSTRACT | op::MULTIPLY | op::DIVIDE | op::MODULO, None) if n == 2 => {
            match (a(0), a(1)) {
                (T::Dyn, t) | (t, T::Dyn) if is_num(t) || t.is_dyn_like() => ok(t.clone()),
                (T::Int, T::Int) | (T::Uint, T::Uint) => ok(a(0).clone()),
                (T::Double, T::Double) if name != op::MODULO => ok(T::Double),
                (T::Duration, T::Duration) | (T::Timestamp, T::Timestamp)
                    if name == op::SUBSTRACT =>
                {
                    ok(T::Duration)
                }
                (T::Timestamp, T::Duration) if name == op::SUBSTRACT => ok(T::Timestamp),
                _ => Sig::NoOverload,
            }
        }
        (op::NEGATE, None) if n == 1 => match a(0) {
            T::Int | T::Double | T::Dyn => ok(a(0).clone()),
            _ => Sig::NoOverload,
        },
        // `_[_]` and `_[?_]` (cel-go's standard and optional declarations):
        // a list with an int, a map with its key type, or either inside an
        // optional; `[?]` and an optional operand give an optional.
        (op::INDEX | op::OPT_INDEX, None) if n == 2 => {
            let (container, in_optional) = match a(0) {
                T::Optional(inner) => (&**inner, true),
                other => (other, false),
            };
            let elem = match container {
                T::List(t) if is(a(1), &T::Int) => (**t).clone(),
                T::Map(k, v) if comparable(k, a(1)) => (**v).clone(),
                T::Dyn | T::Free => T::Dyn,
                _ => return Some(Sig::NoOverload),
            };
            if name == op::OPT_INDEX || in_optional {
                ok(T::Optional(Box::new(elem)))
            } else {
                ok(elem)
            }
        }
        // Typed by the checker as the field selection it is.
        (op::OPT_SELECT, None) if n == 2 => ok(T::Optional(Box::new(T::Dyn))),
        // `@in` is (A, list(A)) or (A, map(A, B)).
        (op::IN, None) if n == 2 => match a(1) {
            T::List(k) if comparable(k, a(0)) => Sig::Ok(T::Bool, Extra::InList),
            T::Map(k, _) => typed(comparable(k, a(0)), T::Bool),
            T::Dyn => Sig::Ok(T::Bool, Extra::InList),
            _ => Sig::NoOverload,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    /// cel-go's standard declarations (common/stdlib/standard.go v0.26.0):
    /// `_==_` and `_!=_` take (A, A), `_[_]` a list with an int or a map
    /// with its key type, `@in` (A, list(A)) or (A, map(A, B)); only the
    /// ordering operators compare across numeric types
    /// (CrossTypeNumericComparisons). A dyn operand fits any of them.
    #[test]
    fn operators_take_what_cel_go_declares() {
        let run = |e: &str| super::super::run_on("name: d\n", e);
        for (e, want) in [
            ("1 == 1.0", "'_==_' applied to '(int, double)'"),
            ("1 != 1u", "'_!=_' applied to '(int, uint)'"),
            (
                "[1] == [1.0]",
                "'_==_' applied to '(list(int), list(double))'",
            ),
            ("[1, 2][0u] == 1", "'_[_]' applied to '(list(int), uint)'"),
            (
                "{1: 'a'}[1.0] == 'a'",
                "'_[_]' applied to '(map(int, string), double)'",
            ),
            ("1 in ['a']", "'@in' applied to '(int, list(string))'"),
            (
                "'a' in {1: 2}",
                "'@in' applied to '(string, map(int, int))'",
            ),
        ] {
            assert_eq!(
                run(e),
                Err(format!("found no matching overload for {want}")),
                "{e}"
            );
        }
        for e in [
            "1 < 1.5 && 2u > 1 && 1.0 <= 1",
            "dyn(1) == 1.0",
            "1 in [dyn(1)]",
            "'a' in {'a': 1}",
            "[1, 2][dyn(0)] == 1",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
    }

    /// One type parameter takes both sides (cel-go v0.26.0 checker.go
    /// resolveOverload, types.go internalIsAssignable and mostGeneral):
    /// `_?_:_` is (bool, A, A), list `_+_` (list(A), list(A)), `orValue`
    /// (optional(A), A) and `or` (optional(A), optional(A)). Sides that do
    /// not fit one another have no overload; `dyn` fits anything, a free
    /// parameter (`[]`, `optional.none()`) is bound by the other side, and
    /// `null` fits only the nullable (opaque, duration, timestamp) types.
    #[test]
    fn a_type_parameter_takes_both_sides() {
        let run = |e: &str| super::super::run_on("name: d\n", e);
        for (e, want) in [
            (
                "(true ? 1 : 'a') == 1",
                "'_?_:_' applied to '(bool, int, string)'",
            ),
            (
                "(true ? 1u : 1) == 1u",
                "'_?_:_' applied to '(bool, uint, int)'",
            ),
            (
                "(true ? null : 1) == 1",
                "'_?_:_' applied to '(bool, null_type, int)'",
            ),
            (
                "([1] + ['a']).size() == 2",
                "'_+_' applied to '(list(int), list(string))'",
            ),
            (
                "optional.of(1).orValue('a') == 1",
                "'orValue' applied to 'optional_type(int).(string)'",
            ),
            (
                "optional.of(1).or(optional.of('a')).hasValue()",
                "'or' applied to 'optional_type(int).(optional_type(string))'",
            ),
        ] {
            assert_eq!(
                run(e),
                Err(format!("found no matching overload for {want}")),
                "{e}"
            );
        }
        for e in [
            "(true ? 1 : dyn(2)) == 1",
            "(true ? [] : [1]) == []",
            "([1] + [dyn('a')]).size() == 2",
            "([] + [1]) == [1]",
            "optional.none().orValue(1) == 1",
            "optional.of(1).or(optional.none()).hasValue()",
            "(true ? null : duration('1s')) == null",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
    }

    /// An attribute value is declared `any`, which cel-go's checker treats
    /// as `dyn` at any depth (types.go isDyn: DynKind and AnyKind), so a
    /// list or map holding one compares with a list or map of strings.
    #[test]
    fn any_fits_at_any_depth() {
        let device = "name: d\nattributes:\n  model: {string: a}\n";
        let run = |e: &str| super::super::run_on(device, e);
        for e in [
            "[device.attributes['d.example.com'].model] == ['a']",
            "{'m': device.attributes['d.example.com'].model} == {'m': 'a'}",
            "'a' in [device.attributes['d.example.com'].model]",
            "device.attributes['d.example.com'] == {'model': 'a'}",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
    }
}
