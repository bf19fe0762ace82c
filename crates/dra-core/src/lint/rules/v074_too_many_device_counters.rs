//! DRA-V074: in 1.34, too many consumed counters per device or per slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V074", name: "too-many-consumed-counters", severity: Error, origin: Apiserver, releases: "1.34",
    summary: "Kubernetes 1.34: a device consumes more than 32 counters, or a slice's devices more than 1024",
    docs: "Kubernetes 1.34 limits the counters a device names across all its consumesCounters entries to 32 (ResourceSliceMaxCountersPerDevice: Invalid at the device) and the counters named by all devices of a slice to 1024 (ResourceSliceMaxDeviceCountersPerSlice: Invalid at spec.devices). 1.35 replaced both with per-entry limits (DRA-V067, DRA-V070).",
    example: "# --kubernetes-version 1.34\nconsumesCounters: [... 33 counters over its entries ...]\n",
    check: Check::Object(SLICES, check),
}

const PER_DEVICE: usize = 32;
const PER_SLICE: usize = 1024;

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version >= Version::V1_35 {
        return;
    }
    let mut total = 0usize;
    for (i, d) in devices(cx.gates.version, obj) {
        let n: usize = items(d, "consumesCounters")
            .iter()
            .map(|c| entries(c, "counters").len())
            .sum();
        total = total.saturating_add(n);
        if n > PER_DEVICE {
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}]"),
                d.span,
                format!("the total number of counters must not exceed {PER_DEVICE} ({n} here)"),
            );
        }
    }
    if total > PER_SLICE {
        let spec = obj.spec().unwrap_or(&obj.root);
        let span = entry(spec, "devices").map_or(spec.span, |e| e.key_span);
        out.report(
            obj,
            Invalid,
            "spec.devices",
            span,
            format!("the total number of counters in devices must not exceed {PER_SLICE} ({total} here)"),
        );
    }
}
