//! DRA-E003: the same key twice in one mapping.
use super::prelude::*;

declare_rule! {
    id: "DRA-E003", name: "duplicate-key", severity: Error, origin: Input,
    summary: "A mapping repeats a key",
    docs: "kubectl's YAML decoder rejects a mapping that defines the same key twice (`mapping key already defined`). Even where a tool accepts it, only one of the values survives, silently.",
    example: "spec:\n  driver: gpu.example.com\n  driver: nic.example.com\n",
    check: Check::Loader,
}
