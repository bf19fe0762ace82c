//! DRA-V019: partitionTypeAttribute on a slice without partitions.
use super::prelude::*;

declare_rule! {
    id: "DRA-V019", name: "partition-type-without-partitions", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "partitionTypeAttribute is set on a slice where no device consumes counters",
    docs: "The partition type attribute describes partitions of a shared device; it only makes sense in a slice whose devices consume counters. Alpha in 1.37 (DRAPartitionableDevicesType).",
    example: "spec:\n  partitionTypeAttribute: gpu.example.com/profile\n  devices: [{name: gpu-0}]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(e) = obj.spec().and_then(|s| entry(s, "partitionTypeAttribute")) else {
        return;
    };
    if !devices(cx.gates.version, obj).any(|(_, d)| !items(d, "consumesCounters").is_empty()) {
        out.report(
            obj,
            Invalid,
            "spec.partitionTypeAttribute",
            e.value.span,
            "may only be set on a slice which declares devices that consume counters",
        );
    }
}
