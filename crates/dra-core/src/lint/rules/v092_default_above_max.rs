//! DRA-V092: default above validRange.max.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges, text_of};

declare_rule! {
    id: "DRA-V092", name: "default-above-max", severity: Error, origin: Apiserver,
    summary: "requestPolicy.default is more than validRange.max",
    docs: "The default must lie inside the range. Up to 1.36 reported at `validRange.max`, from 1.37 at `validRange.default`.",
    example: "requestPolicy:\n  default: 8G\n  validRange: {min: 1G, max: 4G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        if get(r, "min").is_none() {
            continue;
        }
        let (Some(max), Some((default, dn))) = (get(r, "max").and_then(quantity_of), p.default)
        else {
            continue;
        };
        if default > max {
            out.report(
                obj,
                Invalid,
                format!(
                    "{}.validRange.{}",
                    p.path,
                    super::v090_default_below_min::default_at(cx, "max")
                ),
                dn.span,
                format!(
                    "default is more than max: {}",
                    get(r, "max").map(text_of).unwrap_or_default()
                ),
            );
        }
    }
}
