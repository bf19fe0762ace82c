//! DRA-V155: more than 32 constraints.
use super::prelude::*;

declare_rule! {
    id: "DRA-V155", name: "too-many-constraints", severity: Error, origin: Apiserver,
    summary: "A claim has more than 32 constraints",
    docs: "Constraints are limited to 32 per claim.",
    example: "constraints: [... 33 ...]\n",
    check: Check::Object(CLAIMS, |_, obj, out| {
        if let Some((dc, prefix)) = device_claim(obj) {
            check_too_many(obj, dc, "constraints", format_args!("{prefix}.constraints"), MAX_CONSTRAINTS, "constraints", out);
        }
    }),
}

/// The constraints the apiserver validates one by one.
pub(crate) fn constraints(v: Version, obj: &Object) -> Vec<(&Node, String)> {
    let Some((dc, prefix)) = device_claim(obj) else {
        return Vec::new();
    };
    let list = items(dc, "constraints");
    if !items_validated(v, list.len(), MAX_CONSTRAINTS) {
        return Vec::new();
    }
    list.iter()
        .enumerate()
        .map(|(i, c)| (c, format!("{prefix}.constraints[{i}]")))
        .collect()
}
