//! DRA-V190: DeviceTaintRule name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V190", name: "invalid-taint-rule-name", severity: Error, origin: Apiserver,
    summary: "DeviceTaintRule metadata.name is not a DNS subdomain",
    docs: "`ValidateDeviceTaintRule` checks the object's metadata with `NameIsDNSSubdomain`: lower-case letters, digits, '-' and '.', at most 253 characters.",
    example: "kind: DeviceTaintRule\nmetadata:\n  name: Drain_GPU\n",
    check: Check::Object(&[DeviceTaintRule], |_, obj, out| check_object_name(obj, out)),
}
