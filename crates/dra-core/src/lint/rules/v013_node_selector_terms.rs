//! DRA-V013: a slice node selector without exactly one term.
use super::prelude::*;

declare_rule! {
    id: "DRA-V013", name: "node-selector-term-count", severity: Error, origin: Apiserver,
    summary: "A ResourceSlice nodeSelector has not exactly one nodeSelectorTerm",
    docs: "A ResourceSlice's `spec.nodeSelector` must have exactly one term (`validateResourceSliceSpec`: Invalid); express alternatives with `In` and several values instead. A device's own nodeSelector (perDeviceNodeSelection) is documented to take exactly one term as well, but no validation function checks it: a warning there, citing the API documentation.",
    example: "spec:\n  nodeSelector:\n    nodeSelectorTerms: []\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let mut check_one = |owner: &Node, path: String, enforced: bool| {
        let Some(sel) = get(owner, "nodeSelector").filter(|n| !n.is_null()) else {
            return;
        };
        let terms = items(sel, "nodeSelectorTerms");
        if terms.len() != 1 {
            let span = entry(sel, "nodeSelectorTerms").map_or(sel.span, |e| e.key_span);
            let d = out.report(
                obj,
                if enforced { Invalid } else { Warning },
                format!("{path}.nodeSelector.nodeSelectorTerms"),
                span,
                format!(
                    "must have exactly one node selector term, got {}",
                    terms.len()
                ),
            );
            if !enforced {
                d.note("the API documentation of Device.nodeSelector asks for exactly one term; the apiserver does not check it, and the scheduler matches any of them");
            }
        }
    };
    check_one(spec, "spec".into(), true);
    for (i, d) in devices(cx.gates.version, obj) {
        check_one(d, format!("spec.devices[{i}]"), false);
    }
}
