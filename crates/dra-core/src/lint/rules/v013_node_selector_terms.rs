//! DRA-V013: a slice node selector without exactly one term.
use super::prelude::*;

declare_rule! {
    id: "DRA-V013", name: "node-selector-term-count", severity: Error, origin: Apiserver,
    summary: "A ResourceSlice nodeSelector has not exactly one nodeSelectorTerm",
    docs: "ResourceSlice node selectors (on the slice and on devices) must have exactly one term; express alternatives with `In` and several values instead.",
    example: "spec:\n  nodeSelector:\n    nodeSelectorTerms: []\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let mut check_one = |owner: &Node, path: String| {
        let Some(sel) = get(owner, "nodeSelector") else {
            return;
        };
        let terms = items(sel, "nodeSelectorTerms");
        if terms.len() != 1 {
            let span = entry(sel, "nodeSelectorTerms").map_or(sel.span, |e| e.key_span);
            out.report(
                obj,
                Invalid,
                format!("{path}.nodeSelector.nodeSelectorTerms"),
                span,
                format!(
                    "must have exactly one node selector term, got {}",
                    terms.len()
                ),
            );
        }
    };
    check_one(spec, "spec".into());
    for (i, d) in devices(cx.gates.version, obj) {
        check_one(d, format!("spec.devices[{i}]"));
    }
}
