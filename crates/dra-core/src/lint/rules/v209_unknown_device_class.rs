//! DRA-V209: a request naming a DeviceClass that is not in the input.
use super::prelude::*;

declare_rule! {
    id: "DRA-V209", name: "unknown-device-class", severity: Warning, origin: Linter,
    summary: "A request's deviceClassName names no DeviceClass in the input",
    docs: "Allocation waits until the class exists. Checked only when the input contains DeviceClasses, so linting claims on their own stays quiet.",
    example: "exactly:\n  deviceClassName: gpu.exmaple.com\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let classes: Vec<&str> = cx
        .dra()
        .classes
        .iter()
        .map(|c| c.name)
        .filter(|n| !n.is_empty())
        .collect();
    if classes.is_empty() {
        return;
    }
    for b in request_bodies(cx.gates.version, obj) {
        let Some(n) = get(b.node, "deviceClassName") else {
            continue;
        };
        let Some(name) = n.as_str() else { continue };
        if !name.is_empty() && !classes.contains(&name) {
            let d = out.report(
                obj,
                Warning,
                format!("{}.deviceClassName", b.path),
                n.span,
                format!("no DeviceClass named {name:?} in the input"),
            );
            if let Some(s) = crate::suggest::did_you_mean(name, classes.iter().copied()) {
                d.note(format!("did you mean {s:?}?"));
            }
        }
    }
}
