//! DRA-C004: a qualified attribute name used where a selector indexes a domain.
use super::prelude::*;

declare_rule! {
    id: "DRA-C004", name: "qualified-name-as-domain", severity: Warning, origin: Linter,
    summary: "A selector indexes device.attributes or device.capacity with a qualified name (`domain/name`) instead of its domain",
    docs: "In CEL a device's attributes and capacity are maps of domains, each a map of names: the attribute a ResourceSlice publishes as `dra.net/rdma` is `device.attributes[\"dra.net\"].rdma`, and its value is the attribute itself (`.bool` is how the slice writes it, not how CEL reads it). A domain never holds `/`, so `device.attributes[\"dra.net/rdma\"]` is the empty map kube-scheduler gives an unknown domain (dynamic-resource-allocation `newStringInterfaceMapWithDefault`) on every device: a guarded read is always false, an unguarded one raises `no such key` and aborts scheduling of the pod.",
    example: "selectors:\n- cel:\n    expression: device.attributes[\"dra.net/rdma\"].bool == true\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

/// The attribute value fields of a ResourceSlice, which a selector does not
/// name (the value is typed already).
const VALUE_FIELDS: &[&str] = &["bool", "int", "string", "version"];

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path, compiled) in compiled_selectors(cx, obj) {
        let Ok(p) = &*compiled else { continue };
        let lookups = p.lookups();
        for (map, qualified) in p.indexed_domains() {
            let Some((domain, name)) = qualified.split_once('/') else {
                continue;
            };
            let reads: Vec<_> = lookups
                .iter()
                .filter(|l| l.map == map && l.domain == qualified)
                .collect();
            let outcome = if reads.iter().any(|l| !l.guarded) {
                "a read of it raises `no such key` on every device and aborts scheduling of the pod"
            } else {
                "it is empty on every device"
            };
            let d = out.report(
                obj,
                Warning,
                path.clone(),
                n.span,
                format!(
                    "device.{map}[{qualified:?}] indexes a domain with the qualified name {qualified:?}: no domain holds \"/\", so {outcome}"
                ),
            );
            let read = format!("device.{map}[{domain:?}]{}", member(name));
            match reads
                .iter()
                .find(|l| VALUE_FIELDS.contains(&l.key.as_str()))
            {
                Some(l) => d.note(format!(
                    "write {read}: in CEL the value is the {} itself, not a map holding `{}`",
                    l.key, l.key
                )),
                None => d.note(format!("the {} {qualified:?} is {read}", singular(map))),
            };
        }
    }
}

fn singular(map: &str) -> &str {
    if map == "attributes" {
        "attribute"
    } else {
        "capacity"
    }
}

/// `.name` where the name is a CEL identifier, else `["name"]`.
fn member(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        format!(".{name}")
    } else {
        format!("[{name:?}]")
    }
}
