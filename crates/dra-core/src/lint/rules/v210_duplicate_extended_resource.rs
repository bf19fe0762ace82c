//! DRA-V210: two DeviceClasses with the same extendedResourceName.
use super::prelude::*;

declare_rule! {
    id: "DRA-V210", name: "duplicate-extended-resource-name", severity: Warning, origin: Linter,
    summary: "Two DeviceClasses declare the same extendedResourceName",
    docs: "A Pod requesting the extended resource would map to either class: ambiguous.",
    example: "# classes gpu-a and gpu-b both set extendedResourceName: example.com/gpu\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    let mut seen: Vec<(&str, &Object)> = Vec::new();
    for c in cx.of_kind(DeviceClass) {
        let Some(n) = c.spec().and_then(|s| get(s, "extendedResourceName")) else {
            continue;
        };
        let Some(name) = n.as_str() else { continue };
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == name) {
            out.report(
                c,
                Warning,
                "spec.extendedResourceName",
                n.span,
                format!(
                    "{name:?} is also the extended resource of {}",
                    first.reference
                ),
            );
        } else {
            seen.push((name, c));
        }
    }
}
