//! DRA-V173: a claim's device status written through the status is invalid.
use super::prelude::*;
use crate::lint::status_parts::*;
use std::collections::HashSet;

declare_rule! {
    id: "DRA-V173", name: "invalid-device-status", severity: Error, origin: Apiserver,
    summary: "A status write reports a device status (status.devices) that is invalid or names a device the claim was not allocated",
    docs: "Only with `lint --subresource status` (drivers write `status.devices`, DRAResourceClaimDeviceStatus). `validateDeviceStatus`: driver, pool and device names as in results, a `shareID` as a normalized UUID, and the device (with its share ID) must be one of the written allocation's results (Invalid at the entry); at most 8 conditions, each valid as metav1 conditions are (type a qualified name and not repeated, status True/False/Unknown, lastTransitionTime and reason set); `data` a JSON object of at most 10 KiB; `networkData` with an interfaceName of at most 256 bytes, a hardwareAddress of at most 128 and at most 16 `ips`, each an address in canonical CIDR form and not repeated. No device twice (Duplicate at the entry from 1.35, at its `deviceID` in 1.34). Before validation the strategy drops the entries of devices the stored allocation had and the written one no longer has (`dropDeallocatedStatusDevices`), and the whole list when the gate is off and the stored claim has none. Conditions follow metav1's `ValidateConditions` of the release (in 1.37 an empty type or status is Required and a repeated type a Duplicate at the condition, as DRA-V193 says).",
    example: "status:\n  devices:\n  - driver: gpu.example.com\n    pool: node-1\n    device: gpu-9        # not allocated to this claim\n",
    check: Check::Status(&[ResourceClaim], check),
}

type DeviceId = (String, Option<String>);

fn allocated(obj: &Object) -> HashSet<DeviceId> {
    allocation(obj)
        .and_then(|a| set(a, "devices"))
        .map(|d| items(d, "results").iter().map(device_id).collect())
        .unwrap_or_default()
}

fn check(cx: &Ctx<'_>, obj: &Object, old: Option<&Object>, out: &mut Sink<'_>) {
    let Some(status) = set(&obj.root, "status") else {
        return;
    };
    let list = items(status, "devices");
    if list.is_empty() {
        return;
    }
    let stored_has = old
        .and_then(|o| set(&o.root, "status"))
        .is_some_and(|s| !items(s, "devices").is_empty());
    if !gate_on(cx, Gate::DRAResourceClaimDeviceStatus) && !stored_has {
        return;
    }
    let now = allocated(obj);
    let gone: HashSet<DeviceId> = old
        .map(allocated)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| !now.contains(d))
        .collect();
    let mut seen: HashSet<DeviceId> = HashSet::new();
    for (i, d) in list.iter().enumerate() {
        let id = device_id(d);
        // dropDeallocatedStatusDevices: removed, not validated.
        if gone.contains(&id) {
            continue;
        }
        let path = format!("status.devices[{i}]");
        check_device(cx.gates.version, obj, d, &path, (&now, &id), out);
        if seen.contains(&id) {
            out.report(
                obj,
                Duplicate,
                duplicate_path(cx, path, "deviceID"),
                d.span,
                format!("device {} has two statuses", id.0),
            );
        } else {
            seen.insert(id);
        }
    }
}

fn check_device(
    v: Version,
    obj: &Object,
    d: &Node,
    path: &str,
    (allocated, id): (&HashSet<DeviceId>, &DeviceId),
    out: &mut Sink<'_>,
) {
    check_driver_name(obj, d, "driver", &format!("{path}.driver"), out);
    check_pool_name(obj, d, "pool", &format!("{path}.pool"), out);
    check_dns_label(obj, d, "device", &format!("{path}.device"), out);
    if let Some(s) = set(d, "shareID") {
        check_uid(obj, s, format!("{path}.shareID"), out);
    }
    if !allocated.contains(id) {
        out.report(
            obj,
            Invalid,
            path,
            d.span,
            format!("{}: must be an allocated device in the claim", id.0),
        )
        .note("a driver reports the status of the devices allocated to this claim only");
    }
    check_conditions(v, obj, d, path, out);
    if let Some(data) = set(d, "data") {
        check_raw_object(obj, data, format!("{path}.data"), out);
    }
    let Some(net) = set(d, "networkData") else {
        return;
    };
    let npath = format!("{path}.networkData");
    for (key, max) in [
        ("interfaceName", MAX_INTERFACE_NAME),
        ("hardwareAddress", MAX_HARDWARE_ADDRESS),
    ] {
        if let Some(n) = get(net, key).filter(|n| n.as_str().is_some_and(|s| s.len() > max)) {
            out.report(
                obj,
                TooLong,
                format!("{npath}.{key}"),
                n.span,
                format!("may not be more than {max} bytes"),
            );
        }
    }
    let ips = items(net, "ips");
    check_too_many(
        obj,
        net,
        "ips",
        format_args!("{npath}.ips"),
        MAX_IPS,
        "addresses",
        out,
    );
    if !items_validated(v, ips.len(), MAX_IPS) {
        return;
    }
    for (j, ip) in ips.iter().enumerate() {
        let Some(s) = ip.as_str() else { continue };
        if let Some(problem) = interface_address_problem(s) {
            out.report(
                obj,
                Invalid,
                format!("{npath}.ips[{j}]"),
                ip.span,
                format!("{s:?}: {problem}"),
            );
        }
    }
    for (j, s) in duplicates(
        ips.iter()
            .enumerate()
            .filter_map(|(j, ip)| ip.as_str().map(|s| (j, s))),
    ) {
        out.report(
            obj,
            Duplicate,
            format!("{npath}.ips[{j}]"),
            ips[j].span,
            format!("{s:?} is listed twice"),
        );
    }
}
