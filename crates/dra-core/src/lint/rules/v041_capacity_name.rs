//! DRA-V041: capacity name not a qualified name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V041", name: "invalid-capacity-name", severity: Error, origin: Apiserver,
    summary: "A capacity name is not a C identifier or DOMAIN/identifier",
    docs: "Capacity names follow the attribute-name rules (see DRA-V035).",
    example: "capacity:\n  memory-size: {value: 80Gi}\n",
    check: Check::Object(SLICES, |cx, obj, out| super::v035_attribute_name::check_map_keys(cx, obj, "capacity", out)),
}
