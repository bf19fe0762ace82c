//! DRA-V137: more than 8 firstAvailable entries.
use super::prelude::*;

declare_rule! {
    id: "DRA-V137", name: "too-many-subrequests", severity: Error, origin: Apiserver,
    summary: "A request lists more than 8 firstAvailable alternatives",
    docs: "Prioritized lists (DRAPrioritizedList) hold at most 8 subrequests.",
    example: "firstAvailable: [... 9 subrequests ...]\n",
    check: Check::Object(CLAIMS, |cx, obj, out| {
        for (_, r, path) in requests(cx.gates.version, obj) {
            check_too_many(obj, r, "firstAvailable", format_args!("{path}.firstAvailable"), MAX_SUBREQUESTS, "subrequests", out);
        }
    }),
}
