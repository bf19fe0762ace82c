//! DRA-D001: a field the apiserver strips because its feature gate is off.
use super::prelude::*;

declare_rule! {
    id: "DRA-D001", name: "dropped-field", severity: Warning, origin: Decode,
    summary: "A field the apiserver silently drops because its feature gate is off",
    docs: "When a DRA feature gate is off, kube-apiserver clears the fields of that feature on create (strategy PrepareForCreate) and stores the object without them: no error, no warning. On update (`--stored`, `--cluster`) a gate's fields are kept when the stored object already uses that gate's fields (each `dropDisabled*Fields(new, old)` returns early when its `*FeatureInUse(old)`), in every release. The claim or slice then behaves differently than written (e.g. a device loses its counters, a request its tolerations). The finding names the gate and the first version where it is on by default. Validation then runs on the stripped object, so dropping can cause errors of its own (a request left without `exactly` or `firstAvailable`, a constraint left without an attribute). Per release: a constraint's `distinctAttribute` is dropped only from 1.35 (1.34's strategy cleared a copy of each constraint, so the field survived; kubernetes/kubernetes#134962).",
    example: "# Kubernetes 1.35 (DRAPartitionableDevices off by default)\nspec:\n  sharedCounters:\n  - name: gpu-0\n    counters: {memory: {value: 80Gi}}\n",
    check: Check::Loader,
    fix: &crate::fix::builders::REMOVE_DROPPED,
}
