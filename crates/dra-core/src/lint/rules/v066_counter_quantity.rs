//! DRA-V066: a counter value that is not a quantity.
use super::prelude::*;

declare_rule! {
    id: "DRA-V066", name: "unparsable-counter", severity: Error, origin: Decode,
    summary: "A counter value (in sharedCounters or consumesCounters) is not a Kubernetes quantity",
    docs: "Counter values are quantities such as `80Gi` or `7`; the apiserver fails to decode anything else (400 Bad Request). Any parsable quantity is accepted, even a negative one.",
    example: "counters:\n  memory: {value: 8 GiB}\n",
    check: Check::Loader,
}
