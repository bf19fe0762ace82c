//! DRA-V110: DeviceClass name not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V110", name: "invalid-class-name", severity: Error, origin: Apiserver,
    summary: "DeviceClass metadata.name is not a DNS subdomain",
    docs: "DeviceClasses are cluster-scoped; requests refer to them by this name in deviceClassName. In 1.34 `ValidateDeviceClass` checks the name and the generateName with `NameIsDNSSubdomain`; from 1.35 it calls `ValidateObjectMetaWithOpts` with `validate.LongName` (C35 galal-hussein@ec20661, C37 kubernetes@009801d), which checks only the name (the one generated from a generateName included) and counts its length in bytes.",
    example: "metadata:\n  name: GPU_class\n",
    check: Check::Object(CLASSES, |cx, obj, out| {
        if cx.gates.version >= Version::V1_35 {
            check_name_as(obj, NameFormat::LongName, out)
        } else {
            check_object_name(obj, out)
        }
    }),
}
