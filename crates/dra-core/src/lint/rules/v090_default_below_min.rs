//! DRA-V090: default below validRange.min.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges, text_of};

declare_rule! {
    id: "DRA-V090", name: "default-below-min", severity: Error, origin: Apiserver,
    summary: "requestPolicy.default is less than validRange.min",
    docs: "The default must lie inside the range. Up to 1.36 the apiserver reports it at `validRange.min`, from 1.37 at `validRange.default` (validateRequestPolicyRange: C36 omeryahud/kubernetes@a125bd3 ≈53.5k, C37 kubernetes/kubernetes@009801d ≈67.6k).",
    example: "requestPolicy:\n  default: 1G\n  validRange: {min: 2G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let (Some(min), Some((default, dn))) = (get(r, "min").and_then(quantity_of), p.default)
        else {
            continue;
        };
        if default < min {
            out.report(
                obj,
                Invalid,
                format!("{}.validRange.{}", p.path, default_at(cx, "min")),
                dn.span,
                format!(
                    "default is less than min: {}",
                    get(r, "min").map(text_of).unwrap_or_default()
                ),
            );
        }
    }
}

/// Where the apiserver reports a default outside the range: at the bound it
/// crosses up to 1.36, at the default from 1.37.
pub(crate) fn default_at(cx: &Ctx<'_>, bound: &'static str) -> &'static str {
    if cx.gates.version >= Version::V1_37 {
        "default"
    } else {
        bound
    }
}
