//! DRA-V132: more than 32 requests in a claim.
use super::prelude::*;

declare_rule! {
    id: "DRA-V132", name: "too-many-requests", severity: Error, origin: Apiserver,
    summary: "A claim has more than 32 requests",
    docs: "A claim holds at most 32 requests (and an allocation at most 32 results).",
    example: "devices:\n  requests: [... 33 requests ...]\n",
    check: Check::Object(CLAIMS, |_, obj, out| {
        if let Some((dc, prefix)) = device_claim(obj) {
            check_too_many(obj, dc, "requests", format_args!("{prefix}.requests"), MAX_REQUESTS, "requests", out);
        }
    }),
}
