//! Kubernetes objects found in source files: which kind each document is,
//! where its pod spec lives, and which findings its comments suppress.

use crate::diag::ObjectRef;
use crate::tree::{Node, Span, Value};
use crate::yaml::{self, Limits, LoadError};

/// The kinds kubectl-dra understands; everything else is skipped silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    ResourceSlice,
    DeviceClass,
    ResourceClaim,
    ResourceClaimTemplate,
    DeviceTaintRule,
    /// A request for a count of a driver's pools (resource.k8s.io/v1alpha3,
    /// alpha from 1.36, KEP-5677): validated, never read by the allocator.
    ResourcePoolStatusRequest,
    /// A Pod or a workload with a pod template.
    Workload,
    Namespace,
    /// A core v1 Node (labels for node selectors).
    Node,
    /// A core v1 Event: the kubelet's `FailedPrepareDynamicResources` on a
    /// pod is the one trace of a driver whose kubelet plugin is not running.
    Event,
    /// Core v1 PersistentVolumeClaims and PersistentVolumes and
    /// storage.k8s.io StorageClasses: the scheduler's VolumeBinding and
    /// VolumeZone filters read them (`volumes`).
    PersistentVolumeClaim,
    PersistentVolume,
    StorageClass,
    /// RBAC objects, read for the status-authorization rules.
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    ServiceAccount,
    /// A ValidatingAdmissionPolicy (drivers ship one to fence their slices).
    AdmissionPolicy,
    /// The header of a `kubectl dra snapshot`: the cluster's version and gates.
    ClusterSnapshot,
    /// Another resource.k8s.io kind (classic DRA's ResourceClass,
    /// PodSchedulingContext, ...): only its API version is judged.
    OtherResource,
}

impl ObjectKind {
    /// Whether the kind is a `resource.k8s.io` object.
    pub fn is_dra(self) -> bool {
        matches!(
            self,
            ObjectKind::ResourceSlice
                | ObjectKind::DeviceClass
                | ObjectKind::ResourceClaim
                | ObjectKind::ResourceClaimTemplate
                | ObjectKind::DeviceTaintRule
                | ObjectKind::ResourcePoolStatusRequest
        )
    }
}

/// Versions of `resource.k8s.io` and how they relate to v1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiVersion {
    V1,
    /// Same shape as v1 (`resource.k8s.io/v1beta2`).
    V1Beta2,
    /// Devices carry `basic`, requests have no `exactly` (`v1beta1`).
    V1Beta1,
    /// DeviceTaintRule (1.33+) and ResourcePoolStatusRequest (1.36+); the
    /// 1.31-1.32 claims and slices had the v1beta1 shape.
    V1Alpha3,
    /// Not a `resource.k8s.io` version kubectl-dra knows.
    Other,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub file: usize,
    pub document: usize,
    pub kind: ObjectKind,
    pub api: ApiVersion,
    pub reference: ObjectRef,
    pub root: Node,
    /// The 1-based lines the object spans, from the first line after the
    /// previous document (its leading comments): the scope of a
    /// `# kubectl-dra: ignore=` comment (lint::suppress). (0, 0) when it
    /// came from no file.
    pub lines: (u32, u32),
    /// For workloads: the key path to the pod spec (`spec`, `spec.template.spec`, ...).
    pub pod_spec_path: &'static [&'static str],
}

/// Each Node object's name and labels (`None`: it has none), as node
/// selectors and `-l` read them.
pub fn node_labels(objects: &[Object]) -> impl Iterator<Item = (&str, Option<&Node>)> {
    objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(|o| {
            Some((
                o.name()?,
                o.root.get("metadata").and_then(|m| m.get("labels")),
            ))
        })
}

impl Object {
    pub fn name(&self) -> Option<&str> {
        self.reference.name.as_deref()
    }
    pub fn namespace(&self) -> Option<&str> {
        self.reference.namespace.as_deref()
    }
    /// The namespace the object is created in: its own, or `default` (what
    /// `kubectl apply` uses without `-n` in a context with no namespace).
    /// The one place this default is applied.
    pub fn namespace_or_default(&self) -> &str {
        self.namespace().unwrap_or("default")
    }
    pub fn spec(&self) -> Option<&Node> {
        self.root.get("spec")
    }
    pub fn pod_spec(&self) -> Option<&Node> {
        let mut n = &self.root;
        for k in self.pod_spec_path {
            // A number is an index: the first of a JobSet's replicatedJobs.
            n = match k.parse::<usize>() {
                Ok(i) => n.as_seq()?.get(i)?,
                Err(_) => n.get(k)?,
            };
        }
        Some(n)
    }
    /// The key path of the pod spec, as a field-path prefix.
    pub fn pod_spec_field(&self) -> String {
        field_path(self.pod_spec_path)
    }
    /// A Pod's `spec.nodeName` while it has not finished (Succeeded or
    /// Failed): the node the scheduler counts it on.
    pub fn running_on(&self) -> Option<&str> {
        if self.kind != ObjectKind::Workload || self.reference.kind != "Pod" {
            return None;
        }
        let phase = self
            .root
            .get("status")
            .and_then(|s| s.get("phase"))
            .and_then(Node::as_str);
        if matches!(phase, Some("Succeeded" | "Failed")) {
            return None;
        }
        self.pod_spec()?
            .get("nodeName")
            .and_then(Node::as_str)
            .filter(|n| !n.is_empty())
    }
}

/// A key path as a field path: a number is an index (`spec.replicatedJobs[0]`).
pub fn field_path(path: &[&str]) -> String {
    let mut out = String::new();
    for k in path {
        if k.parse::<usize>().is_ok() {
            out.push_str(&format!("[{k}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(k);
        }
    }
    out
}

/// A document that could not be turned into an object.
#[derive(Clone, Debug, PartialEq)]
pub enum DocumentProblem {
    Load(LoadError),
    /// The document is a scalar or a list, not an object.
    NotAnObject {
        document: usize,
        node_kind: String,
        span: crate::tree::Span,
    },
    /// `apiVersion` or `kind` missing or not a string.
    MissingTypeMeta {
        document: usize,
        field: &'static str,
        span: crate::tree::Span,
    },
}

impl DocumentProblem {
    /// What went wrong, as a finding or an error says it.
    pub fn message(&self) -> String {
        match self {
            DocumentProblem::Load(e) => e.message.clone(),
            DocumentProblem::NotAnObject { node_kind, .. } => {
                format!("this document is a {node_kind}, not a Kubernetes object")
            }
            DocumentProblem::MissingTypeMeta { field, .. } => {
                format!("`{field}` is missing or not a string: this is not a Kubernetes object")
            }
        }
    }
}

/// The objects in one file, and what kept the rest from being read.
#[derive(Debug, Default)]
pub struct ParsedFile {
    pub objects: Vec<Object>,
    pub problems: Vec<DocumentProblem>,
    /// The 1-based line of each problem, in step with `problems`: a reader
    /// that drops the text (an inventory read in pieces) can still say
    /// where a problem is.
    pub problem_lines: Vec<u32>,
    /// Documents that are YAML but no Kubernetes object at all (a Helm
    /// `values.yaml`, a workflow, `.pre-commit-config.yaml`: a mapping with
    /// neither `apiVersion` nor `kind`, or a top-level list or scalar).
    /// They are skipped, and counted; a mapping with one of the two but not
    /// the other is a broken manifest (`MissingTypeMeta`).
    pub skipped: usize,
    /// Text that aliases repeat (the loader's `shared`): an edit there
    /// would change every object that shares it.
    pub shared: Vec<Span>,
}

fn classify(
    api_version: &str,
    kind: &str,
) -> Option<(ObjectKind, ApiVersion, &'static [&'static str])> {
    let resource_api = |v: &str| match v {
        "resource.k8s.io/v1" => ApiVersion::V1,
        "resource.k8s.io/v1beta2" => ApiVersion::V1Beta2,
        "resource.k8s.io/v1beta1" => ApiVersion::V1Beta1,
        "resource.k8s.io/v1alpha3" => ApiVersion::V1Alpha3,
        _ => ApiVersion::Other,
    };
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    let dra = |k| Some((k, resource_api(api_version), &[][..]));
    let other = |k| Some((k, ApiVersion::Other, &[][..]));
    match (group, kind) {
        ("resource.k8s.io", "ResourceSlice") => dra(ObjectKind::ResourceSlice),
        ("resource.k8s.io", "DeviceClass") => dra(ObjectKind::DeviceClass),
        ("resource.k8s.io", "ResourceClaim") => dra(ObjectKind::ResourceClaim),
        ("resource.k8s.io", "ResourceClaimTemplate") => dra(ObjectKind::ResourceClaimTemplate),
        ("resource.k8s.io", "DeviceTaintRule") => dra(ObjectKind::DeviceTaintRule),
        ("resource.k8s.io", "ResourcePoolStatusRequest") => {
            dra(ObjectKind::ResourcePoolStatusRequest)
        }
        ("", "Pod") if api_version == "v1" => {
            Some((ObjectKind::Workload, ApiVersion::Other, &["spec"]))
        }
        ("rbac.authorization.k8s.io", "Role") => other(ObjectKind::Role),
        ("rbac.authorization.k8s.io", "ClusterRole") => other(ObjectKind::ClusterRole),
        ("rbac.authorization.k8s.io", "RoleBinding") => other(ObjectKind::RoleBinding),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding") => {
            other(ObjectKind::ClusterRoleBinding)
        }
        ("", "ServiceAccount") if api_version == "v1" => other(ObjectKind::ServiceAccount),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy") => {
            other(ObjectKind::AdmissionPolicy)
        }
        ("kubectl-dra.dev", "ClusterSnapshot") => other(ObjectKind::ClusterSnapshot),
        ("", "Node") if api_version == "v1" => Some((ObjectKind::Node, ApiVersion::Other, &[])),
        ("", "Event") if api_version == "v1" => Some((ObjectKind::Event, ApiVersion::Other, &[])),
        ("", "PersistentVolumeClaim") if api_version == "v1" => {
            other(ObjectKind::PersistentVolumeClaim)
        }
        ("", "PersistentVolume") if api_version == "v1" => other(ObjectKind::PersistentVolume),
        ("storage.k8s.io", "StorageClass") if api_version == "storage.k8s.io/v1" => {
            other(ObjectKind::StorageClass)
        }
        ("", "Namespace") if api_version == "v1" => {
            Some((ObjectKind::Namespace, ApiVersion::Other, &[]))
        }
        ("", "PodTemplate") if api_version == "v1" => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &["template", "spec"],
        )),
        ("", "ReplicationController") if api_version == "v1" => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &["spec", "template", "spec"],
        )),
        // extensions/v1beta1 is read to be refused (DRA-A002), not skipped.
        ("apps", "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet")
        | ("extensions", "Deployment" | "DaemonSet" | "ReplicaSet")
        | ("batch", "Job") => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &["spec", "template", "spec"],
        )),
        // The first replicated job's pod template (JobSet), the workers'
        // (LeaderWorkerSet): the pods a workload has most of.
        ("jobset.x-k8s.io", "JobSet") => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &[
                "spec",
                "replicatedJobs",
                "0",
                "template",
                "spec",
                "template",
                "spec",
            ],
        )),
        ("leaderworkerset.x-k8s.io", "LeaderWorkerSet") => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &["spec", "leaderWorkerTemplate", "workerTemplate", "spec"],
        )),
        ("batch", "CronJob") => Some((
            ObjectKind::Workload,
            ApiVersion::Other,
            &["spec", "jobTemplate", "spec", "template", "spec"],
        )),
        ("resource.k8s.io", _) => other(ObjectKind::OtherResource),
        _ => None,
    }
}

/// Reads one file's text into objects. `kind: List` items become objects of
/// their own; unknown kinds are skipped; bad documents become problems.
pub fn parse_file(file: usize, text: &str, limits: Limits) -> ParsedFile {
    let loaded = yaml::load(text, limits);
    let mut out = ParsedFile::default();
    let counter = std::cell::RefCell::new(crate::lines::LineCounter::new(text));
    let mut prev_end_line = 0u32;
    add_documents(
        file,
        loaded,
        &|i| counter.borrow_mut().line(i),
        &mut prev_end_line,
        &mut out,
    );
    out
}

/// A file read piece by piece (issue 37): the documents of each chunk
/// that ends where a document starts are turned into objects as soon as the
/// chunk is complete, and its text is dropped, so a large inventory never
/// holds its whole text beside its trees. The objects, spans and lines are
/// those [`parse_file`] gives; where one pass could read the file
/// differently (see [`yaml::load_chunk`]), [`StreamedFile::finish`] says so
/// and the caller parses the whole file.
pub struct StreamedFile {
    file: usize,
    limits: Limits,
    pending: String,
    /// Characters and lines before `pending`.
    char_base: u32,
    line_base: u32,
    documents: usize,
    alias_nodes: usize,
    prev_end_line: u32,
    out: ParsedFile,
    whole_file_needed: bool,
    chunk_bytes: usize,
    /// Bytes of `pending` known to hold no place to cut.
    searched: usize,
}

/// Text held before a chunk is cut at its last document start.
pub const STREAM_CHUNK_BYTES: usize = 8 << 20;

impl StreamedFile {
    pub fn new(file: usize, limits: Limits) -> Self {
        Self::with_chunk(file, limits, STREAM_CHUNK_BYTES)
    }

    /// As [`StreamedFile::new`], cutting chunks of about `chunk_bytes`.
    pub fn with_chunk(file: usize, limits: Limits, chunk_bytes: usize) -> Self {
        StreamedFile {
            chunk_bytes,
            searched: 0,
            file,
            limits,
            pending: String::new(),
            char_base: 0,
            line_base: 0,
            documents: 0,
            alias_nodes: 0,
            prev_end_line: 0,
            out: ParsedFile::default(),
            whole_file_needed: false,
        }
    }

    /// Adds the next text of the file.
    pub fn push(&mut self, text: &str) {
        if self.whole_file_needed {
            return;
        }
        self.pending.push_str(text);
        if self.pending.len() >= self.chunk_bytes {
            // Only the text not yet searched (and the few bytes a marker
            // may straddle): one huge document is searched once, not once
            // per block.
            let from = self.searched.saturating_sub(4);
            let from = (0..=from)
                .rev()
                .find(|&i| self.pending.is_char_boundary(i))
                .unwrap_or(0);
            match yaml::last_document_start(&self.pending[from..]) {
                Some(cut) => {
                    // The chunk is loaded where it lies and the rest moved
                    // down: one buffer for the whole file, not a fresh one
                    // (fresh pages) per chunk.
                    let mut pending = std::mem::take(&mut self.pending);
                    self.load(&pending[..from + cut], true);
                    pending.drain(..from + cut);
                    self.pending = pending;
                    self.searched = 0;
                }
                None => self.searched = self.pending.len(),
            }
        }
    }

    /// The file's objects, or `None` when it must be parsed whole.
    pub fn finish(mut self) -> Option<ParsedFile> {
        let chunk = std::mem::take(&mut self.pending);
        self.load(&chunk, false);
        (!self.whole_file_needed).then_some(self.out)
    }

    /// Loads a chunk; `more`: text of the file follows it.
    fn load(&mut self, chunk: &str, more: bool) {
        if self.whole_file_needed {
            return;
        }
        let Some(mut loaded) = yaml::load_chunk(chunk, self.char_base, self.limits) else {
            self.whole_file_needed = true;
            return;
        };
        self.alias_nodes += loaded.alias_nodes;
        if self.alias_nodes > self.limits.max_alias_nodes {
            self.whole_file_needed = true;
            return;
        }
        let chars = u32::try_from(chunk.chars().count()).unwrap_or(u32::MAX);
        let next_base = self.char_base.saturating_add(chars);
        // A document left empty before the cut ends at the next marker, as
        // in one pass.
        if !chunk.is_empty() && more {
            yaml::end_at_marker(&mut loaded.loaded, next_base);
        }
        let base = self.documents;
        for d in &mut loaded.loaded.documents {
            d.index += base;
        }
        for e in &mut loaded.loaded.errors {
            e.document += base;
        }
        let counter = std::cell::RefCell::new(crate::lines::LineCounter::new(chunk));
        let (char_base, line_base) = (self.char_base, self.line_base);
        // A position just past the chunk (an empty document's marker) is
        // on the next chunk's first line.
        let line = |i: u32| {
            let local = i.min(next_base).saturating_sub(char_base);
            line_base + counter.borrow_mut().line(local)
        };
        add_documents(
            self.file,
            loaded.loaded,
            &line,
            &mut self.prev_end_line,
            &mut self.out,
        );
        self.documents += loaded.documents_seen;
        self.char_base = next_base;
        let lines = counter.borrow_mut().line_count();
        self.line_base += u32::try_from(lines.saturating_sub(1)).unwrap_or(u32::MAX);
    }
}

/// The objects, problems and skipped documents of loaded documents; `line`
/// gives the 1-based line of a character position.
fn add_documents(
    file: usize,
    loaded: yaml::Loaded,
    line: &dyn Fn(u32) -> u32,
    prev_end_line: &mut u32,
    out: &mut ParsedFile,
) {
    // A key that is a list, a map, null or a uint64 does not convert to
    // JSON (sigs.k8s.io/yaml), and a tag go-yaml refuses fails its
    // decoding: kubectl refuses the whole document.
    let mut unconvertible: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for e in loaded.errors {
        if matches!(
            e.kind,
            yaml::LoadErrorKind::ComplexKey | yaml::LoadErrorKind::BadTag
        ) {
            unconvertible.insert(e.document);
        }
        out.problem_lines.push(line(e.span.start));
        out.problems.push(DocumentProblem::Load(e));
    }
    out.shared.extend(loaded.shared);
    for doc in loaded.documents {
        let doc_first = *prev_end_line + 1;
        *prev_end_line = line(doc.root.span.end);
        if doc.root.is_null() || unconvertible.contains(&doc.index) {
            continue;
        }
        let not_kubernetes = match &doc.root.value {
            Value::Map(_) => doc.root.get("apiVersion").is_none() && doc.root.get("kind").is_none(),
            _ => true,
        };
        if not_kubernetes {
            out.skipped += 1;
            continue;
        }
        let mut queue = vec![(doc.root, doc_first)];
        while let Some((root, first_line)) = queue.pop() {
            if !matches!(root.value, Value::Map(_)) {
                out.problem_lines.push(line(root.span.start));
                out.problems.push(DocumentProblem::NotAnObject {
                    document: doc.index,
                    node_kind: root.kind().to_string(),
                    span: root.span,
                });
                continue;
            }
            let api_version = root
                .get("apiVersion")
                .and_then(Node::as_str)
                .map(str::to_owned);
            let kind = root.get("kind").and_then(Node::as_str).map(str::to_owned);
            let (Some(api_version), Some(kind)) = (api_version, kind) else {
                let field = if root.get("apiVersion").and_then(Node::as_str).is_none() {
                    "apiVersion"
                } else {
                    "kind"
                };
                let span = root.entry(field).map_or(root.span, |e| e.value.span);
                out.problem_lines.push(line(span.start));
                out.problems.push(DocumentProblem::MissingTypeMeta {
                    document: doc.index,
                    field,
                    span,
                });
                continue;
            };
            if kind == "List" || kind.ends_with("List") && root.get("items").is_some() {
                let mut root = root;
                if let Some(items) = root.get_mut("items") {
                    if let Value::Seq(items) = &mut items.value {
                        for item in std::mem::take(items).to_vec().into_iter().rev() {
                            let first = line(item.span.start);
                            queue.push((item, first));
                        }
                    }
                }
                continue;
            }
            let Some((kind_enum, api, pod_spec_path)) = classify(&api_version, &kind) else {
                continue;
            };
            let meta = root.get("metadata");
            let meta_str = |k: &str| {
                meta.and_then(|m| m.get(k))
                    .and_then(Node::as_str)
                    .map(str::to_owned)
            };
            let name = meta_str("name").or_else(|| meta_str("generateName"));
            // The apiserver ignores a namespace on cluster-scoped objects.
            let cluster_scoped = matches!(
                kind_enum,
                ObjectKind::ClusterRole | ObjectKind::ClusterRoleBinding
            );
            let reference = ObjectRef {
                api_version,
                kind,
                namespace: meta_str("namespace").filter(|_| !cluster_scoped),
                name,
            };
            // `end` is exclusive: the last byte is what names the last line.
            let last_line = line(root.span.end.saturating_sub(1)).max(first_line);
            out.objects.push(Object {
                file,
                document: doc.index,
                kind: kind_enum,
                api,
                reference,
                root,
                lines: (first_line, last_line),
                pod_spec_path,
            });
        }
    }
}

/// Turns one object a cluster returned (as JSON) into an [`Object`]. List
/// items come without `apiVersion` and `kind`: the list's are given.
pub fn object_from_node(
    file: usize,
    document: usize,
    mut root: Node,
    api_version: &str,
    kind: &str,
) -> Option<Object> {
    root.insert_front("kind", Node::string(kind));
    root.insert_front("apiVersion", Node::string(api_version));
    let api_version = root.get("apiVersion").and_then(Node::as_str)?.to_owned();
    let kind = root.get("kind").and_then(Node::as_str)?.to_owned();
    let (kind_enum, api, pod_spec_path) = classify(&api_version, &kind)?;
    let meta = root.get("metadata");
    let meta_str = |k: &str| {
        meta.and_then(|m| m.get(k))
            .and_then(Node::as_str)
            .map(str::to_owned)
    };
    let reference = ObjectRef {
        namespace: meta_str("namespace"),
        name: meta_str("name"),
        api_version,
        kind,
    };
    Some(Object {
        file,
        document,
        kind: kind_enum,
        api,
        reference,
        root,
        lines: (0, 0),
        pod_spec_path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_workloads_and_suppressions() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: a}\n- apiVersion: v1\n  kind: ConfigMap\n---\n# kubectl-dra: ignore=DRA-V001\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\n";
        let p = parse_file(0, text, Limits::default());
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.objects.len(), 2);
        assert_eq!(p.objects[0].kind, ObjectKind::DeviceClass);
        assert_eq!(p.objects[1].kind, ObjectKind::Workload);
        assert_eq!(p.objects[1].document, 1);
        // The Deployment's lines start after the `---`, with its comment.
        assert_eq!(p.objects[1].lines, (10, 13));
        assert_eq!(p.objects[0].lines, (4, 6));
        assert_eq!(p.objects[1].reference.to_string(), "Deployment ns/d");
    }

    #[test]
    fn a_document_with_a_key_json_cannot_hold_is_not_read() {
        // sigs.k8s.io/yaml refuses a null or a list key for the whole
        // document; the next document is read. Each problem has its line.
        let class = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n";
        let text = format!("{class}metadata:\n  name: a\n  labels: {{~: x}}\n---\n{class}metadata: {{name: b}}\nspec:\n  ? [k]\n  : v\n---\n{class}metadata: {{name: c}}\n");
        let p = parse_file(0, &text, Limits::default());
        assert_eq!(p.problems.len(), 2, "{:?}", p.problems);
        assert_eq!(p.problem_lines, [5, 11]);
        let names: Vec<Option<String>> =
            p.objects.iter().map(|o| o.reference.name.clone()).collect();
        assert_eq!(names, [Some("c".to_owned())]);
    }

    /// A file read in pieces and cut into chunks gives what one parse of
    /// the whole file gives: objects, spans, lines, document indices.
    #[test]
    fn streamed_file_equals_parse_file() {
        let docs = [
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: a}\n",
            "# comment before\napiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n  metadata: {name: c, namespace: n}\n",
            "",
            "just: values\n",
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s-ü\nspec:\n  driver: gpu.example.com\n  devices:\n  - name: gpu-0\n    attributes:\n      model: {string: \"Ä100\"}\n",
            "kind: Pod\n",
        ];
        for n in 1..40usize {
            let mut text = String::new();
            for i in 0..n {
                // Some streams start without a marker; some end with an empty one.
                if i > 0 || n % 2 == 0 {
                    text.push_str("---\n");
                }
                text.push_str(docs[(i * 7 + n) % docs.len()]);
            }
            if n % 3 == 0 {
                text.push_str("---\n");
            }
            if n % 5 == 0 {
                text = text.replace('\n', "\r\n");
            }
            let whole = parse_file(3, &text, Limits::default());
            for (chunk, piece) in [(1, 1), (16, 5), (64, 13), (200, 64), (1 << 20, 4096)] {
                let mut s = StreamedFile::with_chunk(3, Limits::default(), chunk);
                let mut rest = text.as_str();
                while !rest.is_empty() {
                    let mut k = piece.min(rest.len());
                    while !rest.is_char_boundary(k) {
                        k += 1;
                    }
                    s.push(&rest[..k]);
                    rest = &rest[k..];
                }
                let got = s.finish().expect("no error: no whole-file parse needed");
                assert_eq!(
                    format!("{:?}", got.objects),
                    format!("{:?}", whole.objects),
                    "{n} documents, chunks of {chunk}"
                );
                assert_eq!(
                    format!("{:?}", got.problems),
                    format!("{:?}", whole.problems)
                );
                assert_eq!(got.skipped, whole.skipped);
                assert_eq!(got.shared, whole.shared);
            }
        }
    }

    /// A duplicate key names a line of the whole file: such a file is
    /// parsed whole.
    #[test]
    fn streamed_file_with_an_error_asks_for_the_whole_file() {
        let mut s = StreamedFile::with_chunk(0, Limits::default(), 8);
        s.push("---\napiVersion: v1\nkind: Pod\n---\na: 1\na: 2\n---\nkind: Pod\n");
        assert!(s.finish().is_none());
    }

    #[test]
    fn documents_that_are_no_kubernetes_object_are_skipped() {
        let p = parse_file(
            0,
            "just a string\n---\n- a\n---\nimage: x\n---\nkind: Pod\n",
            Limits::default(),
        );
        assert_eq!(p.skipped, 3);
        // A mapping with `kind` but no `apiVersion` is a broken manifest.
        assert_eq!(p.problems.len(), 1);
    }
}
