//! DRA-V224: an update that changes a ResourcePoolStatusRequest's spec.
use super::prelude::*;

declare_rule! {
    id: "DRA-V224", name: "immutable-pool-status-request-spec", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "An update changes the spec of a stored ResourcePoolStatusRequest",
    docs: "The spec of a ResourcePoolStatusRequest is immutable (`+k8s:immutable`, a standard declarative tag in 1.36 and 1.37): kube-apiserver refuses any change on update with `spec: Invalid value: field is immutable`, and validates nothing else of the spec (an unchanged spec is not validated again). `limit` defaults to 100 in both. Checked when the object exists in the target: `lint --cluster`, or `--stored` with a snapshot or `kubectl get -o yaml` output. Delete the request and create a new one.",
    example: "# stored: driver: gpu.example.com\nspec:\n  driver: nic.example.com\n",
    check: Check::Object(&[ResourcePoolStatusRequest], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(old) = cx.stored.get(obj) else {
        return;
    };
    let spec = |o: &Object| {
        let mut v = o.spec().map_or(serde_json::Value::Null, Node::to_json);
        if v.is_null() {
            v = serde_json::json!({});
        }
        if let Some(m) = v.as_object_mut() {
            m.retain(|_, x| !x.is_null());
            m.entry("limit").or_insert(serde_json::json!(100));
        }
        v
    };
    report_spec_changed(obj, &spec(obj), &spec(old), "request", out);
}
