//! DRA-V044: taint key missing or not a label name.
use super::prelude::*;
use super::v043_too_many_taints::taints;

declare_rule! {
    id: "DRA-V044", name: "invalid-taint-key", severity: Error, origin: Apiserver,
    summary: "A device taint has no key, or the key is not a label name",
    docs: "Taint keys follow label-key syntax: an optional DNS-subdomain prefix and '/', then a name of at most 63 characters.",
    example: "taints:\n- {key: \"bad key\", effect: NoSchedule}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, t) in taints(cx, d).iter().enumerate() {
            let path = format!("spec.devices[{i}].taints[{j}].key");
            match get(t, "key") {
                None => {
                    out.report(obj, Required, path, t.span, "a taint key is required");
                }
                Some(k) => match k.as_str() {
                    Some("") => {
                        out.report(obj, Required, path, k.span, "a taint key is required");
                    }
                    Some(s) if !is_label_key(s) => {
                        out.report(
                            obj,
                            Invalid,
                            path,
                            k.span,
                            format!("{s:?} is not a valid label key"),
                        );
                    }
                    _ => {}
                },
            }
        }
    }
}
