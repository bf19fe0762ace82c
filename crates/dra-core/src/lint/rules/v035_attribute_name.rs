//! DRA-V035: attribute name not a qualified name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V035", name: "invalid-attribute-name", severity: Error, origin: Apiserver,
    summary: "An attribute name is not a C identifier or DOMAIN/identifier",
    docs: "Attribute names are a C identifier (at most 32 characters), optionally prefixed by a domain that is a DNS subdomain (at most 63) and a '/'. From 1.35 the error is reported at the attributes map, not at the key. A name with more than one '/' is accepted by every released apiserver (kubernetes/kubernetes#141869) but cannot be used from CEL: kubectl-dra warns.",
    example: "attributes:\n  gpu_example/model: {string: a100}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    check_map_keys(cx, obj, "attributes", out);
}

/// Shared with DRA-V041 (capacity names).
pub(crate) fn check_map_keys(cx: &Ctx<'_>, obj: &Object, map: &str, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, map) {
            if paths_1_34(cx) {
                for (ty, msg) in crate::format::qualified_name_problems_1_34(&a.key) {
                    out.report(
                        obj,
                        ty,
                        format!("spec.devices[{i}].{map}[{}]", a.key),
                        a.key_span,
                        format!("{:?}: {msg}", a.key),
                    );
                }
                continue;
            }
            // 1.35's validateMap checks a key at its entry's path; from 1.36
            // at the map's (validation-releases.md, "Map key errors").
            let path = if cx.gates.version <= crate::gates::Version::V1_35 {
                format!("spec.devices[{i}].{map}[{}]", a.key)
            } else {
                format!("spec.devices[{i}].{map}")
            };
            if let Some((ty, msg)) = qualified_name_problem(&a.key) {
                out.report(obj, ty, path, a.key_span, format!("{:?}: {msg}", a.key));
            } else if a.key.matches('/').count() > 1 {
                out.report(obj, Warning, format!("spec.devices[{i}].{map}"), a.key_span, format!("{:?} has more than one '/'", a.key))
                    .note("accepted by released apiservers (kubernetes/kubernetes#141869), but no CEL selector can reach it; a future apiserver rejects it");
            }
        }
    }
}
