//! The fixes rules declare (each rule's `fix:` names one of these).

use super::{Applicability, FixInput, FixSpec};
use crate::convert::REQUEST_FIELDS;
use crate::diag::Diagnostic;
use crate::format::is_dns_label;
use crate::migrate::edit::Edit;
use crate::migrate::{
    convert_one, delete_block_entry, flow_text, flow_without_comments, replace_flow, request_edits,
};
use crate::served::{verdict, Verdict};
use crate::tree::{Entry, Node, ScalarStyle};

/// DRA-A001, DRA-A002: the object converted to the newest version the
/// release serves for its kind, as `kubectl dra convert` converts it.
pub static CONVERT: FixSpec = FixSpec {
    applicability: Applicability::Safe,
    description: "convert to the newest served version (as `kubectl dra convert`)",
    build: convert_to_served,
};

fn convert_to_served(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    let obj = input.object(d)?;
    let current = obj.root.get("apiVersion")?.as_str()?;
    let to = ["v1", "v1beta2"].into_iter().find(|v| {
        let api = format!("resource.k8s.io/{v}");
        api != current
            && matches!(
                verdict(obj.kind, &api, input.gates),
                Verdict::Served {
                    deprecated: false,
                    ..
                }
            )
    })?;
    let text = input.src.text;
    let (start, end) = input.src.bytes(obj.root.span);
    let at_line_start = start == 0 || text.as_bytes()[start - 1] == b'\n';
    if at_line_start {
        // A document's object: converted from its own text, so that a
        // file of thousands of objects costs each its own size.
        let end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        let edits = convert_one(&text[start..end], |_| true, to, input.gates).ok()?;
        return Some(
            edits
                .into_iter()
                .map(|e| Edit {
                    start: e.start + start,
                    end: e.end + start,
                    text: e.text,
                })
                .collect(),
        );
    }
    // An item of a `kind: List`: the whole file, when it is small.
    if input.objects.len() > 100 {
        return None;
    }
    let (document, reference) = (obj.document, obj.reference.clone());
    convert_one(
        text,
        |o| o.document == document && o.reference == reference,
        to,
        input.gates,
    )
    .ok()
}

/// DRA-V184: the fields the server sets, copied from `kubectl get -o yaml`.
pub static SERVER_FIELDS: FixSpec = FixSpec {
    applicability: Applicability::Safe,
    description: "remove resourceVersion, uid, creationTimestamp, generation and managedFields",
    build: remove_server_fields,
};

const SERVER_SET: [&str; 6] = [
    "resourceVersion",
    "uid",
    "creationTimestamp",
    "generation",
    "managedFields",
    "selfLink",
];

fn remove_server_fields(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    let meta = input.object(d)?.root.get("metadata")?;
    let gone: Vec<&Entry> = meta
        .as_map()?
        .iter()
        .filter(|e| SERVER_SET.contains(&e.key.as_str()))
        .collect();
    remove_entries(input, meta, &gone)
}

/// Entries removed from their mapping, block or flow.
fn remove_entries(input: &FixInput<'_>, map: &Node, gone: &[&Entry]) -> Option<Vec<Edit>> {
    let src = &input.src;
    if src.is_flow(map) {
        flow_without_comments(src, map).ok()?;
        let kept: Vec<String> = map
            .as_map()?
            .iter()
            .filter(|e| !gone.iter().any(|g| std::ptr::eq(*g, *e)))
            .map(|e| flow_text(src, e))
            .collect();
        return Some(vec![replace_flow(src, map, &kept)]);
    }
    gone.iter()
        .map(|e| {
            let x = src.extent(e);
            // Removing an item's first key would need the next one moved up.
            (!x.on_dash_line).then(|| delete_block_entry(src, &x))
        })
        .collect()
}

/// DRA-S002: a plain scalar YAML reads as a boolean or number where the API
/// wants a string (`string: yes`, `value: 1.0`): quoted.
pub static QUOTE: FixSpec = FixSpec {
    applicability: Applicability::Safe,
    description: "quote the value: YAML reads it as a boolean or number, the field is a string",
    build: quote_string,
};

fn quote_string(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    if !d.message.starts_with("expected string, got ") {
        return None;
    }
    let node = input.node_at(d, d.span)?;
    if node.style() != ScalarStyle::Plain {
        return None;
    }
    let (start, end) = input.src.bytes(node.span);
    let text = input.src.text.get(start..end)?;
    if text.is_empty() || text.contains('\n') {
        return None;
    }
    Some(vec![Edit {
        start,
        end,
        text: serde_json::to_string(text).ok()?,
    }])
}

/// DRA-D001: a field the release would drop (its gate is off).
pub static REMOVE_DROPPED: FixSpec = FixSpec {
    applicability: Applicability::Unsafe,
    description: "remove the field the apiserver would drop (or turn its feature gate on)",
    build: remove_dropped,
};

fn remove_dropped(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    let (map, entry) = input.entry_at(d, d.span)?;
    remove_entries(input, map, &[entry])
}

/// DRA-S001 on a v1 request: the v1beta1 shape (`deviceClassName` beside
/// `name`) needs `exactly`.
pub static ADD_EXACTLY: FixSpec = FixSpec {
    applicability: Applicability::Safe,
    description: "move the request's fields into `exactly` (the v1 shape)",
    build: add_exactly,
};

fn add_exactly(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    let obj = input.object(d)?;
    let api = obj.root.get("apiVersion")?.as_str()?;
    if !matches!(api, "resource.k8s.io/v1" | "resource.k8s.io/v1beta2") {
        return None;
    }
    let (request, entry) = input.entry_at(d, d.span)?;
    let in_request = d
        .field
        .rsplit_once('.')
        .is_some_and(|(parent, _)| parent.ends_with(']') && parent.contains("devices.requests["));
    if !REQUEST_FIELDS.contains(&entry.key.as_str())
        || !in_request
        || request.get("exactly").is_some()
        || request.get("firstAvailable").is_some()
    {
        return None;
    }
    request_edits(&input.src, request).ok()
}

/// DRA-V032: a device name with upper-case letters, valid once lower-cased.
pub static LOWER_CASE: FixSpec = FixSpec {
    applicability: Applicability::Unsafe,
    description: "lower-case the device name (claims and configs that name it change too)",
    build: lower_case_name,
};

fn lower_case_name(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    let node = input.node_at(d, d.span)?;
    let name = node.as_str()?;
    let lower = name.to_ascii_lowercase();
    if lower == name || !is_dns_label(&lower) {
        return None;
    }
    let (start, end) = input.src.bytes(node.span);
    let text = input.src.text.get(start..end)?;
    if !text.contains(name) {
        return None;
    }
    Some(vec![Edit {
        start,
        end,
        text: text.replace(name, &lower),
    }])
}

/// DRA-V015 (1.35+): counter sets beside devices move into a slice of
/// their own in the same pool; every slice of the pool in the file counts
/// one more in `resourceSliceCount`.
pub static SPLIT_COUNTERS: FixSpec = FixSpec {
    applicability: Applicability::Safe,
    description: "move the counter sets into a new slice of the same pool (resourceSliceCount + 1)",
    build: split_counters,
};

fn split_counters(input: &FixInput<'_>, d: &Diagnostic) -> Option<Vec<Edit>> {
    use crate::migrate::edit::{dedent, indent, with_newline};
    use crate::model::ObjectKind;
    let src = &input.src;
    let text = src.text;
    fn spec_of(o: &crate::model::Object) -> Option<&Node> {
        o.root.get("spec")
    }
    let key = |o: &crate::model::Object| -> Option<(String, String, i64)> {
        let spec = spec_of(o)?;
        let pool = spec.get("pool")?;
        Some((
            spec.get("driver")?.as_str()?.to_owned(),
            pool.get("name")?.as_str()?.to_owned(),
            pool.get("generation").and_then(Node::as_i64).unwrap_or(0),
        ))
    };
    let this = input.object(d)?;
    let pool = key(this)?;
    let slices: Vec<&crate::model::Object> = input
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice && key(o).as_ref() == Some(&pool))
        .collect();
    let both = |o: &crate::model::Object| {
        spec_of(o).is_some_and(|s| {
            s.get("sharedCounters").is_some_and(|n| !n.is_null())
                && s.get("devices").is_some_and(|n| !n.is_null())
        })
    };
    let offending: Vec<&crate::model::Object> =
        slices.iter().copied().filter(|o| both(o)).collect();
    let added = offending.len() as i64;
    let names: Vec<&str> = input.objects.iter().filter_map(|o| o.name()).collect();
    let mut edits = Vec::new();
    for s in &slices {
        let count = spec_of(s)?.get("pool")?.get("resourceSliceCount")?;
        let n = count.as_i64()?;
        let (start, end) = src.bytes(count.span);
        edits.push(Edit {
            start,
            end,
            text: (n + added).to_string(),
        });
    }
    for s in &offending {
        let spec = spec_of(s)?;
        if src.is_flow(spec) {
            return None;
        }
        let (root_start, root_end) = src.bytes(s.root.span);
        if root_start != 0 && text.as_bytes()[root_start - 1] != b'\n' {
            return None; // an item of a List
        }
        let counters = spec.entry("sharedCounters")?;
        let x = src.extent(counters);
        if x.on_dash_line {
            return None;
        }
        edits.push(Edit {
            start: x.start,
            end: x.end,
            text: String::new(),
        });
        let name = s.name()?;
        let mut new_name = format!("{name}-counters");
        let mut n = 2;
        while names.contains(&new_name.as_str()) {
            new_name = format!("{name}-counters-{n}");
            n += 1;
        }
        let field = |e: &Entry| {
            indent(
                &dedent(
                    &with_newline(text[src.extent(e).start..src.extent(e).end].to_owned()),
                    src.extent(e).col,
                ),
                2,
            )
        };
        let mut selection = String::new();
        for k in [
            "nodeName",
            "nodeSelector",
            "allNodes",
            "perDeviceNodeSelection",
        ] {
            if let Some(e) = spec.entry(k) {
                selection.push_str(&field(e));
            }
        }
        let scalar = |n: &Node| {
            let (a, b) = src.bytes(n.span);
            text[a..b].to_owned()
        };
        let pool_node = spec.get("pool")?;
        let generation = pool_node
            .get("generation")
            .map(|g| format!("    generation: {}\n", scalar(g)))
            .unwrap_or_default();
        let count = pool_node.get("resourceSliceCount")?.as_i64()? + added;
        let doc = format!(
            "---\napiVersion: {}\nkind: ResourceSlice\nmetadata:\n  name: {new_name}\nspec:\n  driver: {}\n{selection}  pool:\n    name: {}\n{generation}    resourceSliceCount: {count}\n{}",
            scalar(s.root.get("apiVersion")?),
            scalar(spec.get("driver")?),
            scalar(pool_node.get("name")?),
            field(counters),
        );
        // After the slice's last line.
        let last = root_end.max(1) - 1;
        let at = text[last..].find('\n').map_or(text.len(), |i| last + i + 1);
        let doc = if at == text.len() && !text.ends_with('\n') {
            format!("\n{doc}")
        } else {
            doc
        };
        edits.push(Edit {
            start: at,
            end: at,
            text: doc,
        });
    }
    Some(edits)
}
