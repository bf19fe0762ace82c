//! DRA-V016: a ResourceSlice update that changes its driver, pool or node.
use super::prelude::*;

declare_rule! {
    id: "DRA-V016", name: "immutable-slice-field", severity: Error, origin: Apiserver,
    summary: "An update changes a ResourceSlice's spec.driver, spec.pool.name or spec.nodeName",
    docs: "These three fields are immutable: kube-apiserver rejects an update of a stored slice that changes any of them (`field is immutable`). Checked when the slice exists in the target: `lint --cluster`, or `--stored` with a snapshot or `kubectl get -o yaml` output. On update a release validates again what it validates on create, except: from 1.35 a device's taints that equal the stored device's (same name), from 1.37 its capacity likewise, and never the slice's name (validateDevice, ValidateResourceSliceUpdate). To move devices to another pool or node, publish a new slice and delete the old one.",
    example: "# stored: spec.driver: gpu.example.com\nspec:\n  driver: gpu.example.org\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(old) = cx.stored.get(obj) else {
        return;
    };
    let (Some(spec), Some(old_spec)) = (obj.spec(), old.spec()) else {
        return;
    };
    // The order kube-apiserver reports them in (validateResourceSliceSpec).
    for path in [&["pool", "name"][..], &["driver"], &["nodeName"]] {
        let value = |s: &Node| {
            path.iter()
                .try_fold(s, |n, k| get(n, k))
                .and_then(Node::scalar_text)
                .map(|t| t.into_owned())
        };
        let (new, was) = (value(spec), value(old_spec));
        if new == was {
            continue;
        }
        let field = format!("spec.{}", path.join("."));
        let span = path
            .iter()
            .try_fold(spec, |n, k| get(n, k))
            .map_or(obj.root.span, |n| n.span);
        let shown = |v: &Option<String>| {
            v.as_deref()
                .map_or("unset".to_owned(), |s| format!("{s:?}"))
        };
        out.report(obj, Invalid, field, span, "field is immutable")
            .note(format!(
                "the stored slice has {}, this one {}",
                shown(&was),
                shown(&new)
            ));
    }
}
