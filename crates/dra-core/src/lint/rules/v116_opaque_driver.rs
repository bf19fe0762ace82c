//! DRA-V116: opaque config driver name invalid.
use super::prelude::*;

declare_rule! {
    id: "DRA-V116", name: "invalid-opaque-driver", severity: Error, origin: Apiserver,
    summary: "An opaque config (DeviceClass or claim) has no driver, or the driver name is malformed",
    docs: "Opaque parameters go to the named driver only; the name follows the driver-name rules (DNS subdomain, at most 63 characters).",
    example: "config:\n- opaque:\n    parameters: {...}\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (opaque, path) in opaque_configs(cx.gates.version, obj) {
        check_driver_name(obj, opaque, "driver", &format!("{path}.driver"), out);
    }
}

/// The opaque configs of a class or claim with their paths.
pub(crate) fn opaque_configs(v: Version, obj: &Object) -> Vec<(&Node, String)> {
    let (owner, prefix) = match obj.kind {
        DeviceClass => match obj.spec() {
            Some(s) => (s, "spec".to_owned()),
            None => return Vec::new(),
        },
        _ => match device_claim(obj) {
            Some((d, p)) => (d, p.to_owned()),
            None => return Vec::new(),
        },
    };
    let cfgs = items(owner, "config");
    if !items_validated(v, cfgs.len(), MAX_CONFIGS) {
        return Vec::new();
    }
    cfgs.iter()
        .enumerate()
        .filter_map(|(j, c)| get(c, "opaque").map(|o| (o, format!("{prefix}.config[{j}].opaque"))))
        .collect()
}
