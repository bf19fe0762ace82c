//! DRA-V110: DeviceClass name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V110", name: "invalid-class-name", severity: Error, origin: Apiserver,
    summary: "DeviceClass metadata.name is not a DNS subdomain",
    docs: "DeviceClasses are cluster-scoped; requests refer to them by this name in deviceClassName.",
    example: "metadata:\n  name: GPU_class\n",
    check: Check::Object(CLASSES, |_, obj, out| check_object_name(obj, out)),
}
