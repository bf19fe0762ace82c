//! DRA-V168: an update that changes a ResourceClaim's or template's spec.
use super::prelude::*;

declare_rule! {
    id: "DRA-V168", name: "immutable-claim-spec", severity: Error, origin: Apiserver,
    summary: "An update changes the spec of a stored ResourceClaim or ResourceClaimTemplate",
    docs: "The spec of a ResourceClaim and of a ResourceClaimTemplate is immutable: kube-apiserver rejects any change on update (`spec: Invalid value: field is immutable`), so `kubectl apply` of an edited claim fails. The comparison applies the API's defaults (allocationMode ExactCount, count 1, toleration operator Equal) and compares quantities by value, as the stored object has them. Checked when the object exists in the target: `lint --cluster`, or `--stored` with a snapshot or `kubectl get -o yaml` output. Per release: 1.34 also validates the whole spec again on update (every spec error is reported beside this one); from 1.35 an update reports only this error (ValidateResourceClaimUpdate and ValidateResourceClaimTemplateUpdate, C34 vs C35). Delete and re-create the claim (pods using it must go first); for a template, create a new one under another name and point the workload at it.",
    example: "# stored: count: 1\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 2}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(old) = cx.stored.get(obj) else {
        return;
    };
    let (Some(e), Some(old_spec)) = (entry(&obj.root, "spec"), old.spec()) else {
        return;
    };
    let comparable = |spec: &Node| match obj.kind {
        // A template's spec is {metadata, spec: ResourceClaimSpec}.
        ResourceClaimTemplate => {
            let mut v = spec.to_json();
            if let Some(inner) = get(spec, "spec") {
                v["spec"] = crate::stored::comparable_claim_spec(inner);
            }
            let empty_meta = v
                .get("metadata")
                .is_some_and(|m| m.is_null() || m.as_object().is_some_and(|o| o.is_empty()));
            if empty_meta {
                if let Some(o) = v.as_object_mut() {
                    o.remove("metadata");
                }
            }
            v
        }
        _ => crate::stored::comparable_claim_spec(spec),
    };
    report_spec_changed(
        obj,
        &comparable(&e.value),
        &comparable(old_spec),
        &format!("{:?}", obj.kind),
        out,
    );
}
