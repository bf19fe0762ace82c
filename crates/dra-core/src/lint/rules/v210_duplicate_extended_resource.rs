//! DRA-V210: two DeviceClasses with the same extendedResourceName.
use super::prelude::*;

declare_rule! {
    id: "DRA-V210", name: "duplicate-extended-resource-name", severity: Warning, origin: Linter,
    summary: "Two DeviceClasses declare the same extendedResourceName",
    docs: "A Pod requesting the extended resource gets a device of one class only: from 1.35 kube-scheduler takes the newest class (creationTimestamp), the lower name on a tie (dynamic-resource-allocation extendedresourcecache), and 1.34 whichever class its lister returns last. Give each class its own name, or delete the old class once workloads have moved.",
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
