//! DRA-V004: pool name missing or malformed.
use super::prelude::*;

declare_rule! {
    id: "DRA-V004", name: "invalid-pool-name", severity: Error, origin: Apiserver,
    summary: "spec.pool.name is missing, longer than 253 characters, or a '/'-separated part is not a DNS subdomain",
    docs: "A pool groups the slices of one driver that the scheduler considers together; its name is usually the node name.",
    example: "spec:\n  pool:\n    name: Node_1\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let Some(pool) = get(spec, "pool") else {
        out.report(
            obj,
            Required,
            "spec.pool.name",
            missing_span(spec),
            "a pool name is required",
        );
        return;
    };
    check_pool_name(obj, pool, "name", "spec.pool.name", out);
}
