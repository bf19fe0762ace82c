//! DRA-V111: too many selectors on a DeviceClass.
use super::prelude::*;

declare_rule! {
    id: "DRA-V111", name: "too-many-class-selectors", severity: Error, origin: Apiserver,
    summary: "A DeviceClass has more than 32 selectors",
    docs: "Combine conditions with && in one CEL expression instead.",
    example: "spec:\n  selectors: [... 33 selectors ...]\n",
    check: Check::Object(CLASSES, |_, obj, out| {
        if let Some(spec) = obj.spec() {
            check_too_many(obj, spec, "selectors", format_args!("spec.selectors"), MAX_SELECTORS, "selectors", out);
        }
    }),
}
