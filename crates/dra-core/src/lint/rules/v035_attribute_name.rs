//! DRA-V035: attribute name not a qualified name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V035", name: "invalid-attribute-name", severity: Error, origin: Apiserver,
    summary: "An attribute name is not a C identifier or DOMAIN/identifier",
    docs: "Attribute names are a C identifier (at most 32 characters), optionally prefixed by a domain that is a DNS subdomain (at most 63) and a '/'. From 1.35 the error is reported at the attributes map, not at the key. A name with more than one '/' is accepted up to 1.36 (kubernetes/kubernetes#141869) but cannot be used from CEL: kubectl-dra warns; the 1.37 line (kubernetes/kubernetes@009801d) rejects it. In 1.34 an empty name or part is Required, later Invalid.",
    example: "attributes:\n  gpu_example/model: {string: a100}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    check_map_keys(cx, obj, "attributes", out);
}

/// Shared with DRA-V041 (capacity names). `validateMap` with
/// `validateQualifiedName` of the release: 1.34 and 1.35 check a key at its
/// entry's path (shortened past 96 characters), 1.36 on at the map's
/// (validation-releases.md, "Map key errors").
pub(crate) fn check_map_keys(cx: &Ctx<'_>, obj: &Object, map: &str, out: &mut Sink<'_>) {
    let v = cx.gates.version;
    for (i, d) in devices(v, obj) {
        for a in entries(d, map) {
            let path = if v <= crate::gates::Version::V1_35 {
                format!(
                    "spec.devices[{i}].{map}[{}]",
                    crate::format::truncated_key(&a.key, ATTRIBUTE_KEY_PATH_MAX)
                )
            } else {
                format!("spec.devices[{i}].{map}")
            };
            let errors = crate::format::qualified_name_errors(v, &a.key);
            if errors.is_empty() && a.key.matches('/').count() > 1 {
                out.report(obj, Warning, format!("spec.devices[{i}].{map}"), a.key_span, format!("{:?} has more than one '/'", a.key))
                    .note("accepted by apiservers up to 1.36 (kubernetes/kubernetes#141869), but no CEL selector can reach it; 1.37 rejects it");
            }
            for (ty, msg) in errors {
                out.report(
                    obj,
                    ty,
                    path.clone(),
                    a.key_span,
                    format!("{:?}: {msg}", a.key),
                );
            }
        }
    }
}

/// `attributeAndCapacityMaxKeyLength`: a domain, '/' and an identifier.
const ATTRIBUTE_KEY_PATH_MAX: usize = 63 + 1 + 32;
