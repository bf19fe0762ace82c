//! DRA-V005: resourceSliceCount not positive.
use super::prelude::*;

declare_rule! {
    id: "DRA-V005", name: "invalid-resource-slice-count", severity: Error, origin: Apiserver,
    summary: "spec.pool.resourceSliceCount is not greater than zero",
    docs: "resourceSliceCount is the number of slices in the pool at this generation; the scheduler uses it to know whether it has seen the whole pool.",
    example: "spec:\n  pool:\n    name: node-1\n    resourceSliceCount: 0\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    // A missing pool is a zero ResourcePool: validateResourcePool fails its
    // count as well as its name.
    let Some(pool) = get(spec, "pool") else {
        out.report(
            obj,
            Invalid,
            "spec.pool.resourceSliceCount",
            missing_span(spec),
            "must be greater than zero (spec.pool is unset)",
        );
        return;
    };
    match get(pool, "resourceSliceCount") {
        Some(n) => {
            if let Some(c) = n.as_i64() {
                if c <= 0 {
                    out.report(
                        obj,
                        Invalid,
                        "spec.pool.resourceSliceCount",
                        n.span,
                        format!("must be greater than zero, got {c}"),
                    );
                }
            }
        }
        None => {
            out.report(
                obj,
                Invalid,
                "spec.pool.resourceSliceCount",
                missing_span(pool),
                "must be greater than zero (it is unset)",
            );
        }
    }
}
