//! DRA-V030: too many devices in one slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V030", name: "too-many-devices", severity: Error, origin: Apiserver, releases: "1.34+ (limit differs by release)",
    summary: "A slice has more than 128 devices, or more than 64 when a device uses taints, consumesCounters or list attributes (1.35+)",
    docs: "Drivers split large pools over several slices (and set resourceSliceCount). From 1.35 the limit is 64 when any device in the slice has taints or consumes counters (and, from 1.36, list-type attributes). Over the limit, the apiserver reports only this and does not validate the devices.",
    example: "spec:\n  devices: [... 129 devices ...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let Some(e) = entry(spec, "devices") else {
        return;
    };
    let Some(list) = e.value.as_seq() else { return };
    let max = device_limit(cx.gates.version, list);
    if list.len() > max {
        let d = out
            .report(
                obj,
                TooMany,
                "spec.devices",
                e.key_span,
                format!("must have at most {max} items"),
            )
            .label_text(format!("{} devices here", list.len()));
        if max < MAX_DEVICES {
            d.note("the limit is 64 because a device uses taints, consumesCounters or list-type attributes");
        }
        d.note("split the pool over several slices and set resourceSliceCount accordingly");
    }
}
