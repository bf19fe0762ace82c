//! DRA-V163: CEL expression too expensive.
use super::prelude::*;

declare_rule! {
    id: "DRA-V163", name: "cel-cost-limit", severity: Error, origin: Apiserver,
    summary: "A CEL selector's estimated worst-case cost exceeds 1,000,000",
    docs: "The apiserver estimates the worst-case cost of each new selector with the DRA size limits (32 attributes and capacities per device, 64-character strings) and rejects it above CELSelectorExpressionMaxCost (1,000,000): `too complex, exceeds cost limit`. Nested comprehensions multiply; flatten them. A string or list whose size the estimator cannot know (the result of `string()`, `format()`, `charAt()`, a URL getter, an optional's `orValue()` or `value()`, any `join()`) makes every function charged by its length unbounded: `string(x).contains('a')` or `d.?model.orValue('').matches('^A')` is refused whatever the device, while `==`, `startsWith` and `endsWith` stay cheap. kubectl-dra's estimate follows cel-go's and the Kubernetes estimators and gives every cost the DRA compiler's tests assert.",
    example: "cel:\n  expression: device.attributes.all(d, device.attributes.all(e, device.attributes.all(f, ...)))\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path, compiled) in compiled_selectors(cx, obj) {
        let Ok(p) = &*compiled else { continue };
        if p.estimated_cost > crate::cel::MAX_ESTIMATED_COST {
            out.report(
                obj,
                Forbidden,
                path,
                n.span,
                crate::cel::cost_exceeded(p.estimated_cost),
            )
            .note(if p.estimated_cost.is_finite() {
                "nested comprehensions multiply the cost; the apiserver rejects the object"
            } else {
                "compare it with == or startsWith instead, or read a sized attribute; the apiserver rejects the object"
            });
        }
    }
}
