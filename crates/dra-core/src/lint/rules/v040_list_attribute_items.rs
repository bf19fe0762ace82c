//! DRA-V040: invalid items of list attributes.
use super::prelude::*;

declare_rule! {
    id: "DRA-V040", name: "invalid-list-attribute-item", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "An item of a strings or versions attribute is too long or not semver",
    docs: "Items of list attributes follow the scalar rules: strings at most 64 characters, versions strict semver.",
    example: "attributes:\n  firmware: {versions: [\"1.0\"]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            for (j, s) in items(&a.value, "strings").iter().enumerate() {
                if s.as_str()
                    .is_some_and(|s| s.chars().count() > MAX_STRING_ATTR)
                {
                    out.report(
                        obj,
                        TooLong,
                        format!("spec.devices[{i}].attributes[{}].strings[{j}]", a.key),
                        s.span,
                        format!("may not be longer than {MAX_STRING_ATTR} characters"),
                    );
                }
            }
            for (j, s) in items(&a.value, "versions").iter().enumerate() {
                let Some(v) = s.as_str() else { continue };
                let path = format!("spec.devices[{i}].attributes[{}].versions[{j}]", a.key);
                if v.chars().count() > MAX_STRING_ATTR {
                    out.report(
                        obj,
                        TooLong,
                        path,
                        s.span,
                        format!("may not be longer than {MAX_STRING_ATTR} characters"),
                    );
                } else if !is_semver(v) {
                    out.report(
                        obj,
                        Invalid,
                        path,
                        s.span,
                        format!("{v:?} is not a semantic version 2.0.0"),
                    );
                }
            }
        }
    }
}
