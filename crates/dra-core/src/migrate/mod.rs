//! `kubectl dra convert`: resource.k8s.io objects moved to another version
//! the target release serves, with the apiserver's conversion semantics
//! (`pkg/apis/resource/v1beta1/conversion.go`, as [`crate::convert`] applies
//! them), written as minimal edits of the user's text: comments, key order,
//! quoting, documents and unrelated objects stay byte-identical.
//!
//! Every converted object is checked before it is kept: the edited text is
//! parsed again and the object must equal the apiserver's conversion of the
//! original, field by field. An object that cannot be converted that way, or
//! has no equivalent in the target version, is left as it was and reported,
//! never guessed.

mod down;
pub mod edit;

use down::down_edits;
use edit::{dedent, indent, with_newline, Edit, Source};

use crate::convert::{is_set, v1beta1_to_v1, REQUEST_FIELDS};
use crate::gates::FeatureGates;
use crate::model::{parse_file, Object, ObjectKind};
use crate::served::{verdict, where_served, Verdict};
use crate::tree::{Entry, LineIndex, Node};
use crate::yaml::Limits;

/// An object the conversion changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    pub object: String,
    pub from: String,
    pub to: String,
    /// 1-based line of the object's first key.
    pub line: u32,
}

/// An object left unchanged, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub object: String,
    pub line: u32,
    pub message: String,
}

/// The converted text and what happened to each object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    pub text: String,
    pub converted: Vec<Converted>,
    pub problems: Vec<Problem>,
}

/// The request and device shapes of a version.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// v1beta1 and v1alpha3: devices in `basic`, request fields at the top.
    Beta1,
    /// v1 and v1beta2.
    V1,
}

fn shape(version: &str) -> Option<Shape> {
    match version {
        "v1" | "v1beta2" => Some(Shape::V1),
        "v1beta1" | "v1alpha3" => Some(Shape::Beta1),
        _ => None,
    }
}

/// The versions `--to` accepts.
pub const TARGETS: [&str; 4] = ["v1", "v1beta2", "v1beta1", "v1alpha3"];

/// Converts every resource.k8s.io object of `text` to `resource.k8s.io/{to}`.
pub fn convert(text: &str, to: &str, gates: &FeatureGates) -> Conversion {
    let to = to.strip_prefix("resource.k8s.io/").unwrap_or(to);
    let parsed = parse_file(0, text, Limits::default());
    let lines = LineIndex::new(text);
    let src = Source::new(text);
    let shared = src.byte_ranges(&parsed.shared);
    let mut out = Conversion {
        text: text.to_owned(),
        ..Conversion::default()
    };
    if !parsed.problems.is_empty() {
        out.problems.push(Problem {
            object: String::new(),
            line: 1,
            message: "the file does not parse as Kubernetes objects (run `kubectl dra lint` on it); not converted".into(),
        });
        return out;
    }
    // (object index, its edits, what it became)
    let mut planned: Vec<Planned> = Vec::new();
    for (i, obj) in parsed.objects.iter().enumerate() {
        let Some(from) = obj
            .root
            .get("apiVersion")
            .and_then(Node::as_str)
            .and_then(|a| a.strip_prefix("resource.k8s.io/"))
        else {
            continue;
        };
        if from == to {
            continue;
        }
        let line = lines.line_col(obj.root.span.start).0;
        let name = describe(obj);
        let refuse = |message: String| Problem {
            object: name.clone(),
            line,
            message,
        };
        match plan(&src, obj, from, to, gates) {
            Ok(edits) if edit::touches_shared(&edits, &shared) => {
                out.problems.push(refuse(THROUGH_ALIAS.into()))
            }
            Ok(edits) => planned.push((
                i,
                edits,
                Converted {
                    object: name.clone(),
                    from: format!("resource.k8s.io/{from}"),
                    to: format!("resource.k8s.io/{to}"),
                    line,
                },
            )),
            Err(message) => out.problems.push(refuse(message)),
        }
    }
    // Keep the objects whose edited text means what the apiserver's
    // conversion means; drop the others and try again without them.
    loop {
        let (new_text, failed) = check(text, &parsed.objects, &planned, to);
        if failed.is_empty() {
            out.text = new_text.unwrap_or_else(|| text.to_owned());
            break;
        }
        for k in failed.into_iter().rev() {
            let (_, _, c) = planned.remove(k);
            out.problems.push(Problem {
                object: c.object,
                line: c.line,
                message: "this layout could not be rewritten without changing the object (convert it by hand); not converted".into(),
            });
        }
    }
    out.converted = planned.into_iter().map(|p| p.2).collect();
    out.problems.sort_by_key(|p| p.line);
    out
}

type Planned = (usize, Vec<Edit>, Converted);

/// Why an object whose conversion edits YAML an alias repeats is left alone.
const THROUGH_ALIAS: &str = "its conversion would edit YAML that an alias repeats (&anchor ... *anchor), changing every object that shares it; not converted (expand the alias, or convert the objects by hand)";

/// The text with every planned edit, and the plans (by position) whose
/// object, parsed back, is not the apiserver's conversion of the original.
fn check(
    text: &str,
    objects: &[Object],
    planned: &[Planned],
    to: &str,
) -> (Option<String>, Vec<usize>) {
    let edits: Vec<Edit> = planned.iter().flat_map(|p| p.1.iter().cloned()).collect();
    let Some(new_text) = edit::apply(text, &edits) else {
        return (None, (0..planned.len()).collect());
    };
    let reparsed = parse_file(0, &new_text, Limits::default());
    let same_objects = reparsed.problems.is_empty() && reparsed.objects.len() == objects.len();
    let failed = planned
        .iter()
        .enumerate()
        .filter(|(_, (i, _, _))| {
            !same_objects || !faithful(&objects[*i], &reparsed.objects[*i], to)
        })
        .map(|(k, _)| k)
        .collect();
    (Some(new_text), failed)
}

/// The edits that convert one object of `text` (the first `pick` accepts)
/// to `resource.k8s.io/{to}`, checked as [`convert`] checks them.
pub fn convert_one(
    text: &str,
    pick: impl Fn(&Object) -> bool,
    to: &str,
    gates: &FeatureGates,
) -> Result<Vec<Edit>, String> {
    let parsed = parse_file(0, text, Limits::default());
    let i = parsed
        .objects
        .iter()
        .position(pick)
        .ok_or_else(|| "no such object".to_owned())?;
    let obj = &parsed.objects[i];
    let from = obj
        .root
        .get("apiVersion")
        .and_then(Node::as_str)
        .and_then(|a| a.strip_prefix("resource.k8s.io/"))
        .ok_or_else(|| "not a resource.k8s.io object".to_owned())?;
    let edits = plan(&Source::new(text), obj, from, to, gates)?;
    let line = LineIndex::new(text).line_col(obj.root.span.start).0;
    let planned = [(
        i,
        edits,
        Converted {
            object: describe(obj),
            from: from.to_owned(),
            to: to.to_owned(),
            line,
        },
    )];
    match check(text, &parsed.objects, &planned, to) {
        (Some(_), failed) if failed.is_empty() => {
            let [(_, edits, _)] = planned;
            Ok(edits)
        }
        _ => Err("the rewrite would change the object".into()),
    }
}

/// Whether `converted` means what `original` means in `to`. Down to the
/// v1beta1 shape, the apiserver's conversion back up must give the original.
fn faithful(original: &Object, converted: &Object, to: &str) -> bool {
    let from = original
        .root
        .get("apiVersion")
        .and_then(Node::as_str)
        .and_then(|a| a.strip_prefix("resource.k8s.io/"))
        .unwrap_or_default();
    if shape(from) == Some(Shape::V1) && shape(to) == Some(Shape::Beta1) {
        let mut back = converted.root.clone();
        v1beta1_to_v1(original.kind, &mut back);
        let mut back = back.to_json();
        back["apiVersion"] = original
            .root
            .get("apiVersion")
            .map_or(serde_json::Value::Null, Node::to_json);
        return back == original.root.to_json();
    }
    converted.root.to_json() == expected_tree(original, to)
}

/// "ResourceClaim team-a/gpu".
fn describe(obj: &Object) -> String {
    let kind = obj
        .root
        .get("kind")
        .and_then(Node::as_str)
        .unwrap_or("object");
    match (obj.namespace(), obj.name()) {
        (Some(ns), Some(n)) => format!("{kind} {ns}/{n}"),
        (None, Some(n)) => format!("{kind} {n}"),
        _ => kind.to_owned(),
    }
}

/// The object as the apiserver would hold it after converting it to `to`.
fn expected_tree(obj: &Object, to: &str) -> serde_json::Value {
    let mut root = obj.root.clone();
    let from = root
        .get("apiVersion")
        .and_then(Node::as_str)
        .and_then(|a| a.strip_prefix("resource.k8s.io/"))
        .unwrap_or_default()
        .to_owned();
    if shape(&from) == Some(Shape::Beta1) && shape(to) == Some(Shape::V1) {
        v1beta1_to_v1(obj.kind, &mut root);
    }
    let mut json = root.to_json();
    json["apiVersion"] = format!("resource.k8s.io/{to}").into();
    json
}

/// The edits that convert one object, or why it cannot be converted.
fn plan(
    src: &Source<'_>,
    obj: &Object,
    from: &str,
    to: &str,
    gates: &FeatureGates,
) -> Result<Vec<Edit>, String> {
    let kind_name = obj
        .root
        .get("kind")
        .and_then(Node::as_str)
        .unwrap_or("object");
    let dra = matches!(
        obj.kind,
        ObjectKind::DeviceClass
            | ObjectKind::ResourceClaim
            | ObjectKind::ResourceClaimTemplate
            | ObjectKind::ResourceSlice
            | ObjectKind::DeviceTaintRule
    );
    if from == "v1alpha2" {
        return Err(format!(
            "resource.k8s.io/v1alpha2 is classic DRA, removed in Kubernetes 1.31: its {kind_name} has no equivalent in resource.k8s.io/{to}; rewrite it for structured parameters (DeviceClass, requests with exactly)"
        ));
    }
    if obj.kind == ObjectKind::ResourcePoolStatusRequest {
        return Err(format!(
            "{kind_name} is served only as resource.k8s.io/v1alpha3 ({}): there is no other version to convert it to",
            where_served(obj.kind)
        ));
    }
    if !dra {
        return Err(format!(
            "{kind_name} (resource.k8s.io/{from}) has no equivalent in resource.k8s.io/{to}: classic DRA was removed in Kubernetes 1.31"
        ));
    }
    let (Some(from_shape), Some(to_shape)) = (shape(from), shape(to)) else {
        return Err(format!(
            "no conversion from resource.k8s.io/{from} to resource.k8s.io/{to}"
        ));
    };
    let target = format!("resource.k8s.io/{to}");
    match verdict(obj.kind, &target, gates) {
        Verdict::NotServed => {
            return Err(format!(
                "Kubernetes {} does not serve {kind_name} in {target}; it is served in {}",
                gates.version,
                where_served(obj.kind)
            ))
        }
        Verdict::GateOff { .. } | Verdict::Served { .. } => {}
    }
    let mut edits = vec![api_version_edit(src, obj, to)?];
    if from_shape == Shape::V1 && to_shape == Shape::Beta1 {
        edits.extend(down_edits(src, obj)?);
        return Ok(edits);
    }
    if obj.kind == ObjectKind::DeviceTaintRule && from == "v1alpha3" {
        let sel = obj.spec().and_then(|s| s.get("deviceSelector"));
        for field in ["deviceClassName", "selectors"] {
            if sel.is_some_and(|s| s.get(field).is_some()) {
                return Err(format!(
                    "spec.deviceSelector.{field} has no equivalent in {target} (a rule selects by driver, pool and device only)"
                ));
            }
        }
    }
    if from_shape == Shape::Beta1 && to_shape == Shape::V1 {
        match obj.kind {
            ObjectKind::ResourceClaim | ObjectKind::ResourceClaimTemplate => {
                let spec = if obj.kind == ObjectKind::ResourceClaim {
                    obj.spec()
                } else {
                    obj.spec().and_then(|s| s.get("spec"))
                };
                let requests = spec
                    .and_then(|s| s.get("devices"))
                    .and_then(|d| d.get("requests"))
                    .and_then(Node::as_seq)
                    .unwrap_or_default();
                for r in requests {
                    edits.extend(request_edits(src, r)?);
                }
            }
            ObjectKind::ResourceSlice => {
                if from == "v1alpha3" {
                    alpha3_capacities(obj)?;
                }
                edits.extend(slice_edits(src, obj)?);
            }
            _ => {}
        }
    }
    Ok(edits)
}

/// `apiVersion: resource.k8s.io/v1beta1` -> `.../v1`, quoting kept.
fn api_version_edit(src: &Source<'_>, obj: &Object, to: &str) -> Result<Edit, String> {
    let node = obj
        .root
        .get("apiVersion")
        .ok_or_else(|| "no apiVersion".to_owned())?;
    let (start, end) = src.bytes(node.span);
    let at = src.text[start..end]
        .find("resource.k8s.io/")
        .ok_or_else(|| "the apiVersion is not written out plainly".to_owned())?;
    let version_start = start + at + "resource.k8s.io/".len();
    let len = src.text[version_start..end]
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(end - version_start);
    Ok(Edit {
        start: version_start,
        end: version_start + len,
        text: to.to_owned(),
    })
}

/// A v1beta1 request's own fields move into `exactly` when any is set
/// (zero values alone are dropped, as the conversion leaves them unset).
pub(crate) fn request_edits(src: &Source<'_>, request: &Node) -> Result<Vec<Edit>, String> {
    let Some(entries) = request.as_map() else {
        return Ok(Vec::new());
    };
    if entries.iter().any(|e| e.key == "exactly") {
        return Err(
            "a request has `exactly`, which v1beta1 does not know; fix the apiVersion by hand"
                .into(),
        );
    }
    let moved: Vec<&Entry> = entries
        .iter()
        .filter(|e| REQUEST_FIELDS.contains(&e.key.as_str()))
        .collect();
    if moved.is_empty() {
        return Ok(Vec::new());
    }
    let any_set = moved.iter().any(|e| is_set(&e.value));
    if src.is_flow(request) {
        flow_without_comments(src, request)?;
        let inner: Vec<String> = moved.iter().map(|e| flow_text(src, e)).collect();
        let exactly = format!("exactly: {{{}}}", inner.join(", "));
        let mut placed = false;
        let mut parts = Vec::new();
        for e in entries {
            if moved.iter().any(|m| std::ptr::eq(*m, e)) {
                if any_set && !placed {
                    parts.push(exactly.clone());
                    placed = true;
                }
            } else {
                parts.push(flow_text(src, e));
            }
        }
        return Ok(vec![replace_flow(src, request, &parts)]);
    }
    if !any_set {
        return Ok(moved
            .iter()
            .map(|e| delete_block_entry(src, &src.extent(e)))
            .collect());
    }
    wrap_block(src, &moved, "exactly")
}

/// Block entries moved, in order, under a new `key:` at the first one's
/// place.
pub(super) fn wrap_block(
    src: &Source<'_>,
    entries: &[&Entry],
    key: &str,
) -> Result<Vec<Edit>, String> {
    let mut extents: Vec<_> = entries.iter().map(|e| src.extent(e)).collect();
    extents.sort_by_key(|x| x.start);
    let first = extents[0];
    let mut body = String::new();
    for (k, x) in extents.iter().enumerate() {
        let chunk = &src.text[x.start..x.end];
        if k == 0 && first.on_dash_line {
            let (head, rest) = chunk.split_at(chunk.find('\n').map_or(chunk.len(), |i| i + 1));
            body.push_str(&" ".repeat(first.col + 2));
            body.push_str(head);
            body = with_newline(body);
            body.push_str(&indent(rest, 2));
        } else {
            body.push_str(&indent(chunk, 2));
        }
        body = with_newline(body);
    }
    let header = if first.on_dash_line {
        format!("{key}:\n")
    } else {
        format!("{}{key}:\n", " ".repeat(first.col))
    };
    let mut text = header + &body;
    if !src.text[first.start..first.end].ends_with('\n') {
        text.pop();
    }
    let mut edits = vec![Edit {
        start: first.start,
        end: first.end,
        text,
    }];
    edits.extend(extents[1..].iter().map(|x| Edit {
        start: x.start,
        end: x.end,
        text: String::new(),
    }));
    Ok(edits)
}

/// A v1beta1 slice: devices' `basic` unwrapped; an empty `nodeName` and
/// `allNodes: false` dropped (the conversion leaves them unset, and v1
/// refuses them written out).
fn slice_edits(src: &Source<'_>, obj: &Object) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::new();
    let Some(spec) = obj.spec() else {
        return Ok(edits);
    };
    let drop: Vec<&Entry> = spec
        .as_map()
        .unwrap_or_default()
        .iter()
        .filter(|e| {
            (e.key == "nodeName" && e.value.as_str() == Some(""))
                || (e.key == "allNodes" && e.value.as_bool() == Some(false))
        })
        .collect();
    if !drop.is_empty() {
        if src.is_flow(spec) {
            flow_without_comments(src, spec)?;
            let parts: Vec<String> = spec
                .as_map()
                .unwrap_or_default()
                .iter()
                .filter(|e| !drop.iter().any(|d| std::ptr::eq(*d, *e)))
                .map(|e| flow_text(src, e))
                .collect();
            edits.push(replace_flow(src, spec, &parts));
        } else {
            for e in &drop {
                let x = src.extent(e);
                if x.on_dash_line {
                    return Err("an empty nodeName or allNodes: false starts a list item; remove it by hand".into());
                }
                edits.push(delete_block_entry(src, &x));
            }
        }
    }
    for d in spec
        .get("devices")
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let Some(entries) = d.as_map() else { continue };
        let Some(basic) = entries.iter().find(|e| e.key == "basic") else {
            continue;
        };
        edits.push(unwrap_basic(src, d, entries, basic)?);
    }
    Ok(edits)
}

/// v1alpha3 of Kubernetes 1.31 wrote a capacity as a bare quantity
/// (`memory: 80Gi`); later versions as `{value: 80Gi}`. Not guessed.
fn alpha3_capacities(obj: &Object) -> Result<(), String> {
    for d in obj
        .spec()
        .and_then(|s| s.get("devices"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let capacity = d
            .get("basic")
            .and_then(|b| b.get("capacity"))
            .or_else(|| d.get("capacity"));
        if let Some(c) = capacity
            .and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .find(|c| c.value.as_map().is_none())
        {
            return Err(format!(
                "capacity {} is a bare quantity (v1alpha3 of Kubernetes 1.31): write it as `{{value: ...}}` first",
                c.key
            ));
        }
    }
    Ok(())
}

/// The device's fields out of `basic`, one level up.
fn unwrap_basic(
    src: &Source<'_>,
    device: &Node,
    entries: &[Entry],
    basic: &Entry,
) -> Result<Edit, String> {
    let inner = basic.value.as_map().unwrap_or_default();
    if src.is_flow(device) {
        flow_without_comments(src, device)?;
        let mut parts = Vec::new();
        for e in entries {
            if std::ptr::eq(e, basic) {
                parts.extend(inner.iter().map(|i| flow_text(src, i)));
            } else {
                parts.push(flow_text(src, e));
            }
        }
        return Ok(replace_flow(src, device, &parts));
    }
    let x = src.extent(basic);
    if inner.is_empty() {
        if !x.on_dash_line {
            return Ok(delete_block_entry(src, &x));
        }
        // `- basic:` then `  name: d`: the next key moves up onto the
        // item's line.
        let next = &src.text[x.end..];
        let sibling = next.len() > x.col
            && next.as_bytes()[..x.col].iter().all(|&b| b == b' ')
            && !matches!(next.as_bytes()[x.col], b' ' | b'#' | b'-' | b'\n' | b'\r');
        if !sibling {
            return Err("an empty `basic` is all of a list item; remove it by hand".into());
        }
        return Ok(Edit {
            start: x.key,
            end: x.end + x.col,
            text: String::new(),
        });
    }
    let text = if src.is_flow(&basic.value) {
        // `basic: {attributes: ..., capacity: ...}`: one line per field.
        let mut out = String::new();
        for (k, i) in inner.iter().enumerate() {
            if !(k == 0 && x.on_dash_line) {
                out.push_str(&" ".repeat(x.col));
            }
            out.push_str(&flow_text(src, i));
            out.push('\n');
        }
        out
    } else {
        let key_line_end = src.text[x.key..x.end]
            .find('\n')
            .map_or(x.end, |i| x.key + i + 1);
        // A comment after `basic:` stays, as a line of its own.
        let after_key = &src.text[x.key..key_line_end];
        let comment = after_key
            .find(" #")
            .map(|i| after_key[i + 1..].trim_end().to_owned());
        let leading = &src.text[x.start..if x.on_dash_line {
            x.key
        } else {
            line_of(src, x.key)
        }];
        let first_inner = inner
            .iter()
            .map(|e| src.extent(e).col)
            .min()
            .unwrap_or(x.col + 2);
        if first_inner <= x.col {
            return Err("`basic` is not indented as a block; convert it by hand".into());
        }
        let body = dedent(&src.text[key_line_end..x.end], first_inner - x.col);
        let mut out = String::from(if x.on_dash_line { "" } else { leading });
        match (comment, x.on_dash_line) {
            // `- # the device` then the fields below: still one item.
            (Some(c), true) => {
                out.push_str(&format!("{c}\n"));
                out.push_str(&body);
            }
            (Some(c), false) => {
                out.push_str(&format!("{}{c}\n", " ".repeat(x.col)));
                out.push_str(&body);
            }
            (None, true) => out.push_str(body.trim_start_matches(' ')),
            (None, false) => out.push_str(&body),
        }
        out
    };
    let mut text = text;
    if !src.text[x.start..x.end].ends_with('\n') && text.ends_with('\n') {
        text.pop();
    }
    Ok(Edit {
        start: x.start,
        end: x.end,
        text,
    })
}

/// The start of the line holding byte `b`.
fn line_of(src: &Source<'_>, b: usize) -> usize {
    src.text[..b].rfind('\n').map_or(0, |i| i + 1)
}

pub(crate) fn delete_block_entry(_src: &Source<'_>, x: &edit::Extent) -> Edit {
    Edit {
        start: x.start,
        end: x.end,
        text: String::new(),
    }
}

/// Rewriting a flow mapping would lose a comment inside it.
pub(crate) fn flow_without_comments(src: &Source<'_>, map: &Node) -> Result<(), String> {
    let (start, end) = src.bytes(map.span);
    if src.text[start..end].contains('#') {
        return Err(
            "a comment inside a flow mapping (`{...}`) would be lost; convert it by hand".into(),
        );
    }
    Ok(())
}

/// `key: value` of a flow entry, as written.
pub(crate) fn flow_text(src: &Source<'_>, e: &Entry) -> String {
    let (start, end) = src.flow_entry(e);
    src.text[start..end].trim_end().to_owned()
}

/// The flow mapping rewritten with `parts` as its entries.
pub(crate) fn replace_flow(src: &Source<'_>, map: &Node, parts: &[String]) -> Edit {
    let (start, end) = src.bytes(map.span);
    Edit {
        start,
        end,
        text: format!("{{{}}}", parts.join(", ")),
    }
}

#[cfg(test)]
mod tests;
