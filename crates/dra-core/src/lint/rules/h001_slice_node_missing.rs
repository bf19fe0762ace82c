//! DRA-H001: a ResourceSlice for a node that does not exist.
use super::prelude::*;

declare_rule! {
    id: "DRA-H001", name: "slice-node-missing", severity: Warning, origin: Linter,
    summary: "A ResourceSlice's nodeName names no Node of the input",
    docs: "The driver published devices for a node that is gone (removed without its kubelet plugin cleaning up), or the name is wrong. The scheduler never offers these devices; `kubectl dra devices` lists them. Delete the slice, or fix the driver. Checked only when the input holds Nodes (`kubectl dra doctor`, a snapshot).",
    example: "spec:\n  nodeName: worker-9   # no Node worker-9\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !has(cx, Node, false) {
        return;
    }
    let Some(n) = obj.spec().and_then(|s| get(s, "nodeName")) else {
        return;
    };
    let Some(name) = n.as_str().filter(|n| !n.is_empty()) else {
        return;
    };
    let known = cx.present().nodes.contains(name);
    if !known {
        out.report(
            obj,
            NotFound,
            "spec.nodeName",
            n.span,
            format!("no Node named {name:?}: the scheduler never offers this slice's devices"),
        );
    }
}
