//! ext.Sets: `sets.contains`, `sets.equivalent`, `sets.intersects` (evaluated with the namespaced calls).

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
        // ext Sets.
        // `sets.contains(list(T), list(T))` and its two siblings: both
        // arguments lists of one element type.
        ("contains" | "equivalent" | "intersects", Some(T::Dyn))
            if n == 2 && is_namespace_call(target) =>
        {
            let element = |t: &Type| match t {
                T::List(e) => Some((**e).clone()),
                T::Dyn | T::Any => Some(T::Dyn),
                _ => None,
            };
            match (element(a(0)), element(a(1))) {
                (Some(x), Some(y)) => typed(assignable(&x, &y), T::Bool),
                _ => Sig::NoOverload,
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::cel::{Env, Program};

    /// ext/sets.go declares sets.contains, equivalent and intersects on
    /// (list(T), list(T)): with homogeneous literals, lists of two element
    /// types, or a value that is not a list, fit no overload.
    #[test]
    fn sets_take_two_lists_of_one_type() {
        for (e, want) in [
            (
                "sets.contains([1], 1)",
                "'sets.contains' applied to '(list(int), int)'",
            ),
            (
                "sets.intersects([1], ['a'])",
                "'sets.intersects' applied to '(list(int), list(string))'",
            ),
        ] {
            let err = Program::compile(e, &Env::stored_latest()).expect_err(e);
            assert_eq!(
                err.message,
                format!("found no matching overload for {want}")
            );
        }
        assert!(Program::compile("sets.equivalent([], [1])", &Env::stored_latest()).is_ok());
    }
}
