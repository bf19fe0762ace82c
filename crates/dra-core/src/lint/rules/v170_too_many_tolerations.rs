//! DRA-V170: more than 16 tolerations in a request.
use super::prelude::*;

declare_rule! {
    id: "DRA-V170", name: "too-many-tolerations", severity: Warning, origin: Linter,
    summary: "A request (or subrequest) has more than 16 tolerations (documented, not enforced)",
    docs: "The API documentation limits device tolerations to 16 per request (DeviceTolerationsMaxLength), but `validateExactDeviceRequest` and `validateDeviceSubRequest` do not check the count: the apiserver accepts more. A warning, since a later release may start enforcing it.",
    example: "tolerations: [... 17 ...]\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        let Some(e) = entry(b.node, "tolerations") else {
            continue;
        };
        let n = e.value.as_seq().map_or(0, <[Node]>::len);
        if n > MAX_TOLERATIONS {
            out.report(
                obj,
                Warning,
                format!("{}.tolerations", b.path),
                e.key_span,
                format!("{n} tolerations; the API documentation allows at most {MAX_TOLERATIONS}"),
            )
            .note("the apiserver does not enforce this limit (validateExactDeviceRequest): the claim is accepted");
        }
    }
}
