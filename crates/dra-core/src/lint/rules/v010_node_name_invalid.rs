//! DRA-V010: nodeName not a valid node name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V010", name: "invalid-node-name", severity: Error, origin: Apiserver,
    summary: "spec.nodeName is not a valid node name (DNS subdomain)",
    docs: "Node names are DNS subdomains; a slice whose nodeName matches no node is never considered by the scheduler.",
    example: "spec:\n  nodeName: Worker_1\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "nodeName")) else {
        return;
    };
    if let Some(name) = n.as_str() {
        // validateNodeName: ValidateNodeName is NameIsDNSSubdomain.
        if !name.is_empty() {
            for msg in crate::name_errors::dns1123_subdomain(name) {
                out.report(obj, Invalid, "spec.nodeName", n.span, msg);
            }
        }
    }
}
