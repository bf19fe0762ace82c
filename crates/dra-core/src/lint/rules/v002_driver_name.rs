//! DRA-V002: ResourceSlice driver missing or malformed.
use super::prelude::*;

declare_rule! {
    id: "DRA-V002", name: "invalid-slice-driver", severity: Error, origin: Apiserver,
    summary: "spec.driver is missing, longer than 63 characters, or not a DNS subdomain",
    docs: "The driver name identifies the DRA driver that publishes and prepares the devices. It is compared case-sensitively with DeviceClass selectors and opaque configs.",
    example: "spec:\n  driver: gpu_example\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if let Some(spec) = obj.spec() {
        check_driver_name(obj, spec, "driver", "spec.driver", out);
    }
}
