//! A loopback stand-in for kube-apiserver's read paths, for the live-cluster
//! tests and the live benchmark: HTTPS with a generated CA and server
//! certificate, bearer-token auth, `/version`, discovery, `/metrics`,
//! paginated lists with opaque continue tokens, metadata-only lists, and on
//! demand 401/403 Status objects, 404, 410, 429, 5xx and stalls. It records
//! every request so tests can check that only GETs were sent.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Request, Response};
use serde_json::{json, Value};

/// What the stand-in cluster holds and how it misbehaves.
#[derive(Clone, Default)]
pub struct Fixture {
    /// `gitVersion`, e.g. `v1.37.0`.
    pub version: String,
    /// Whether `resource.k8s.io/v1` is served (not on 1.33).
    pub serves_v1: bool,
    /// Plural -> items (with `metadata.namespace` where namespaced).
    pub objects: HashMap<String, Vec<Value>>,
    /// `/metrics` text; `None` answers 403.
    pub metrics: Option<String>,
    /// Path (without query) -> status codes answered before the real answer.
    pub script: HashMap<String, VecDeque<u16>>,
    /// Path prefix -> status always answered (403 for an RBAC-limited user).
    pub deny: Vec<(String, u16)>,
    /// Answer the first `continue` request with 410 Expired.
    pub expire_first_continue: bool,
    /// A misbehaving server: every page of a list hands back the same
    /// continue token, so following it never ends.
    pub cycle_continue: bool,
    /// A misbehaving server: each page after the first begins with the last
    /// item of the page before (seen with list restarts under churn).
    pub repeat_between_pages: bool,
    /// Wait this long before answering paths with this prefix.
    pub stall: Option<(String, Duration)>,
    /// The user the token belongs to (in 403 messages).
    pub user: String,
}

pub const TOKEN: &str = "kubectl-dra-test-token";

/// The plural of each kind the stand-in serves.
pub fn plural_of(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "ResourceSlice" => "resourceslices",
        "DeviceClass" => "deviceclasses",
        "ResourceClaim" => "resourceclaims",
        "ResourceClaimTemplate" => "resourceclaimtemplates",
        "DeviceTaintRule" => "devicetaintrules",
        "Node" => "nodes",
        "Pod" => "pods",
        "Event" => "events",
        "Namespace" => "namespaces",
        "PersistentVolumeClaim" => "persistentvolumeclaims",
        "PersistentVolume" => "persistentvolumes",
        "StorageClass" => "storageclasses",
        _ => return None,
    })
}

impl Fixture {
    /// A cluster of `version` (`1.37`) holding `objects`, reporting `gates` in `/metrics`.
    pub fn new(version: &str, objects: &[Value], gates: &[(String, bool)]) -> Fixture {
        let mut by_plural: HashMap<String, Vec<Value>> = HashMap::new();
        for o in objects {
            if let Some(p) = o["kind"].as_str().and_then(plural_of) {
                by_plural.entry(p.to_owned()).or_default().push(o.clone());
            }
        }
        let mut metrics = String::from("# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.\n# TYPE kubernetes_feature_enabled gauge\n");
        for (g, on) in gates {
            metrics.push_str(&format!(
                "kubernetes_feature_enabled{{name=\"{g}\",stage=\"BETA\"}} {}\n",
                u8::from(*on)
            ));
        }
        Fixture {
            version: format!("v{version}.0"),
            serves_v1: true,
            objects: by_plural,
            metrics: Some(metrics),
            user: "alice".into(),
            ..Fixture::default()
        }
    }
}

#[derive(Clone, Debug)]
pub struct Logged {
    pub method: String,
    pub path: String,
    pub query: String,
    pub accept: String,
}

struct State {
    /// Shared, not cloned per request: a large fixture holds 100 MB of JSON.
    fixture: Mutex<Arc<Fixture>>,
    log: Mutex<Vec<Logged>>,
    /// Encoded list pages: a benchmark's second run then measures the client,
    /// not the stand-in's JSON encoding. Cleared when the fixture changes.
    pages: Mutex<HashMap<String, Bytes>>,
    expired: Mutex<bool>,
}

pub struct Server {
    pub url: String,
    pub ca_pem: String,
    state: Arc<State>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
    }
}

fn status(code: u16, reason: &str, message: &str) -> Response<Full<Bytes>> {
    let body = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason, "code": code});
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() =
        hyper::StatusCode::from_u16(code).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert("content-type", "application/json".parse().unwrap());
    if code == 429 {
        r.headers_mut().insert("retry-after", "0".parse().unwrap());
    }
    r
}

fn ok_json(v: &Value) -> Response<Full<Bytes>> {
    ok_bytes(Bytes::from(serde_json::to_vec(v).unwrap()))
}

fn ok_bytes(b: Bytes) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(b));
    r.headers_mut()
        .insert("content-type", "application/json".parse().unwrap());
    r
}

fn query_param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

fn decode(s: &str) -> String {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `(group, plural, namespace, name)` of a resource path.
fn parse_path(path: &str) -> Option<(String, String, Option<String>, Option<String>)> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (group, rest) = match parts.as_slice() {
        ["api", "v1", rest @ ..] => ("", rest),
        ["apis", g, "v1", rest @ ..] => (*g, rest),
        _ => return None,
    };
    let (ns, rest) = match rest {
        ["namespaces", ns, rest @ ..] if !rest.is_empty() => (Some(ns.to_string()), rest),
        _ => (None, rest),
    };
    match rest {
        [plural] => Some((group.into(), plural.to_string(), ns, None)),
        [plural, name] => Some((group.into(), plural.to_string(), ns, Some(name.to_string()))),
        _ => None,
    }
}

async fn handle(
    state: Arc<State>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    let accept = req
        .headers()
        .get("accept")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    state.log.lock().unwrap().push(Logged {
        method: req.method().to_string(),
        path: path.clone(),
        query: query.clone(),
        accept: accept.clone(),
    });
    let fixture = Arc::clone(&state.fixture.lock().unwrap());
    if let Some((prefix, d)) = &fixture.stall {
        if path.starts_with(prefix.as_str()) {
            tokio::time::sleep(*d).await;
        }
    }
    let auth = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth != format!("Bearer {TOKEN}") {
        return Ok(status(401, "Unauthorized", "Unauthorized"));
    }
    if req.method() != hyper::Method::GET {
        return Ok(status(
            405,
            "MethodNotAllowed",
            "the stand-in only serves reads",
        ));
    }
    let scripted = {
        let mut f = state.fixture.lock().unwrap();
        if f.script.contains_key(&path) {
            Arc::make_mut(&mut f)
                .script
                .get_mut(&path)
                .and_then(VecDeque::pop_front)
        } else {
            None
        }
    };
    if let Some(code) = scripted {
        return Ok(status(
            code,
            "Scripted",
            &format!("scripted {code} for {path}"),
        ));
    }
    if let Some(refused) = negotiate(&accept) {
        return Ok(refused);
    }
    let parsed = parse_path(&path);
    for (prefix, code) in &fixture.deny {
        if path.starts_with(prefix.as_str()) {
            let (group, plural, ns) = parsed
                .clone()
                .map(|(g, p, n, _)| (g, p, n))
                .unwrap_or_default();
            let scope = match ns {
                Some(n) => format!("in the namespace \"{n}\""),
                None => "at the cluster scope".into(),
            };
            let msg = if parsed.is_some() {
                format!("{plural}{}{group} is forbidden: User \"{}\" cannot list resource \"{plural}\" in API group \"{group}\" {scope}", if group.is_empty() { "" } else { "." }, fixture.user)
            } else {
                format!(
                    "forbidden: User \"{}\" cannot get path \"{path}\"",
                    fixture.user
                )
            };
            return Ok(status(
                *code,
                if *code == 403 { "Forbidden" } else { "Failure" },
                &msg,
            ));
        }
    }
    match path.as_str() {
        "/version" => {
            let minor = fixture
                .version
                .trim_start_matches("v1.")
                .split('.')
                .next()
                .unwrap_or("0")
                .to_owned();
            return Ok(ok_json(
                &json!({"major": "1", "minor": minor, "gitVersion": fixture.version, "platform": "linux/amd64"}),
            ));
        }
        "/metrics" => {
            return Ok(match &fixture.metrics {
                Some(m) => Response::new(Full::new(Bytes::from(m.clone()))),
                None => status(
                    403,
                    "Forbidden",
                    &format!(
                        "forbidden: User \"{}\" cannot get path \"/metrics\"",
                        fixture.user
                    ),
                ),
            });
        }
        "/apis/resource.k8s.io/v1" => {
            if !fixture.serves_v1 {
                return Ok(status(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                ));
            }
            let mut resources = vec![
                json!({"name": "deviceclasses", "namespaced": false, "kind": "DeviceClass", "verbs": ["get", "list"]}),
                json!({"name": "resourceslices", "namespaced": false, "kind": "ResourceSlice", "verbs": ["get", "list"]}),
                json!({"name": "resourceclaims", "namespaced": true, "kind": "ResourceClaim", "verbs": ["get", "list"]}),
                json!({"name": "resourceclaimtemplates", "namespaced": true, "kind": "ResourceClaimTemplate", "verbs": ["get", "list"]}),
            ];
            if fixture.version.as_str() >= "v1.37" {
                resources.push(json!({"name": "devicetaintrules", "namespaced": false, "kind": "DeviceTaintRule", "verbs": ["get", "list"]}));
            }
            return Ok(ok_json(
                &json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "resource.k8s.io/v1", "resources": resources}),
            ));
        }
        _ => {}
    }
    let Some((group, plural, ns, name)) = parsed else {
        return Ok(status(
            404,
            "NotFound",
            "the server could not find the requested resource",
        ));
    };
    if group == "resource.k8s.io" && !fixture.serves_v1 {
        return Ok(status(
            404,
            "NotFound",
            "the server could not find the requested resource",
        ));
    }
    let selectors = match Selectors::parse(&plural, &query) {
        Ok(s) => s,
        Err(msg) => return Ok(status(400, "BadRequest", &msg)),
    };
    if let Some(msg) = resource_version_match_error(&query) {
        return Ok(status(400, "BadRequest", &msg));
    }
    // Cached pages first: matching is linear in the fixture, and doing it
    // for every page made a 91-page list quadratic in the stand-in (issue 29's
    // benchmark measured the server, not the client).
    let cache_key = format!("{path}?{query}#{accept}");
    let cached = state.pages.lock().unwrap().get(&cache_key).cloned();
    if let Some(b) = cached.filter(|_| !fixture.cycle_continue) {
        if !query.contains("continue=") || !fixture.expire_first_continue {
            return Ok(ok_bytes(b));
        }
    }
    // Objects are borrowed, and only those served are given their stored form.
    let items: Vec<&Value> = fixture
        .objects
        .get(&plural)
        .map(|v| {
            v.iter()
                .filter(|o| {
                    ns.as_deref().is_none_or(|n| {
                        o["metadata"]["namespace"].as_str().unwrap_or("default") == n
                    })
                })
                .filter(|o| selectors.matches(o))
                .collect()
        })
        .unwrap_or_default();
    let kind = items
        .first()
        .and_then(|o| o["kind"].as_str())
        .unwrap_or("")
        .to_owned();
    if let Some(name) = name {
        return Ok(
            match items
                .iter()
                .find(|o| o["metadata"]["name"].as_str() == Some(name.as_str()))
            {
                Some(o) => ok_json(&as_stored(o)),
                None => status(404, "NotFound", &format!("{plural} \"{name}\" not found")),
            },
        );
    }
    let limit: usize = query_param(&query, "limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(usize::MAX);
    let offset = match query_param(&query, "continue") {
        Some(token) => {
            let token = decode(token);
            let mut expired = state.expired.lock().unwrap();
            if fixture.expire_first_continue && !*expired {
                *expired = true;
                return Ok(status(410, "Expired", "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter."));
            }
            match token
                .strip_prefix("opaque:")
                .and_then(|t| usize::from_str_radix(t, 16).ok())
            {
                Some(o) => o,
                None => return Ok(status(400, "BadRequest", "invalid continue token")),
            }
        }
        None => 0,
    };
    let repeat = usize::from(fixture.repeat_between_pages && offset > 0);
    let page: Vec<Value> = items
        .iter()
        .skip(offset - repeat)
        .take(limit + repeat)
        .map(|o| {
            let mut o = as_stored(o);
            if let Some(m) = o.as_object_mut() {
                m.remove("apiVersion");
                m.remove("kind");
            }
            o
        })
        .collect();
    let next = offset + page.len() - repeat;
    let token = if fixture.cycle_continue {
        "opaque:0".to_owned()
    } else if next < items.len() {
        format!("opaque:{next:x}")
    } else {
        String::new()
    };
    let meta_only = accept.contains("as=PartialObjectMetadataList");
    let body = if accept.contains("as=Table") {
        table(&page, &token, items.len() - next)
    } else if meta_only {
        json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": "100", "continue": token},
            "items": page.iter().map(|o| json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": o["metadata"]})).collect::<Vec<_>>()})
    } else {
        let api = if group.is_empty() {
            "v1".to_owned()
        } else {
            format!("{group}/v1")
        };
        let mut meta = json!({"resourceVersion": "100", "continue": token});
        if next < items.len() {
            meta["remainingItemCount"] = json!(items.len() - next);
        }
        json!({"kind": format!("{kind}List"), "apiVersion": api, "metadata": meta, "items": page})
    };
    let bytes = Bytes::from(serde_json::to_vec(&body).unwrap());
    state.pages.lock().unwrap().insert(cache_key, bytes.clone());
    Ok(ok_bytes(bytes))
}

/// kube-apiserver's content negotiation on the read path: JSON (also as
/// `PartialObjectMetadataList` or `Table` of meta.k8s.io/v1) is served; an
/// Accept header naming no JSON type is refused 406, as the real server
/// refuses a type it does not serve (the stand-in serves no Protobuf, so a
/// Protobuf-only request is refused too: a client must ask for JSON). The
/// message is the apiserver's (`NewNotAcceptableError`).
fn negotiate(accept: &str) -> Option<Response<Full<Bytes>>> {
    let json = accept.is_empty()
        || accept.split(',').any(|t| {
            let t = t.trim();
            t.starts_with("application/json")
                || t.starts_with("*/*")
                || t.starts_with("application/*")
        });
    (!json).then(|| {
        status(
            406,
            "NotAcceptable",
            "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
        )
    })
}

/// What a real server adds to every object it stores and serves:
/// `uid`, `resourceVersion`, `creationTimestamp`, `managedFields`, and the
/// defaults of the API (Pods: `schedulerName`, the not-ready/unreachable
/// tolerations of the DefaultTolerationSeconds admission plugin; claims:
/// `allocationMode: ExactCount` and `count: 1` of an exact request).
fn as_stored(o: &Value) -> Value {
    let mut o = o.clone();
    let name = o["metadata"]["name"].as_str().unwrap_or("").to_owned();
    let api_version = o["apiVersion"].clone();
    let meta = &mut o["metadata"];
    if meta["uid"].is_null() {
        meta["uid"] = json!(format!("uid-{name}"));
    }
    if meta["resourceVersion"].is_null() {
        meta["resourceVersion"] = json!("100");
    }
    if meta["creationTimestamp"].is_null() {
        meta["creationTimestamp"] = json!("2026-11-30T10:00:00Z");
    }
    if meta["managedFields"].is_null() {
        meta["managedFields"] = json!([{"manager": "kubectl-client-side-apply", "operation": "Update",
            "apiVersion": api_version, "time": "2026-11-30T10:00:00Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {}}}}]);
    }
    match o["kind"].as_str() {
        Some("Pod") if o["spec"].is_object() => {
            let spec = &mut o["spec"];
            if spec["schedulerName"].is_null() {
                spec["schedulerName"] = json!("default-scheduler");
            }
            if spec["tolerations"].is_null() {
                spec["tolerations"] = json!([]);
            }
            let tol = spec["tolerations"].as_array_mut().unwrap();
            for key in [
                "node.kubernetes.io/not-ready",
                "node.kubernetes.io/unreachable",
            ] {
                if !tol.iter().any(|t| t["key"] == key) {
                    tol.push(json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}));
                }
            }
        }
        Some("ResourceClaim") => {
            if let Some(spec) = o.get_mut("spec") {
                default_requests(spec);
            }
        }
        Some("ResourceClaimTemplate") => {
            if let Some(spec) = o.pointer_mut("/spec/spec") {
                default_requests(spec);
            }
        }
        _ => {}
    }
    o
}

fn default_requests(spec: &mut Value) {
    let Some(requests) = spec
        .pointer_mut("/devices/requests")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for r in requests {
        if let Some(exactly) = r.get_mut("exactly").filter(|e| e.is_object()) {
            if exactly["allocationMode"].is_null() {
                exactly["allocationMode"] = json!("ExactCount");
            }
            if exactly["allocationMode"] == "ExactCount" && exactly["count"].is_null() {
                exactly["count"] = json!(1);
            }
        }
    }
}

/// `labelSelector` (`k=v`, `k!=v`, `k`, `!k`, comma = and) and
/// `fieldSelector` (`metadata.name`, `metadata.namespace`, and for Pods
/// `spec.nodeName`, `status.phase` and `status.nominatedNodeName`; any
/// other field is refused 400 with
/// the apiserver's `field label not supported` message).
struct Selectors {
    labels: Vec<(String, Option<String>, bool)>,
    fields: Vec<(String, String, bool)>,
}

impl Selectors {
    fn parse(plural: &str, query: &str) -> Result<Selectors, String> {
        let mut out = Selectors {
            labels: Vec::new(),
            fields: Vec::new(),
        };
        if let Some(l) = query_param(query, "labelSelector") {
            for term in decode(l).split(',').filter(|t| !t.is_empty()) {
                let term = term.trim();
                if let Some((k, v)) = term.split_once("!=") {
                    out.labels.push((k.into(), Some(v.into()), false));
                } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('='))
                {
                    out.labels.push((k.into(), Some(v.into()), true));
                } else if let Some(k) = term.strip_prefix('!') {
                    out.labels.push((k.into(), None, false));
                } else {
                    out.labels.push((term.into(), None, true));
                }
            }
        }
        if let Some(f) = query_param(query, "fieldSelector") {
            for term in decode(f).split(',').filter(|t| !t.is_empty()) {
                let (k, v, eq) = match term.split_once("!=") {
                    Some((k, v)) => (k, v, false),
                    None => match term.split_once("==").or_else(|| term.split_once('=')) {
                        Some((k, v)) => (k, v, true),
                        None => {
                            return Err(format!(
                                "invalid selector: '{term}'; can't understand '{term}'"
                            ))
                        }
                    },
                };
                // Events: the fields of pkg/apis/core/v1's event field label
                // conversion.
                let supported = matches!(k, "metadata.name" | "metadata.namespace")
                    || (plural == "pods"
                        && matches!(
                            k,
                            "spec.nodeName" | "status.phase" | "status.nominatedNodeName"
                        ))
                    || (plural == "events"
                        && (k.starts_with("involvedObject.")
                            || matches!(k, "reason" | "source" | "type" | "reportingComponent")));
                if !supported {
                    return Err(format!("field label not supported: {k}"));
                }
                out.fields.push((k.into(), v.into(), eq));
            }
        }
        Ok(out)
    }

    fn matches(&self, o: &Value) -> bool {
        let labels = &o["metadata"]["labels"];
        self.labels
            .iter()
            .all(|(k, v, eq)| match (v, labels[k].as_str()) {
                (None, got) => got.is_some() == *eq,
                (Some(v), got) => (got == Some(v.as_str())) == *eq,
            })
            && self.fields.iter().all(|(k, v, eq)| {
                let got = k.split('.').fold(o, |n, part| &n[part]);
                (got.as_str().unwrap_or("") == v) == *eq
            })
    }
}

/// The apiserver's answers to a `resourceVersionMatch` it cannot honour
/// (`ValidateListOptions`).
fn resource_version_match_error(query: &str) -> Option<String> {
    let m = query_param(query, "resourceVersionMatch")?;
    if query_param(query, "continue").is_some() {
        return Some("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided".into());
    }
    if query_param(query, "resourceVersion").is_none() {
        return Some("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided".into());
    }
    (!matches!(m, "Exact" | "NotOlderThan")).then(|| {
        format!("resourceVersionMatch: Unsupported value: \"{m}\": supported values: \"Exact\", \"NotOlderThan\"")
    })
}

/// A `Table` (meta.k8s.io/v1), as `kubectl get` asks for it: a Name and an
/// Age column, each row's object a `PartialObjectMetadata` (the default
/// `includeObject=Metadata`).
fn table(page: &[Value], token: &str, remaining: usize) -> Value {
    let mut meta = json!({"resourceVersion": "100", "continue": token});
    if remaining > 0 {
        meta["remainingItemCount"] = json!(remaining);
    }
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": meta,
        "columnDefinitions": [
            {"name": "Name", "type": "string", "format": "name", "description": "Name must be unique within a namespace.", "priority": 0},
            {"name": "Age", "type": "string", "format": "", "description": "CreationTimestamp is a timestamp representing the server time when this object was created.", "priority": 0}],
        "rows": page.iter().map(|o| json!({"cells": [o["metadata"]["name"], "2d"],
            "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": o["metadata"]}})).collect::<Vec<_>>()})
}

fn base64(data: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

impl Server {
    /// Starts the stand-in on 127.0.0.1 with a fresh CA and server certificate.
    pub fn start(fixture: Fixture) -> Server {
        use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, SanType};
        let ca_key = KeyPair::generate().unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "kubectl-dra test CA");
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let leaf_key = KeyPair::generate().unwrap();
        let mut leaf_params = CertificateParams::new(vec!["localhost".to_owned()]).unwrap();
        leaf_params
            .subject_alt_names
            .push(SanType::IpAddress(std::net::IpAddr::from([127, 0, 0, 1])));
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![leaf.der().clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into()),
            )
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
        let state = Arc::new(State {
            fixture: Mutex::new(Arc::new(fixture)),
            log: Mutex::new(Vec::new()),
            expired: Mutex::new(false),
            pages: Mutex::new(HashMap::new()),
        });
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let port = std_listener.local_addr().unwrap().port();
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let st = state.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
                loop {
                    tokio::select! {
                        _ = &mut rx => break,
                        accepted = listener.accept() => {
                            let Ok((tcp, _)) = accepted else { continue };
                            let acceptor = acceptor.clone();
                            let st = st.clone();
                            tokio::spawn(async move {
                                let Ok(tls) = acceptor.accept(tcp).await else { return };
                                let io = hyper_util::rt::TokioIo::new(tls);
                                let svc = hyper::service::service_fn(move |req| handle(st.clone(), req));
                                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, svc).await;
                            });
                        }
                    }
                }
            });
        });
        Server {
            url: format!("https://127.0.0.1:{port}"),
            ca_pem: ca_cert.pem(),
            state,
            shutdown: Some(tx),
        }
    }

    /// Writes a kubeconfig for this server (namespace of the context: `namespace`).
    pub fn kubeconfig(&self, dir: &Path, namespace: &str) -> PathBuf {
        let path = dir.join("kubeconfig");
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: loopback\n  cluster:\n    server: {}\n    certificate-authority-data: {}\nusers:\n- name: alice\n  user:\n    token: {TOKEN}\n- name: mallory\n  user:\n    token: wrong-token\ncontexts:\n- name: loopback\n  context: {{cluster: loopback, user: alice, namespace: {namespace}}}\n- name: bad-user\n  context: {{cluster: loopback, user: mallory}}\ncurrent-context: loopback\n",
            self.url,
            base64(self.ca_pem.as_bytes())
        );
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn log(&self) -> Vec<Logged> {
        self.state.log.lock().unwrap().clone()
    }

    pub fn clear_log(&self) {
        self.state.log.lock().unwrap().clear();
    }

    pub fn set_fixture(&self, f: impl FnOnce(&mut Fixture)) {
        f(Arc::make_mut(&mut self.state.fixture.lock().unwrap()));
        self.state.pages.lock().unwrap().clear();
        *self.state.expired.lock().unwrap() = false;
    }
}
