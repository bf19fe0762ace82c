//! DRA-V172: a claim's reservedFor written through the status is invalid.
use super::prelude::*;
use crate::lint::status_parts::*;

declare_rule! {
    id: "DRA-V172", name: "invalid-reserved-for", severity: Error, origin: Apiserver,
    summary: "A status write lists invalid consumers in reservedFor, or reserves a claim that is not allocated or is being deleted",
    docs: "Only with `lint --subresource status`. `validateResourceClaimStatusUpdate`: at most 256 entries (from 1.35 an over-long list is only TooMany), each with `resource`, `name` and `uid` (Required); no UID twice (Duplicate at the entry from 1.35, at its `uid` in 1.34: C34 fabiendupont@291372b `validateSet` with a key field); entries only while `status.allocation` is set (Forbidden); and while the claim has a `deletionTimestamp`, entries may be removed but not added (Forbidden).",
    example: "status:\n  reservedFor:\n  - {resource: pods, name: trainer-0, uid: 7c3a4e59-2f1b-4b8e-9a51-0e6c1d2f3a4b}   # no allocation\n",
    check: Check::Status(&[ResourceClaim], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, old: Option<&Object>, out: &mut Sink<'_>) {
    let Some(status) = set(&obj.root, "status") else {
        return;
    };
    let path = "status.reservedFor";
    let list = items(status, "reservedFor");
    check_too_many(
        obj,
        status,
        "reservedFor",
        format_args!("{path}"),
        MAX_RESERVED_FOR,
        "consumers",
        out,
    );
    if items_validated(cx.gates.version, list.len(), MAX_RESERVED_FOR) {
        for (i, r) in list.iter().enumerate() {
            for key in ["resource", "name", "uid"] {
                if get_str(r, key).unwrap_or("").is_empty() {
                    let span = get(r, key).map_or_else(|| missing_span(r), |n| n.span);
                    out.report(
                        obj,
                        Required,
                        format!("{path}[{i}].{key}"),
                        span,
                        format!("a consumer needs a {key}"),
                    );
                }
            }
        }
        for (i, uid) in duplicates(
            list.iter()
                .enumerate()
                .map(|(i, r)| (i, get_str(r, "uid").unwrap_or(""))),
        ) {
            out.report(
                obj,
                Duplicate,
                duplicate_path(cx, format!("{path}[{i}]"), "uid"),
                list[i].span,
                format!("uid {uid:?} is reserved twice"),
            );
        }
    }
    if list.is_empty() {
        return;
    }
    let entry_span = entry(status, "reservedFor").map_or(status.span, |e| e.key_span);
    if allocation(obj).is_none() {
        out.report(
            obj,
            Forbidden,
            path,
            entry_span,
            "may not be specified when `allocated` is not set",
        )
        .note("the scheduler reserves a claim only once it is allocated");
        return;
    }
    let deleted = get(&obj.root, "metadata")
        .and_then(|m| set(m, "deletionTimestamp"))
        .is_some();
    if deleted {
        // A consumer reference is its four fields; a set keeps this linear.
        let key = |r: &Node| {
            ["apiGroup", "resource", "name", "uid"].map(|k| get_str(r, k).unwrap_or("").to_owned())
        };
        let before: std::collections::HashSet<[String; 4]> = old
            .and_then(|o| set(&o.root, "status"))
            .map(|s| items(s, "reservedFor").iter().map(key).collect())
            .unwrap_or_default();
        if list.iter().any(|r| !before.contains(&key(r))) {
            out.report(obj, Forbidden, path, entry_span, "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set");
        }
    }
}
