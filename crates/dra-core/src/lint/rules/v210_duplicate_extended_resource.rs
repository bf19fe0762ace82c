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
    for c in &cx.dra().classes {
        let Some(name) = c.extended_resource_name else {
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == name) {
            let span = c
                .object
                .spec()
                .and_then(|s| get(s, "extendedResourceName"))
                .map_or(c.object.root.span, |n| n.span);
            out.report(
                c.object,
                Warning,
                "spec.extendedResourceName",
                span,
                format!(
                    "{name:?} is also the extended resource of {}",
                    first.reference
                ),
            );
        } else {
            seen.push((name, c.object));
        }
    }
}
