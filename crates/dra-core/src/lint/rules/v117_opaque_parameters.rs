//! DRA-V117: opaque parameters missing, too large or not an object.
use super::prelude::*;
use super::v116_opaque_driver::opaque_configs;

declare_rule! {
    id: "DRA-V117", name: "invalid-opaque-parameters", severity: Error, origin: Apiserver,
    summary: "Opaque parameters are missing, larger than 10 KiB, or not a JSON object",
    docs: "Parameters are passed to the driver as a JSON object (usually with its own apiVersion and kind). A string, list or number is rejected, as is anything over 10 KiB when encoded as JSON.",
    example: "config:\n- opaque:\n    driver: gpu.example.com\n    parameters: \"sharing: timeSlicing\"\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (opaque, path) in opaque_configs(cx.gates.version, obj) {
        let path = format!("{path}.parameters");
        // A null decodes to an empty RawExtension: Required, as if unset.
        match get(opaque, "parameters").filter(|p| !p.is_null()) {
            None => {
                out.report(obj, Required, path, opaque.span, "parameters are required");
            }
            Some(p) => {
                if p.as_map().is_none() {
                    out.report(obj, Invalid, path, p.span, "must be a valid JSON object")
                        .note(format!("got a {}", p.kind()));
                } else {
                    let len = p.to_json().to_string().len();
                    if len > OPAQUE_MAX_LEN {
                        out.report(
                            obj,
                            TooLong,
                            path,
                            p.span,
                            format!("may not be more than {OPAQUE_MAX_LEN} bytes"),
                        );
                    }
                }
            }
        }
    }
}
