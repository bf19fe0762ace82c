//! The live-cluster edge. Connects as kubectl does (kubeconfig, context,
//! exec plugins, in-cluster), reads with GETs only, each under the request
//! timeout with a few bounded retries, pages lists (`limit`/`continue`,
//! restarting on 410 Expired) and reads them concurrently, then hands plain
//! [`Object`]s to the pure engine. Nothing here decides a verdict.

pub mod error;
mod exec;
mod progress;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dra_core::gates::{gates_from_metrics, Gate, Version};
use dra_core::model::{self, Object};
use dra_core::tree::Node;
use http_body_util::BodyExt;
use kube::config::{KubeConfigOptions, Kubeconfig};

pub use error::{ClusterError, ReadError};
pub use progress::Progress;

use crate::cli::ClusterArgs;

/// The file index of objects read from a cluster (no file backs them).
pub const CLUSTER_FILE: usize = usize::MAX - 1;
/// Items per page, as kubectl's `--chunk-size` default.
const PAGE: usize = 500;
/// The pods the scheduler counts on their nodes: bound and not finished
/// (its pod informer leaves out Succeeded and Failed pods).
const BOUND_PODS: &str = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed";
/// The pods nominated for a node and not yet bound there: the scheduler
/// adds those of a pod's priority or higher to the node while filtering it.
const NOMINATED_PODS: &str =
    "status.nominatedNodeName!=,spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed";
/// Retries of a GET answered 429, 503 or 504 (kube's default policy would
/// retry 15 times over up to 1000 s: a CLI must not hang on that).
const RETRIES: u32 = 3;
/// Restarts of a list whose continue token expired (410).
const RESTARTS: u32 = 2;
/// Pages one list may take (a million objects at PAGE per page): a server
/// that never stops handing out continue tokens is cut off.
const MAX_PAGES: usize = 2_000;

/// A resource kubectl-dra lists.
#[derive(Clone, Copy, Debug)]
pub struct Resource {
    pub group: &'static str,
    pub version: &'static str,
    pub plural: &'static str,
    pub kind: &'static str,
}

impl Resource {
    const fn dra(plural: &'static str, kind: &'static str) -> Resource {
        Resource {
            group: "resource.k8s.io",
            version: "v1",
            plural,
            kind,
        }
    }
    /// A core (`v1`) resource.
    const fn core(plural: &'static str, kind: &'static str) -> Resource {
        Resource {
            group: "",
            version: "v1",
            plural,
            kind,
        }
    }
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_owned()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
    /// `resourceslices.resource.k8s.io`, as kubectl names it in errors.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_owned()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }
    fn path(&self, namespace: Option<&str>, name: Option<&str>) -> String {
        let mut p = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        if let Some(ns) = namespace {
            p.push_str(&format!("/namespaces/{}", encode(ns)));
        }
        p.push('/');
        p.push_str(self.plural);
        if let Some(n) = name {
            p.push('/');
            p.push_str(&encode(n));
        }
        p
    }
}

pub const SLICES: Resource = Resource::dra("resourceslices", "ResourceSlice");
pub const CLASSES: Resource = Resource::dra("deviceclasses", "DeviceClass");
pub const CLAIMS: Resource = Resource::dra("resourceclaims", "ResourceClaim");
pub const TEMPLATES: Resource = Resource::dra("resourceclaimtemplates", "ResourceClaimTemplate");
pub const TAINT_RULES: Resource = Resource::dra("devicetaintrules", "DeviceTaintRule");
pub const NODES: Resource = Resource::core("nodes", "Node");
pub const PODS: Resource = Resource::core("pods", "Pod");
pub const NAMESPACES: Resource = Resource::core("namespaces", "Namespace");
pub const PVCS: Resource = Resource::core("persistentvolumeclaims", "PersistentVolumeClaim");
pub const PVS: Resource = Resource::core("persistentvolumes", "PersistentVolume");
pub const STORAGE_CLASSES: Resource = Resource {
    group: "storage.k8s.io",
    version: "v1",
    plural: "storageclasses",
    kind: "StorageClass",
};
pub const EVENTS: Resource = Resource::core("events", "Event");

/// Percent-encodes a path segment or query value.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Which request a failure belongs to, for the message.
#[derive(Clone, Debug)]
pub struct Request {
    pub verb: &'static str,
    pub what: String,
    pub namespace: Option<String>,
}

/// A read-only connection. Its one way to talk to the cluster is [`Connection::get`].
pub struct Connection {
    client: kube::Client,
    timeout: Option<Duration>,
    /// The namespace of the kubeconfig context (`default` when unset).
    pub namespace: String,
    pub server: String,
    requests: AtomicUsize,
    pub progress: Progress,
    /// kubectl's `-v`: from 6 every request is logged to stderr.
    verbosity: u8,
}

/// The most a kubeconfig (or a file it names) may hold.
const MAX_CONFIG_BYTES: u64 = 16 << 20;
/// The most one API response may hold (lists are paged well below it).
pub const MAX_RESPONSE_BYTES: usize = 64 << 20;

/// `https://user:pass@host/` as `https://host/`.
pub fn without_userinfo(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    }
}

/// How long an exec credential plugin may run: `--request-timeout` (0: no
/// deadline).
fn plugin_deadline(args: &ClusterArgs) -> Option<Duration> {
    (!args.request_timeout.is_zero()).then_some(args.request_timeout)
}

/// The kubeconfig files kube-rs would read: $KUBECONFIG's, else ~/.kube/config.
fn default_kubeconfig_paths() -> Vec<std::path::PathBuf> {
    match std::env::var_os("KUBECONFIG") {
        Some(v) if !v.is_empty() => std::env::split_paths(&v).filter(|p| p.exists()).collect(),
        _ => std::env::var_os("HOME")
            .map(|h| std::path::PathBuf::from(h).join(".kube").join("config"))
            .filter(|p| p.exists())
            .into_iter()
            .collect(),
    }
}

/// The context, cluster and user names of the kubeconfig (`explicit`, else
/// $KUBECONFIG's files merged, else ~/.kube/config), for completing
/// `--context`, `--cluster` and `--user`: the files are read under the same
/// bounds as `connect`, and nothing runs (no exec plugin) and nothing is
/// sent. Unreadable files give no names.
pub fn kubeconfig_names(explicit: Option<&std::path::Path>) -> KubeconfigNames {
    let paths = match explicit {
        Some(p) => vec![p.to_path_buf()],
        None => default_kubeconfig_paths(),
    };
    let mut merged = Kubeconfig::default();
    for p in &paths {
        let read = check_config_file(p)
            .ok()
            .and_then(|()| Kubeconfig::read_from(p).ok())
            .and_then(|kc| merged.clone().merge(kc).ok());
        if let Some(kc) = read {
            merged = kc;
        }
    }
    KubeconfigNames {
        contexts: merged.contexts.into_iter().map(|c| c.name).collect(),
        clusters: merged.clusters.into_iter().map(|c| c.name).collect(),
        users: merged.auth_infos.into_iter().map(|u| u.name).collect(),
    }
}

/// What [`kubeconfig_names`] finds.
#[derive(Debug, Default)]
pub struct KubeconfigNames {
    pub contexts: Vec<String>,
    pub clusters: Vec<String>,
    pub users: Vec<String>,
}

/// A kubeconfig must be a regular file of bounded size: a FIFO or /dev/zero
/// would block or never end.
fn check_config_file(path: &std::path::Path) -> Result<(), ClusterError> {
    let m = std::fs::metadata(path)
        .map_err(|e| ClusterError::Config(format!("kubeconfig {}: {e}", path.display())))?;
    if m.is_dir() {
        return Err(ClusterError::Config(format!(
            "kubeconfig {} is a directory; not read",
            path.display()
        )));
    }
    if !m.is_file() {
        return Err(ClusterError::Config(format!(
            "kubeconfig {} is not a regular file (a FIFO, device or socket); not read",
            path.display()
        )));
    }
    if m.len() > MAX_CONFIG_BYTES {
        return Err(ClusterError::Config(format!(
            "kubeconfig {} is larger than the {} MiB limit; not read",
            path.display(),
            MAX_CONFIG_BYTES >> 20
        )));
    }
    Ok(())
}

/// One page of a list response: its objects (documents numbered from
/// `first_doc`) and the continue token, if the list goes on. Pure, so the
/// fuzz target `http_page` can drive it with any bytes.
pub fn decode_page(
    body: &[u8],
    first_doc: usize,
    api_version: &str,
    kind: &str,
    metadata_only: bool,
) -> Result<(Vec<Object>, Option<String>), String> {
    #[derive(serde::Deserialize)]
    struct ListMeta {
        #[serde(rename = "continue", default)]
        token: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Page {
        #[serde(default)]
        metadata: Option<ListMeta>,
        #[serde(default)]
        items: Option<Vec<Node>>,
    }
    let page: Page = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    // A cluster's slices repeat their devices' capacity, counters and
    // attribute values: equal lists become one (issue 37). Slices only:
    // no reader tells two slices' nodes apart by their address, as the
    // RBAC rules do with roles' rules.
    let mut sharing = (kind == "ResourceSlice").then(dra_core::share::Sharing::reused);
    for mut item in page.items.unwrap_or_default() {
        if metadata_only {
            // PartialObjectMetadata names itself; the object is the resource's.
            item.remove("apiVersion");
            item.remove("kind");
        }
        dra_core::reduce::for_scheduler(kind, &mut item);
        if let Some(sharing) = sharing.as_mut() {
            sharing.share_below(&mut item);
        }
        let doc = first_doc + out.len();
        if let Some(o) = model::object_from_node(CLUSTER_FILE, doc, item, api_version, kind) {
            out.push(o);
        }
    }
    if let Some(sharing) = sharing {
        sharing.give_back();
    }
    let token = page
        .metadata
        .and_then(|m| m.token)
        .filter(|t| !t.is_empty());
    Ok((out, token))
}

/// A kubeconfig as `connect` takes it, from text: parsed, tokens cleaned,
/// the files it names checked. No exec plugin runs, nothing is sent; the
/// fuzz target `kubeconfig` drives it.
pub fn kubeconfig_from_text(text: &str) -> Result<Kubeconfig, ClusterError> {
    let mut kc = Kubeconfig::from_yaml(text).map_err(|e| ClusterError::Config(e.to_string()))?;
    clean_tokens(&mut kc)?;
    check_named_files(&kc)?;
    Ok(kc)
}

/// The largest certificate, key or token file a kubeconfig may name.
const MAX_NAMED_FILE_BYTES: u64 = 1 << 20;

/// Every file a kubeconfig names (certificate authority, client
/// certificate and key, token file) is a regular file of bounded size before
/// the client reads it: `/dev/zero` or a FIFO there would be read forever.
/// kube-rs made relative paths absolute when it read the kubeconfig.
fn check_named_files(kc: &Kubeconfig) -> Result<(), ClusterError> {
    let clusters = kc.clusters.iter().filter_map(|c| {
        Some((
            c.name.as_str(),
            "certificate-authority",
            c.cluster.as_ref()?.certificate_authority.as_deref()?,
        ))
    });
    let users = kc.auth_infos.iter().flat_map(|u| {
        let a = u.auth_info.as_ref();
        [
            (
                "client-certificate",
                a.and_then(|a| a.client_certificate.as_deref()),
            ),
            ("client-key", a.and_then(|a| a.client_key.as_deref())),
            ("tokenFile", a.and_then(|a| a.token_file.as_deref())),
        ]
        .into_iter()
        .filter_map(move |(field, path)| Some((u.name.as_str(), field, path?)))
    });
    for (owner, field, path) in clusters.chain(users) {
        let why = match std::fs::metadata(path) {
            // A missing file is the client's error to report, with its path.
            Err(_) => continue,
            Ok(m) if !m.is_file() => "is not a regular file (a FIFO, device or socket)".to_owned(),
            Ok(m) if m.len() > MAX_NAMED_FILE_BYTES => {
                format!(
                    "is larger than the {} MiB limit",
                    MAX_NAMED_FILE_BYTES >> 20
                )
            }
            Ok(_) => continue,
        };
        return Err(ClusterError::Config(format!(
            "kubeconfig {owner:?}: the {field} file {path} {why}; not read"
        )));
    }
    Ok(())
}

/// Tokens as people paste them (`token: |` keeps a trailing newline, files
/// from Windows end in CR LF): surrounding whitespace is dropped; a token with
/// other control characters cannot be an HTTP header value and is refused,
/// naming the user, never the token.
fn clean_tokens(kc: &mut Kubeconfig) -> Result<(), ClusterError> {
    use secrecy::{ExposeSecret, SecretString};
    for named in &mut kc.auth_infos {
        let Some(info) = named.auth_info.as_mut() else {
            continue;
        };
        let Some(token) = info.token.as_ref() else {
            continue;
        };
        let raw = token.expose_secret();
        let trimmed = raw.trim();
        if trimmed.chars().any(|c| c.is_control() || !c.is_ascii()) {
            return Err(ClusterError::Config(format!(
                "the token of kubeconfig user {:?} has control or non-ASCII characters: it cannot be sent",
                named.name
            )));
        }
        if trimmed.len() != raw.len() {
            info.token = Some(SecretString::from(trimmed.to_owned()));
        }
    }
    Ok(())
}

pub async fn connect(args: &ClusterArgs, progress: Progress) -> Result<Connection, ClusterError> {
    let options = KubeConfigOptions {
        context: args.context.clone(),
        cluster: args.cluster_name(),
        user: args.user.clone(),
    };
    let mut config = if let Some(path) = &args.kubeconfig {
        check_config_file(path)?;
        let mut kc =
            Kubeconfig::read_from(path).map_err(|e| ClusterError::Config(e.to_string()))?;
        clean_tokens(&mut kc)?;
        check_named_files(&kc)?;
        exec::resolve(&mut kc, &options, plugin_deadline(args))?;
        kube::Config::from_custom_kubeconfig(kc, &options)
            .await
            .map_err(|e| ClusterError::Config(e.to_string()))?
    } else {
        let paths = default_kubeconfig_paths();
        for p in &paths {
            check_config_file(p)?;
        }
        // As client-go's loading rules: the files of $KUBECONFIG that exist,
        // merged in order (a missing one is skipped, not an error).
        let read = if paths.is_empty() {
            Err("no file of $KUBECONFIG or ~/.kube/config exists".to_owned())
        } else {
            paths.iter().try_fold(Kubeconfig::default(), |merged, p| {
                Kubeconfig::read_from(p)
                    .and_then(|kc| merged.merge(kc))
                    .map_err(|e| format!("kubeconfig {}: {e}", p.display()))
            })
        };
        match read {
            Ok(mut kc) => {
                clean_tokens(&mut kc)?;
                check_named_files(&kc)?;
                exec::resolve(&mut kc, &options, plugin_deadline(args))?;
                kube::Config::from_custom_kubeconfig(kc, &options)
                    .await
                    .map_err(|e| ClusterError::Config(e.to_string()))?
            }
            Err(read_err) => kube::Config::incluster().map_err(|_| {
                ClusterError::Config(format!(
                    "no kubeconfig ({read_err}) and not running in a cluster: set KUBECONFIG or --kubeconfig, or use -f with files or a snapshot"
                ))
            })?,
        }
    };
    let timeout = (!args.request_timeout.is_zero()).then_some(args.request_timeout);
    config.connect_timeout = timeout;
    config.read_timeout = timeout;
    config.write_timeout = timeout;
    // Retries are ours and bounded (see RETRIES).
    config.default_retry = false;
    let namespace = config.default_namespace.clone();
    // Printed in headers and stats: never with user info (a password).
    let server = without_userinfo(&config.cluster_url.to_string());
    let client = kube::Client::try_from(config).map_err(|e| ClusterError::Config(e.to_string()))?;
    Ok(Connection {
        client,
        timeout,
        namespace,
        server,
        requests: AtomicUsize::new(0),
        progress,
        verbosity: args.verbosity,
    })
}

impl Connection {
    /// How many HTTP requests were sent.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }

    /// The one way to talk to the cluster: a GET. kubectl-dra never writes,
    /// and this is the place that guarantees it.
    pub async fn get(&self, req: &Request, path: &str, accept: &str) -> Result<Vec<u8>, ReadError> {
        let mut attempt = 0;
        loop {
            let request = http::Request::get(path)
                .header(http::header::ACCEPT, accept)
                .body(kube::client::Body::from(Vec::new()))
                .map_err(|e| ReadError::transport(req, e.to_string()))?;
            self.requests.fetch_add(1, Ordering::Relaxed);
            let started = std::time::Instant::now();
            let answer = async {
                let res = self.client.send(request).await?;
                let status = res.status();
                let retry_after = res
                    .headers()
                    .get(http::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                // Bounded: a server that sends more is cut off with an error.
                let body = http_body_util::Limited::new(res.into_body(), MAX_RESPONSE_BYTES)
                    .collect()
                    .await
                    .map(|b| Some(b.to_bytes().to_vec()))
                    .or_else(|e| match e.downcast::<http_body_util::LengthLimitError>() {
                        Ok(_) => Ok(None),
                        Err(e) => Err(kube::Error::Service(e)),
                    })?;
                Ok::<_, kube::Error>((status, retry_after, body))
            };
            let (status, retry_after, body) = match self.timeout {
                Some(t) => tokio::time::timeout(t, answer)
                    .await
                    .map_err(|_| ReadError::timeout(req, t))?,
                None => answer.await,
            }
            .map_err(|e| ReadError::from_kube(req, &e))?;
            if self.verbosity >= 6 {
                // As kubectl's round_trippers at -v=6; the URL escaped, for
                // names in it come from the command line.
                let line = format!(
                    "GET {}{path} {} in {} milliseconds\n",
                    self.server.trim_end_matches('/'),
                    status,
                    started.elapsed().as_millis()
                );
                eprint!("{}", crate::render::terminal::safe(&line, false));
            }
            let Some(body) = body else {
                return Err(ReadError::transport(
                    req,
                    format!(
                        "the response is larger than the {} MiB limit",
                        MAX_RESPONSE_BYTES >> 20
                    ),
                ));
            };
            if status.is_success() {
                return Ok(body);
            }
            let code = status.as_u16();
            if matches!(code, 429 | 503 | 504) && attempt < RETRIES {
                attempt += 1;
                let wait = retry_after
                    .map(|s| Duration::from_secs(s.min(2)))
                    .unwrap_or(Duration::from_millis(200 << attempt));
                tokio::time::sleep(wait).await;
                continue;
            }
            return Err(ReadError::status(req, code, &body));
        }
    }

    /// Every object of a list, page by page.
    pub async fn list(
        &self,
        res: Resource,
        namespace: Option<&str>,
        metadata_only: bool,
    ) -> Result<Vec<Object>, ReadError> {
        self.list_where(res, namespace, metadata_only, None).await
    }

    /// Every object of a list that a field selector picks, page by page.
    pub async fn list_where(
        &self,
        res: Resource,
        namespace: Option<&str>,
        metadata_only: bool,
        field_selector: Option<&str>,
    ) -> Result<Vec<Object>, ReadError> {
        let req = Request {
            verb: "list",
            what: res.qualified(),
            namespace: namespace.map(str::to_owned),
        };
        let accept = if metadata_only {
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
        } else {
            "application/json"
        };
        let task = self.progress.task(&res.qualified());
        let api_version = res.api_version();
        let mut restarts = 0;
        'restart: loop {
            let mut out: Vec<Object> = Vec::new();
            let mut token: Option<String> = None;
            let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
            loop {
                if seen.len() >= MAX_PAGES {
                    return Err(ReadError::decode(
                        &req,
                        format!("the list goes on past {MAX_PAGES} pages of {PAGE}: stopped"),
                    ));
                }
                let mut path = format!("{}?limit={PAGE}", res.path(namespace, None));
                if let Some(f) = field_selector {
                    path.push_str("&fieldSelector=");
                    path.push_str(&encode(f));
                }
                if let Some(t) = &token {
                    path.push_str("&continue=");
                    path.push_str(&encode(t));
                }
                let body = match self.get(&req, &path, accept).await {
                    Ok(b) => b,
                    Err(e) if e.code() == Some(410) && token.is_some() && restarts < RESTARTS => {
                        // The continue token expired: the list starts over.
                        restarts += 1;
                        continue 'restart;
                    }
                    Err(e) => return Err(e),
                };
                let (objects, next) =
                    decode_page(&body, out.len(), &api_version, res.kind, metadata_only)
                        .map_err(|e| ReadError::decode(&req, e))?;
                drop(body);
                out.extend(objects);
                task.set(out.len());
                token = next;
                match &token {
                    None => return Ok(out),
                    // A token handed out twice would loop forever.
                    Some(t) if !seen.insert(t.clone()) => {
                        return Err(ReadError::decode(
                            &req,
                            "the server hands out a continue token it gave before: the list would never end".into(),
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// The list when `wanted`, else nothing (no request).
    async fn list_if(
        &self,
        wanted: bool,
        res: Resource,
        namespace: Option<&str>,
        metadata_only: bool,
    ) -> Result<Vec<Object>, ReadError> {
        if !wanted {
            return Ok(Vec::new());
        }
        self.list(res, namespace, metadata_only).await
    }

    /// One object, or `None` when the cluster has no such object (404).
    pub async fn get_object(
        &self,
        res: Resource,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Option<Object>, ReadError> {
        let req = Request {
            verb: "get",
            what: res.qualified(),
            namespace: namespace.map(str::to_owned),
        };
        let body = match self
            .get(&req, &res.path(namespace, Some(name)), "application/json")
            .await
        {
            Ok(b) => b,
            Err(e) if e.code() == Some(404) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut root: Node =
            serde_json::from_slice(&body).map_err(|e| ReadError::decode(&req, e.to_string()))?;
        dra_core::reduce::for_scheduler(res.kind, &mut root);
        Ok(model::object_from_node(
            CLUSTER_FILE,
            0,
            root,
            &res.api_version(),
            res.kind,
        ))
    }
}

/// What a command needs from the cluster.
#[derive(Clone, Debug, Default)]
pub struct Needs {
    pub slices: bool,
    pub classes: bool,
    /// Claims of every namespace (which devices are in use); falls back to
    /// `claims_namespace` with a warning when that is forbidden.
    pub claims: bool,
    pub claims_namespace: Option<String>,
    /// Templates of this namespace (`Some("")`: every namespace).
    pub templates: Option<String>,
    /// Nodes: labels, taints and `unschedulable` (the scheduler's filters).
    pub nodes: bool,
    pub taint_rules: bool,
    /// One pod to read: (namespace, name).
    pub pod: Option<(String, String)>,
    /// Pods of this namespace (`Some("")`: every namespace) that use claims
    /// or extended resources, or are bound to a node and not finished.
    pub pods: Option<String>,
    /// The pods of every namespace bound to a node and not finished, for
    /// what they take of it (NodeResourcesFit subtracts their requests from
    /// the node's allocatable, whatever their namespace). Not read again
    /// when `pods` already reads every namespace; skipped with a warning
    /// when forbidden.
    pub bound_pods: bool,
    /// The kubelet's `FailedPrepareDynamicResources` events of this
    /// namespace (`Some("")`: every namespace): a driver whose kubelet
    /// plugin is not running (DRA-H008, `explain pod`); skipped with a
    /// warning when events are forbidden.
    pub prepare_events: Option<String>,
    /// PersistentVolumeClaims of this namespace (`Some("")`: every
    /// namespace), with every PersistentVolume and StorageClass, when a pod
    /// read has a PVC volume (VolumeBinding and VolumeZone filter on them).
    pub volumes: Option<String>,
}

/// What was read, and what could not be.
pub struct ClusterState {
    pub version: Version,
    pub git_version: String,
    /// Gates the apiserver reported in `/metrics`; `None` when not readable.
    pub reported_gates: Option<Vec<(Gate, bool)>>,
    pub objects: Vec<Object>,
    /// How the verdict may be wrong because of what could not be read.
    pub warnings: Vec<String>,
    /// Facts worth a line on stderr (version mapping, gate source).
    pub notes: Vec<String>,
    pub server: String,
    pub requests: usize,
    /// Why the pods' PVCs, PVs and StorageClasses were not read (`None`:
    /// read, or no pod read has a PVC volume).
    pub volumes_unread: Option<String>,
    /// They were listed (a snapshot says so: a cluster with none of them
    /// is not a cluster whose storage was not read).
    pub volumes_listed: bool,
}

fn status_ok<T>(r: Result<T, ReadError>) -> Result<Option<T>, ReadError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if matches!(e.code(), Some(403) | Some(404)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads what `needs` asks for. Version and served APIs first (they decide
/// whether the rest makes sense), then everything else concurrently.
pub async fn read_state(conn: &Connection, needs: &Needs) -> Result<ClusterState, ClusterError> {
    #[derive(serde::Deserialize)]
    struct VersionInfo {
        #[serde(rename = "gitVersion")]
        git_version: String,
    }
    #[derive(serde::Deserialize)]
    struct ResourceList {
        resources: Vec<ApiResource>,
    }
    #[derive(serde::Deserialize)]
    struct ApiResource {
        name: String,
    }
    let version_req = Request {
        verb: "get",
        what: "/version".into(),
        namespace: None,
    };
    let body = conn
        .get(&version_req, "/version", "application/json")
        .await?;
    let info: VersionInfo = serde_json::from_slice(&body)
        .map_err(|e| ReadError::decode(&version_req, e.to_string()))?;
    let mut notes = Vec::new();
    let (version, note) =
        Version::from_git_version(&info.git_version).map_err(ClusterError::Unsupported)?;
    notes.extend(note);
    let discovery_req = Request {
        verb: "get",
        what: "/apis/resource.k8s.io/v1".into(),
        namespace: None,
    };
    let served: Vec<String> = match conn
        .get(
            &discovery_req,
            "/apis/resource.k8s.io/v1",
            "application/json",
        )
        .await
    {
        Ok(body) => serde_json::from_slice::<ResourceList>(&body)
            .map_err(|e| ReadError::decode(&discovery_req, e.to_string()))?
            .resources
            .into_iter()
            .map(|r| r.name)
            .collect(),
        Err(e) if e.code() == Some(404) => {
            return Err(ClusterError::NoDra {
                git_version: info.git_version,
            })
        }
        Err(e) => return Err(e.into()),
    };
    let serves = |plural: &str| served.iter().any(|s| s == plural);
    let metrics_req = Request {
        verb: "get",
        what: "/metrics".into(),
        namespace: None,
    };
    // `Some("")` asks for every namespace.
    fn scope(v: &Option<String>) -> Option<&str> {
        v.as_deref().filter(|ns| !ns.is_empty())
    }
    let read_bound = needs.bound_pods && needs.pods.as_deref() != Some("");
    // Pod affinity terms may select namespaces by their labels
    // (InterPodAffinity): names and labels are all that is read.
    let read_namespaces = needs.pod.is_some() || needs.pods.is_some() || needs.bound_pods;
    let (
        metrics,
        slices,
        classes,
        claims,
        templates,
        nodes,
        taints,
        pod,
        pods,
        bound,
        namespaces,
        events,
    ) = tokio::join!(
        conn.get(&metrics_req, "/metrics", "text/plain"),
        conn.list_if(needs.slices, SLICES, None, false),
        conn.list_if(needs.classes, CLASSES, None, false),
        conn.list_if(needs.claims, CLAIMS, None, false),
        conn.list_if(
            needs.templates.is_some(),
            TEMPLATES,
            scope(&needs.templates),
            false
        ),
        // Whole Nodes, reduced on decode: a metadata-only list would lose
        // the taints and `unschedulable` the scheduler filters on.
        conn.list_if(needs.nodes, NODES, None, false),
        conn.list_if(
            needs.taint_rules && serves("devicetaintrules"),
            TAINT_RULES,
            None,
            false
        ),
        async {
            match &needs.pod {
                Some((ns, name)) => conn.get_object(PODS, Some(ns), name).await,
                None => Ok(None),
            }
        },
        conn.list_if(needs.pods.is_some(), PODS, scope(&needs.pods), false),
        async {
            if !read_bound {
                return Ok(Vec::new());
            }
            let mut pods = conn.list_where(PODS, None, false, Some(BOUND_PODS)).await?;
            pods.extend(
                conn.list_where(PODS, None, false, Some(NOMINATED_PODS))
                    .await?,
            );
            Ok(pods)
        },
        conn.list_if(read_namespaces, NAMESPACES, None, true),
        async {
            match &needs.prepare_events {
                Some(ns) => {
                    let reason = format!("reason={}", dra_core::prepare::REASON);
                    conn.list_where(EVENTS, scope(&Some(ns.clone())), false, Some(&reason))
                        .await
                }
                None => Ok(Vec::new()),
            }
        },
    );
    let mut warnings = Vec::new();
    let reported_gates = match metrics {
        Ok(body) => Some(gates_from_metrics(&String::from_utf8_lossy(&body))),
        Err(e) if matches!(e.code(), Some(401 | 403 | 404)) => {
            notes.push(format!(
                "feature gates: the defaults of Kubernetes {version} (the cluster did not let kubectl-dra read /metrics: {}); --feature-gates overrides them",
                e.short()
            ));
            None
        }
        Err(e) => {
            notes.push(format!(
                "feature gates: the defaults of Kubernetes {version} (/metrics: {})",
                e.short()
            ));
            None
        }
    };
    let mut objects = Vec::new();
    objects.extend(slices?);
    objects.extend(classes?);
    match claims {
        Ok(c) => objects.extend(c),
        Err(e) if e.code() == Some(403) => {
            let ns = needs
                .claims_namespace
                .clone()
                .unwrap_or_else(|| conn.namespace.clone());
            let mine = conn.list(CLAIMS, Some(&ns), false).await?;
            warnings.push(format!(
                "could not list ResourceClaims in all namespaces ({}); read those of namespace {ns} only: devices held by claims in other namespaces look free, so an allocation shown here may fail in the cluster",
                e.short()
            ));
            objects.extend(mine);
        }
        Err(e) => return Err(e.into()),
    }
    objects.extend(templates?);
    match status_ok(nodes) {
        Ok(Some(n)) => objects.extend(n),
        Ok(None) => warnings.push(
            "could not list Nodes: node labels are unknown, so slices that select nodes by label match none; nodes are taken from the slices".into(),
        ),
        Err(e) => return Err(e.into()),
    }
    match status_ok(taints) {
        Ok(Some(t)) => objects.extend(t),
        Ok(None) => warnings.push(
            "could not list DeviceTaintRules: taints they add are not seen, so tainted devices may look usable".into(),
        ),
        Err(e) => return Err(e.into()),
    }
    if needs.taint_rules && !serves("devicetaintrules") {
        notes.push(
            "the cluster does not serve resource.k8s.io/v1 DeviceTaintRules; none are applied"
                .into(),
        );
    }
    if let Some((ns, name)) = &needs.pod {
        match pod? {
            Some(p) => objects.push(p),
            None => {
                return Err(ClusterError::NotFound(format!(
                    "no Pod {ns}/{name} in the cluster"
                )))
            }
        }
    }
    match status_ok(events) {
        Ok(Some(e)) => objects.extend(e),
        Ok(None) => warnings.push(
            "could not list Events: a pod whose driver's kubelet plugin is not running on its node (DRA-H008) is not found".into(),
        ),
        Err(e) => return Err(e.into()),
    }
    objects.extend(pods?.into_iter().filter_map(kept_pod));
    match status_ok(bound) {
        Ok(Some(b)) => objects.extend(b.into_iter().filter_map(|mut p| {
            // Those of the namespace read above, and the pod itself, are
            // there already.
            let ns = p.namespace_or_default().to_owned();
            let name = p.name().unwrap_or_default().to_owned();
            let read = needs.pods.as_deref() == Some(ns.as_str())
                || needs
                    .pod
                    .as_ref()
                    .is_some_and(|(pns, pname)| *pns == ns && *pname == name);
            if read {
                return None;
            }
            dra_core::reduce::for_node_usage(&mut p.root);
            Some(p)
        })),
        Ok(None) => warnings.push(
            "could not list Pods in all namespaces: what the pods running on each node request is not taken off its allocatable, so a node may look roomier than the scheduler sees it (NodeResourcesFit)".into(),
        ),
        Err(e) => return Err(e.into()),
    }
    match status_ok(namespaces) {
        Ok(Some(n)) => objects.extend(n),
        Ok(None) => warnings.push(
            "could not list Namespaces: a pod affinity term that selects namespaces by label selects none here".into(),
        ),
        Err(e) => return Err(e.into()),
    }
    let (volumes_unread, volumes_listed) = match &needs.volumes {
        Some(ns) => read_volumes(conn, scope(&Some(ns.clone())), &mut objects).await?,
        None => (None, false),
    };
    if let Some(why) = &volumes_unread {
        warnings.push(format!(
            "{why}: the pods' volumes are not checked (kube-scheduler's VolumeBinding and VolumeZone), so a node they rule out may look usable"
        ));
    }
    warnings.extend(drop_repeated(&mut objects));
    Ok(ClusterState {
        volumes_unread,
        volumes_listed,
        version,
        git_version: info.git_version,
        reported_gates,
        objects,
        warnings,
        notes,
        server: conn.server.clone(),
        requests: conn.requests(),
    })
}

/// The PVCs (of `namespace`, else every namespace), PVs and StorageClasses,
/// read only when a pod read and not bound has a PVC volume: most pods that use devices
/// have none, and a cluster's PVs can be many. `Some(why)` when the
/// cluster did not let them be read; `true` when they were listed.
async fn read_volumes(
    conn: &Connection,
    namespace: Option<&str>,
    objects: &mut Vec<Object>,
) -> Result<(Option<String>, bool), ReadError> {
    // A pod not bound yet (the pods the command decides; those running on
    // a node are read for what they hold there, not explained).
    let wanted = objects.iter().any(|o| {
        o.kind == model::ObjectKind::Workload
            && o.reference.kind == "Pod"
            && o.pod_spec()
                .and_then(|s| s.get("nodeName"))
                .and_then(Node::as_str)
                .is_none_or(str::is_empty)
            && !dra_core::volumes::pod_claims(o).is_empty()
    });
    if !wanted {
        return Ok((None, false));
    }
    let (pvcs, pvs, classes) = tokio::join!(
        conn.list(PVCS, namespace, false),
        conn.list(PVS, None, false),
        conn.list(STORAGE_CLASSES, None, false),
    );
    let mut read = Vec::new();
    for list in [pvcs, pvs, classes] {
        match status_ok(list)? {
            Some(items) => read.extend(items),
            None => {
                return Ok((
                    Some("the cluster did not let kubectl-dra list PersistentVolumeClaims, PersistentVolumes and StorageClasses".into()),
                    false,
                ))
            }
        }
    }
    objects.extend(read);
    Ok((None, true))
}

/// The pods kept of a list: those that use claims, those that ask for an
/// extended resource (a DeviceClass may back it: DRAExtendedResource), and
/// those bound to a node, or nominated for one, and not finished, whose
/// requests the scheduler takes off the node's allocatable (NodeResourcesFit's
/// `NodeInfo.Requested`), reduced to what the filters read of them. The
/// rest never bear on DRA.
fn kept_pod(mut p: Object) -> Option<Object> {
    let spec = p.pod_spec()?;
    let claims = spec
        .get("resourceClaims")
        .and_then(Node::as_seq)
        .is_some_and(|c| !c.is_empty());
    let bound = spec
        .get("nodeName")
        .and_then(Node::as_str)
        .is_some_and(|n| !n.is_empty());
    let finished = matches!(
        p.root
            .get("status")
            .and_then(|s| s.get("phase"))
            .and_then(Node::as_str),
        Some("Succeeded" | "Failed")
    );
    let extended = ["initContainers", "containers"]
        .iter()
        .flat_map(|k| spec.get(k).and_then(Node::as_seq).unwrap_or_default())
        .flat_map(|c| {
            ["requests", "limits"].into_iter().flat_map(move |part| {
                c.get("resources")
                    .and_then(|r| r.get(part))
                    .and_then(Node::as_map)
                    .unwrap_or_default()
            })
        })
        .any(|e| e.key.contains('/'));
    if claims || extended {
        return Some(p);
    }
    let nominated = p
        .root
        .get("status")
        .and_then(|s| s.get("nominatedNodeName"))
        .and_then(Node::as_str)
        .is_some_and(|n| !n.is_empty());
    if (bound || nominated) && !finished {
        dra_core::reduce::for_node_usage(&mut p.root);
        return Some(p);
    }
    None
}

/// Objects listed twice (a server that repeats items between pages, or a
/// list restarted mid-way): the first copy is kept, and each repeat said,
/// since a device listed twice would be counted twice.
fn drop_repeated(objects: &mut Vec<Object>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut repeated: Vec<String> = Vec::new();
    objects.retain(|o| {
        let key = (
            o.reference.kind.clone(),
            o.reference.namespace.clone(),
            o.reference.name.clone(),
        );
        if seen.insert(key) {
            true
        } else {
            repeated.push(o.reference.to_string());
            false
        }
    });
    if repeated.is_empty() {
        return Vec::new();
    }
    let shown: Vec<&str> = repeated.iter().take(5).map(String::as_str).collect();
    vec![format!(
        "the server listed {} object{} twice ({}{}); each is used once",
        repeated.len(),
        if repeated.len() == 1 { "" } else { "s" },
        shown.join(", "),
        if repeated.len() > 5 { ", ..." } else { "" }
    )]
}

/// Runs a cluster read on a small runtime: one thread is plenty for I/O,
/// and the engine runs after it, synchronously.
pub fn block_on<F: std::future::Future>(f: F) -> Result<F::Output, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))?;
    Ok(rt.block_on(f))
}

#[cfg(test)]
mod url_tests {
    #[test]
    fn user_info_is_dropped() {
        assert_eq!(
            super::without_userinfo("https://admin:s3cret@10.0.0.1:6443/"),
            "https://10.0.0.1:6443/"
        );
        assert_eq!(
            super::without_userinfo("https://10.0.0.1:6443"),
            "https://10.0.0.1:6443"
        );
    }
}
