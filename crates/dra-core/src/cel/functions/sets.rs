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
        ("contains" | "equivalent" | "intersects", Some(T::Dyn))
            if n == 2 && is_namespace_call(target) =>
        {
            ok(T::Bool)
        }
        _ => return None,
    })
}
