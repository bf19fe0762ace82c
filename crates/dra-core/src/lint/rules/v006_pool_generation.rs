//! DRA-V006: negative pool generation.
use super::prelude::*;

declare_rule! {
    id: "DRA-V006", name: "negative-pool-generation", severity: Error, origin: Apiserver,
    summary: "spec.pool.generation is negative",
    docs: "The generation increases whenever the driver republishes the pool; consumers use only the slices with the highest generation.",
    example: "spec:\n  pool:\n    name: node-1\n    generation: -1\n    resourceSliceCount: 1\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj
        .spec()
        .and_then(|s| get(s, "pool"))
        .and_then(|p| get(p, "generation"))
    else {
        return;
    };
    if n.as_i64().is_some_and(|g| g < 0) {
        out.report(
            obj,
            Invalid,
            "spec.pool.generation",
            n.span,
            "must be greater than or equal to zero",
        );
    }
}
