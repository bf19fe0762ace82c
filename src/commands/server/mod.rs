//! `kubectl-dra server`: a Language Server over stdio. It publishes lint's
//! findings for each open YAML document as it changes (debounced), offers
//! each fix as a code action (and every safe fix at once as
//! `source.fixAll.kubectl-dra`), and shows a rule's docs on hover.
//!
//! Linting runs on a worker thread: the editor's requests are answered
//! from the last analysis while a long one runs, and an analysis of a
//! version the editor has moved past is dropped, not published.

mod analysis;
mod position;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, Receiver, Sender};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    notification, request, CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand,
    CodeActionParams, CodeActionProviderCapability, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, MarkupContent, MarkupKind, PositionEncodingKind,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, Uri, WorkspaceEdit,
};

use analysis::{Analysis, Job, Workspace};
use position::Encoding;

/// Quiet time after the last change before a document is linted again.
const DEBOUNCE: Duration = Duration::from_millis(200);

/// The code action kind of "fix all" (ruff's is `source.fixAll.ruff`).
const FIX_ALL: &str = "source.fixAll.kubectl-dra";

pub fn run() -> Result<crate::Outcome, String> {
    let (connection, io) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io.join().map_err(|e| format!("language server: {e}"))?;
    Ok(crate::Outcome {
        stdout: String::new(),
        code: 0,
    })
}

struct Document {
    version: i32,
    text: String,
    path: Option<PathBuf>,
    /// Set when the document changed and is to be linted at this time.
    due: Option<Instant>,
    analysis: Option<Analysis>,
}

struct Server<'c> {
    connection: &'c Connection,
    encoding: Encoding,
    workspace: Workspace,
    documents: HashMap<Uri, Document>,
    jobs: Sender<Job>,
}

/// Answers one client until it says `exit` (or goes away).
pub fn serve(connection: &Connection) -> Result<(), String> {
    let err = |e: lsp_server::ProtocolError| format!("language server: {e}");
    let (id, params) = connection.initialize_start().map_err(err)?;
    let init: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("initialize: {e}"))?;
    let utf8 = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                ..Default::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(FIX_ALL),
            ]),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..Default::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": {"name": "kubectl-dra", "version": env!("CARGO_PKG_VERSION")},
    });
    connection.initialize_finish(id, result).map_err(err)?;

    let mut workspace = Workspace::default();
    #[allow(deprecated)] // rootUri: clients without workspace folders send it
    let roots = init
        .workspace_folders
        .iter()
        .flatten()
        .map(|f| f.uri.clone())
        .chain(init.root_uri.clone());
    workspace.roots = roots.filter_map(|u| file_path(&u)).collect();
    if let Some(options) = &init.initialization_options {
        apply_settings(&mut workspace, options);
    }
    let (jobs, results) = spawn_worker()?;
    let mut server = Server {
        connection,
        encoding,
        workspace,
        documents: HashMap::new(),
        jobs,
    };
    server.run(&results)
}

/// The lint worker: the newest job of each document, one at a time, on a
/// thread with the stack the parsers' depth limits need.
/// A document's analysis, from the worker.
type Analysed = (Uri, Analysis);

fn spawn_worker() -> Result<(Sender<Job>, Receiver<Analysed>), String> {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    let (result_tx, result_rx) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("kubectl-dra-lint".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let mut cache = analysis::Cache::default();
            while let Ok(first) = job_rx.recv() {
                // Only the newest job of each document is worth running.
                let mut newest: Vec<Job> = vec![first];
                while let Ok(j) = job_rx.try_recv() {
                    newest.retain(|o| o.uri != j.uri);
                    newest.push(j);
                }
                for job in newest {
                    let a = analysis::analyze(&job, &mut cache);
                    if result_tx.send((job.uri, a)).is_err() {
                        return;
                    }
                }
            }
        })
        .map_err(|e| format!("cannot start the lint worker: {e}"))?;
    Ok((job_tx, result_rx))
}

impl Server<'_> {
    fn run(&mut self, results: &Receiver<Analysed>) -> Result<(), String> {
        loop {
            let wait = self
                .documents
                .values()
                .filter_map(|d| d.due)
                .min()
                .map(|due| due.saturating_duration_since(Instant::now()));
            let timeout = match wait {
                Some(w) => crossbeam_channel::after(w),
                None => crossbeam_channel::never(),
            };
            select! {
                recv(self.connection.receiver) -> msg => {
                    let Ok(msg) = msg else { return Ok(()) };
                    match msg {
                        Message::Request(req) => {
                            if self.connection.handle_shutdown(&req).map_err(|e| e.to_string())? {
                                return Ok(());
                            }
                            self.request(req);
                        }
                        Message::Notification(n) => self.notification(n),
                        Message::Response(_) => {}
                    }
                }
                recv(results) -> r => {
                    if let Ok((uri, a)) = r {
                        self.analysed(uri, a);
                    }
                }
                recv(timeout) -> _ => self.lint_due(),
            }
        }
    }

    fn send(&self, m: impl Into<Message>) {
        let _ = self.connection.sender.send(m.into());
    }

    fn lint_due(&mut self) {
        let now = Instant::now();
        let due: Vec<Uri> = self
            .documents
            .iter()
            .filter(|(_, d)| d.due.is_some_and(|t| t <= now))
            .map(|(u, _)| u.clone())
            .collect();
        for uri in due {
            self.lint_now(&uri);
        }
    }

    fn lint_now(&mut self, uri: &Uri) {
        let open: HashMap<PathBuf, String> = self
            .documents
            .values()
            .filter_map(|d| Some((d.path.clone()?, d.text.clone())))
            .collect();
        let Some(doc) = self.documents.get_mut(uri) else {
            return;
        };
        doc.due = None;
        let _ = self.jobs.send(Job {
            uri: uri.clone(),
            version: doc.version,
            path: doc.path.clone(),
            text: doc.text.clone(),
            open,
            workspace: self.workspace.clone(),
            encoding: self.encoding,
        });
    }

    /// A finished analysis: published when it is of the document's current
    /// version (a stale one is dropped; the newer one is on its way).
    fn analysed(&mut self, uri: Uri, a: Analysis) {
        let Some(doc) = self.documents.get_mut(&uri) else {
            return;
        };
        if doc.version != a.version {
            return;
        }
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics: a.diagnostics.clone(),
            version: Some(a.version),
        };
        doc.analysis = Some(a);
        self.send(Notification::new(
            notification::PublishDiagnostics::METHOD.into(),
            params,
        ));
    }

    fn notification(&mut self, n: Notification) {
        use notification::*;
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                {
                    let uri = p.text_document.uri;
                    self.documents.insert(
                        uri.clone(),
                        Document {
                            version: p.text_document.version,
                            text: p.text_document.text,
                            path: file_path(&uri),
                            due: None,
                            analysis: None,
                        },
                    );
                    self.lint_now(&uri);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) {
                    if let Some(doc) = self.documents.get_mut(&p.text_document.uri) {
                        // Full sync: the last change holds the whole text.
                        if let Some(c) = p.content_changes.into_iter().last() {
                            doc.text = c.text;
                        }
                        doc.version = p.text_document.version;
                        doc.due = Some(Instant::now() + DEBOUNCE);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                // Other documents' context may have changed on disk.
                let uris: Vec<Uri> = self.documents.keys().cloned().collect();
                for u in uris {
                    if let Some(d) = self.documents.get_mut(&u) {
                        d.due.get_or_insert(Instant::now() + DEBOUNCE);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    self.documents.remove(&p.text_document.uri);
                    self.send(lsp_server::Notification::new(
                        PublishDiagnostics::METHOD.into(),
                        PublishDiagnosticsParams {
                            uri: p.text_document.uri,
                            diagnostics: Vec::new(),
                            version: None,
                        },
                    ));
                }
            }
            DidChangeConfiguration::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidChangeConfigurationParams>(
                    DidChangeConfiguration::METHOD,
                ) {
                    apply_settings(&mut self.workspace, &p.settings);
                    let uris: Vec<Uri> = self.documents.keys().cloned().collect();
                    for u in uris {
                        self.lint_now(&u);
                    }
                }
            }
            _ => {}
        }
    }

    fn request(&mut self, req: Request) {
        let id = req.id.clone();
        let response = match req.method.as_str() {
            request::CodeActionRequest::METHOD => req
                .extract::<CodeActionParams>(request::CodeActionRequest::METHOD)
                .map(|(_, p)| serde_json::to_value(self.code_actions(&p)))
                .map_err(|e| e.to_string()),
            request::HoverRequest::METHOD => req
                .extract::<HoverParams>(request::HoverRequest::METHOD)
                .map(|(_, p)| serde_json::to_value(self.hover(&p)))
                .map_err(|e| e.to_string()),
            _ => {
                self.send(Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("kubectl-dra does not answer {}", req.method),
                ));
                return;
            }
        };
        self.reply(id, response);
    }

    fn reply(
        &self,
        id: RequestId,
        r: Result<Result<serde_json::Value, serde_json::Error>, String>,
    ) {
        let response = match r {
            Ok(Ok(v)) => Response {
                id,
                result: Some(v),
                error: None,
            },
            Ok(Err(e)) => Response::new_err(
                id,
                lsp_server::ErrorCode::InternalError as i32,
                e.to_string(),
            ),
            Err(e) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, e),
        };
        self.send(response);
    }

    /// The analysis of the document as the editor has it now, if any.
    fn current(&self, uri: &Uri) -> Option<&Analysis> {
        let doc = self.documents.get(uri)?;
        doc.analysis.as_ref().filter(|a| a.version == doc.version)
    }

    fn code_actions(&self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &p.text_document.uri;
        let Some(a) = self.current(uri) else {
            return Vec::new();
        };
        let wants = |kind: &str| {
            p.context.only.as_ref().is_none_or(|only| {
                only.iter()
                    .any(|k| kind == k.as_str() || kind.starts_with(&format!("{}.", k.as_str())))
            })
        };
        let edit = |edits: Vec<lsp_types::TextEdit>| WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..Default::default()
        };
        let mut out = Vec::new();
        if wants(CodeActionKind::QUICKFIX.as_str()) {
            for action in &a.actions {
                let d = &a.diagnostics[action.diagnostic];
                if !position::touches(&d.range, &p.range) {
                    continue;
                }
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: action.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    edit: Some(edit(action.edits.clone())),
                    is_preferred: Some(action.safe),
                    ..Default::default()
                }));
            }
        }
        if let Some(edits) = a.fix_all.clone().filter(|_| wants(FIX_ALL)) {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "kubectl-dra: fix all safely fixable findings".into(),
                kind: Some(CodeActionKind::from(FIX_ALL)),
                edit: Some(edit(edits)),
                ..Default::default()
            }));
        }
        out
    }

    /// The docs of the rules whose findings are under the cursor, and each
    /// finding's field and notes.
    fn hover(&self, p: &HoverParams) -> Option<Hover> {
        let pos = p.text_document_position_params.position;
        let a = self.current(&p.text_document_position_params.text_document.uri)?;
        let mut parts = Vec::new();
        for d in &a.diagnostics {
            if !(d.range.start <= pos && pos <= d.range.end) {
                continue;
            }
            let Some(lsp_types::NumberOrString::String(id)) = &d.code else {
                continue;
            };
            parts.push(hover_text(id, d));
        }
        (!parts.is_empty()).then(|| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: parts.join("\n\n---\n\n"),
            }),
            range: None,
        })
    }
}

fn hover_text(id: &str, d: &lsp_types::Diagnostic) -> String {
    let mut s = String::new();
    if let Some(rule) = dra_core::lint::registry::find(id) {
        s.push_str(&format!(
            "**{}** `{}` ({}, Kubernetes {})\n\n{}\n\n{}\n",
            rule.id, rule.name, rule.severity, rule.releases, rule.summary, rule.docs
        ));
        if !rule.example.is_empty() {
            s.push_str(&format!("\nExample:\n```yaml\n{}```\n", rule.example));
        }
    }
    if let Some(data) = &d.data {
        if let Some(field) = data["field"].as_str().filter(|f| !f.is_empty()) {
            s.push_str(&format!(
                "\nField: `{field}` ({})\n",
                data["type"].as_str().unwrap_or("")
            ));
        }
        for note in data["notes"].as_array().into_iter().flatten() {
            if let Some(n) = note.as_str() {
                s.push_str(&format!("\n- {n}"));
            }
        }
    }
    s
}

/// Client settings, under `kubectl-dra` (or at the top level):
/// `inventory` (a path or a list), `kubernetesVersion`, `featureGates`.
fn apply_settings(w: &mut Workspace, v: &serde_json::Value) {
    let v = v.get("kubectl-dra").unwrap_or(v);
    let strings = |x: &serde_json::Value| -> Vec<String> {
        match x {
            serde_json::Value::String(s) => vec![s.clone()],
            serde_json::Value::Array(a) => a
                .iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        }
    };
    if let Some(inv) = v.get("inventory") {
        let paths: Vec<PathBuf> = strings(inv).into_iter().map(PathBuf::from).collect();
        w.inventory = (!paths.is_empty()).then_some(paths);
    }
    if let Some(k) = v.get("kubernetesVersion") {
        w.kubernetes_version = k.as_str().map(str::to_owned);
    }
    if let Some(g) = v.get("featureGates") {
        w.feature_gates = strings(g);
    }
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///path` or `file://localhost/path`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8_lossy(&out).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn file_uris_become_paths() {
        let p = |s: &str| file_path(&Uri::from_str(s).unwrap());
        assert_eq!(
            p("file:///a/b%20c.yaml"),
            Some(PathBuf::from("/a/b c.yaml"))
        );
        assert_eq!(p("file://localhost/x.yaml"), Some(PathBuf::from("/x.yaml")));
        assert_eq!(p("untitled:Untitled-1"), None);
        // Percent-encoded UTF-8.
        assert_eq!(p("file:///a/%C3%A9.yaml"), Some(PathBuf::from("/a/é.yaml")));
    }
}
