//! DRA-V042: a capacity value that is not a quantity.
use super::prelude::*;

declare_rule! {
    id: "DRA-V042", name: "unparsable-capacity", severity: Error, origin: Decode,
    summary: "A capacity value is not a Kubernetes quantity",
    docs: "Capacities are resource quantities such as `80Gi`, `1500m` or `10G`. `8 GiB` or `8GB` do not parse, and the apiserver rejects the whole object while decoding it (400 Bad Request).",
    example: "capacity:\n  memory: {value: 80 GiB}\n",
    check: Check::Loader,
}
