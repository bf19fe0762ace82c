//! DRA-V043: too many taints on a device.
use super::prelude::*;

declare_rule! {
    id: "DRA-V043", name: "too-many-taints", severity: Error, origin: Apiserver, releases: "1.34+ (limit differs in 1.34)",
    summary: "A device has more than 16 taints (4 before 1.35)",
    docs: "Device taints (DRADeviceTaints) are limited per device.",
    example: "taints: [... 17 taints ...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let max = max_taints(cx.gates.version);
    for (i, d) in devices(cx.gates.version, obj) {
        check_too_many(
            obj,
            d,
            "taints",
            format_args!("spec.devices[{i}].taints"),
            max,
            "taints",
            out,
        );
    }
}

/// The taints of a device that the apiserver validates one by one.
pub(crate) fn taints<'a>(cx: &Ctx<'_>, d: &'a Node) -> &'a [Node] {
    let t = items(d, "taints");
    if !items_validated(cx.gates.version, t.len(), max_taints(cx.gates.version)) {
        &[]
    } else {
        t
    }
}

/// A taint that `validateDeviceTaint` checks: each device taint of a
/// ResourceSlice, and the one taint of a DeviceTaintRule (`spec.taint`,
/// a struct: when it is missing its fields are empty).
pub(crate) struct TaintAt<'a> {
    pub path: String,
    pub node: Option<&'a Node>,
    /// Where to point when a field is missing.
    pub span: crate::tree::Span,
}

pub(crate) const TAINTED: &[ObjectKind] = &[ResourceSlice, DeviceTaintRule];

pub(crate) fn all_taints<'a>(cx: &Ctx<'_>, obj: &'a Object) -> Vec<TaintAt<'a>> {
    if obj.kind == DeviceTaintRule {
        let spec = obj.spec();
        let node = spec.and_then(|s| get(s, "taint"));
        let span = node.or(spec).map_or(obj.root.span, |n| n.span);
        return vec![TaintAt {
            path: "spec.taint".into(),
            node,
            span,
        }];
    }
    let mut out = Vec::new();
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, t) in taints(cx, d).iter().enumerate() {
            out.push(TaintAt {
                path: format!("spec.devices[{i}].taints[{j}]"),
                node: Some(t),
                span: t.span,
            });
        }
    }
    out
}
