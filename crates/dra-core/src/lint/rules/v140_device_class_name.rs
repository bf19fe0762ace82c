//! DRA-V140: deviceClassName missing or not a DNS subdomain.
use super::prelude::*;

declare_rule! {
    id: "DRA-V140", name: "invalid-device-class-name", severity: Error, origin: Apiserver,
    summary: "A request (or subrequest) has no deviceClassName, or it is not a DNS subdomain",
    docs: "Every request names the DeviceClass whose devices it may get.",
    example: "exactly:\n  count: 1\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        let path = format!("{}.deviceClassName", b.path);
        match get(b.node, "deviceClassName") {
            None => {
                out.report(
                    obj,
                    Required,
                    path,
                    missing_span(b.node),
                    "a device class name is required",
                );
            }
            Some(n) => match n.as_str() {
                Some("") => {
                    out.report(
                        obj,
                        Required,
                        path,
                        n.span,
                        "a device class name is required",
                    );
                }
                Some(s) => {
                    for msg in crate::name_errors::dns1123_subdomain(s) {
                        out.report(obj, Invalid, path.clone(), n.span, msg);
                    }
                }
                _ => {}
            },
        }
    }
}
