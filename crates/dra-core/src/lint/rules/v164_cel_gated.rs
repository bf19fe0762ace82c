//! DRA-V164: CEL field or function not available with the target's gates.
use super::prelude::*;
use crate::cel::CompileErrorKind;

declare_rule! {
    id: "DRA-V164", name: "cel-gated-feature", severity: Error, origin: Apiserver,
    summary: "A CEL selector uses a field or function that the target version does not declare with its feature gates (device.allowMultipleAllocations without DRAConsumableCapacity)",
    docs: "The apiserver compiles new expressions in an environment that declares gated fields only when their gate is on: `device.allowMultipleAllocations` needs DRAConsumableCapacity (on by default from 1.36). Stored expressions and the scheduler see every field, so the same selector can work in one cluster and be rejected in another.",
    example: "# Kubernetes 1.35 (DRAConsumableCapacity off)\ncel:\n  expression: device.allowMultipleAllocations\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path, compiled) in compiled_selectors(cx, obj) {
        if let Err(e) = &*compiled {
            if e.kind == CompileErrorKind::Gated {
                super::v161_cel_compile_error::report_compile_error(cx, obj, n, path, e, out);
            }
        }
    }
}
