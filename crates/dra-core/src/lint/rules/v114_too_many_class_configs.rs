//! DRA-V114: too many config entries on a DeviceClass.
use super::prelude::*;

declare_rule! {
    id: "DRA-V114", name: "too-many-class-configs", severity: Error, origin: Apiserver,
    summary: "A DeviceClass has more than 32 config entries",
    docs: "Configuration entries are limited to 32 per class.",
    example: "spec:\n  config: [... 33 entries ...]\n",
    check: Check::Object(CLASSES, |_, obj, out| {
        if let Some(spec) = obj.spec() {
            check_too_many(obj, spec, "config", format_args!("spec.config"), MAX_CONFIGS, "config entries", out);
        }
    }),
}
