//! DRA-V165: more than 32 config entries in a claim.
use super::prelude::*;

declare_rule! {
    id: "DRA-V165", name: "too-many-claim-configs", severity: Error, origin: Apiserver,
    summary: "A claim has more than 32 config entries",
    docs: "Configuration entries are limited to 32 per claim.",
    example: "config: [... 33 ...]\n",
    check: Check::Object(CLAIMS, |_, obj, out| {
        if let Some((dc, prefix)) = device_claim(obj) {
            check_too_many(obj, dc, "config", format_args!("{prefix}.config"), MAX_CONFIGS, "config entries", out);
        }
    }),
}
