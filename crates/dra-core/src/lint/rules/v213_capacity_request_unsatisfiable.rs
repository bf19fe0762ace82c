//! DRA-V213: a capacity request no device can satisfy.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::quantity_of;

declare_rule! {
    id: "DRA-V213", name: "capacity-request-unsatisfiable", severity: Warning, origin: Linter,
    summary: "capacity.requests asks for more than any device in the input has (or a capacity no device has)",
    docs: "With consumable capacity a request asks for part of a device's capacity. If no device publishes that capacity with enough value (and within its requestPolicy's max), the request can never be allocated. Checked only when the input contains ResourceSlices.",
    example: "exactly:\n  capacity:\n    requests: {bandwidth: 400G}   # devices have 100G\n",
    check: Check::Object(CLAIMS, check),
}

fn largest(cx: &Ctx<'_>, key: &str) -> Option<Quantity> {
    let (domain, id) = key.split_once('/').unwrap_or(("", key));
    let mut best: Option<Quantity> = None;
    for s in &cx.dra().slices {
        let driver = s.driver;
        for d in s.devices() {
            for c in d.capacities() {
                let matches = c.name == key
                    || (domain.is_empty() || domain == driver)
                        && (c.name == id || c.name == format!("{driver}/{id}"));
                if !matches {
                    continue;
                }
                // What one allocation may take: the value, or less when
                // the request policy caps it.
                let v = match c.valid_range.and_then(|r| r.max) {
                    Some(max) => c.value.min(max),
                    None => c.value,
                };
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
    }
    best
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.of_kind(ResourceSlice).next().is_none() {
        return;
    }
    for b in request_bodies(cx.gates.version, obj) {
        let Some(cap) = get(b.node, "capacity") else {
            continue;
        };
        for r in entries(cap, "requests") {
            let Some(want) = quantity_of(&r.value) else {
                continue;
            };
            let path = format!("{}.capacity.requests[{}]", b.path, r.key);
            match largest(cx, &r.key) {
                None => {
                    out.report(
                        obj,
                        Warning,
                        path,
                        r.key_span,
                        format!("no device in the input has capacity {:?}", r.key),
                    );
                }
                Some(max) if want > max => {
                    out.report(
                        obj,
                        Warning,
                        path,
                        r.value.span,
                        format!(
                            "asks for {want} of {:?}, but the most any device offers is {max}",
                            r.key
                        ),
                    );
                }
                _ => {}
            }
        }
    }
}
