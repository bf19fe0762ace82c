//! DRA-C002: a DeviceClass selector reading another driver's domain.
use super::prelude::*;

declare_rule! {
    id: "DRA-C002", name: "class-attribute-domain-mismatch", severity: Warning, origin: Linter,
    summary: "A DeviceClass selects a driver but reads attributes or capacities of another domain",
    docs: "Bare attribute names are published under the driver's own domain. A class that matches `device.driver == \"gpu.example.com\"` but reads `device.attributes[\"gpu.exmaple.com\"]` looks up a domain none of its devices has: the read fails on every device. Standard domains such as resource.kubernetes.io are allowed.",
    example: "selectors:\n- cel:\n    expression: device.driver == \"gpu.example.com\" && device.attributes[\"nvidia.com\"].model == \"a100\"\n",
    check: Check::Object(CLASSES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let selectors = cel_selectors(cx.gates.version, obj);
    let mut drivers: Vec<String> = Vec::new();
    for (n, _) in &selectors {
        if let Some(Ok(p)) = n.as_str().map(|e| cx.compile(e)).as_deref() {
            drivers.extend(p.driver_literals());
        }
    }
    if drivers.is_empty() {
        return;
    }
    for (n, path) in &selectors {
        let Some(expr) = n.as_str() else { continue };
        let compiled = cx.compile(expr);
        let Ok(p) = &*compiled else { continue };
        for l in p.lookups() {
            if !drivers.contains(&l.domain) && l.domain != "resource.kubernetes.io" {
                let d = out.report(
                    obj,
                    Warning,
                    path.clone(),
                    n.span,
                    format!(
                        "reads {}[{:?}], but the class selects driver {}",
                        l.map,
                        l.domain,
                        drivers.join(" or ")
                    ),
                );
                if let Some(s) =
                    crate::suggest::did_you_mean(&l.domain, drivers.iter().map(String::as_str))
                {
                    d.note(format!("did you mean {s:?}?"));
                }
            }
        }
    }
}
