//! DRA-V170: more than 16 tolerations in a request.
use super::prelude::*;

declare_rule! {
    id: "DRA-V170", name: "too-many-tolerations", severity: Error, origin: Apiserver,
    summary: "A request (or subrequest) has more than 16 tolerations",
    docs: "Device tolerations are limited to 16 per request (DeviceTolerationsMaxLength).",
    example: "tolerations: [... 17 ...]\n",
    check: Check::Object(CLAIMS, |_, obj, out| {
        for b in request_bodies(obj) {
            check_too_many(obj, b.node, "tolerations", format_args!("{}.tolerations", b.path), MAX_TOLERATIONS, "tolerations", out);
        }
    }),
}
