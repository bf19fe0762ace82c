//! DRA-E003: the same key twice in one mapping.
use super::prelude::*;

declare_rule! {
    id: "DRA-E003", name: "duplicate-key", severity: Warning, origin: Input,
    summary: "A mapping repeats a key",
    docs: "kubectl accepts it and keeps the last value: it converts YAML to JSON with sigs.k8s.io/yaml's `YAMLToJSON` (the non-strict variant, which lets a later key overwrite an earlier one), so the apiserver never sees the first value. lint reads the object the same way and validates the last value; the earlier one is silently lost, which is rarely what was meant. `explain`, `devices` and the other readers of an inventory read such a file as kubectl does.",
    example: "spec:\n  driver: gpu.example.com\n  driver: nic.example.com\n",
    check: Check::Loader,
}
