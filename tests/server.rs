//! `kubectl-dra server` in process, over lsp-server's in-memory connection:
//! what an editor sees (the pygls end-to-end test, scripts/test-editor.sh,
//! drives the real binary over stdio).

use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

struct Client {
    conn: Connection,
    next: i32,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Client {
    fn start(init_options: Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || kubectl_dra::commands::server::serve(&server))
            .unwrap();
        let mut c = Client {
            conn,
            next: 1,
            server: Some(handle),
        };
        let caps = json!({"general": {"positionEncodings": ["utf-16"]}});
        let r = c.request(
            "initialize",
            json!({"capabilities": caps, "initializationOptions": init_options}),
        );
        assert_eq!(r["capabilities"]["positionEncoding"], "utf-16", "{r}");
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    return match r.error {
                        Some(e) => json!({"error": e.code, "message": e.message}),
                        None => r.result.unwrap_or(Value::Null),
                    }
                }
                _ => continue,
            }
        }
    }

    fn recv(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> (Option<i64>, Vec<Value>) {
        loop {
            if let Message::Notification(n) = self.recv() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    let d = n.params["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    return (n.params["version"].as_i64(), d);
                }
            }
        }
    }

    fn open(&self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": version, "text": text}}),
        );
    }

    fn change(&self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r, Value::Null);
        self.notify("exit", Value::Null);
        let result = self.server.take().unwrap().join().unwrap();
        assert_eq!(result, Ok(()));
    }
}

fn codes(d: &[Value]) -> Vec<&str> {
    d.iter().filter_map(|d| d["code"].as_str()).collect()
}

const SLICE: &str = "apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: n1-gpus   # ∆ non-ASCII before the finding: columns count UTF-16
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: yes}
";

#[test]
fn findings_carry_lints_id_severity_range_and_message() {
    let c = Client::start(json!({}));
    let uri = "untitled:slice";
    c.open(uri, 1, SLICE);
    let (version, d) = c.diagnostics(uri);
    assert_eq!(version, Some(1));
    assert_eq!(codes(&d), ["DRA-S002"], "{d:?}");
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(d[0]["message"], "expected string, got boolean");
    // `yes` on line 12 (0-based 11), after `      model: {string: `.
    assert_eq!(
        d[0]["range"],
        json!({"start": {"line": 11, "character": 22}, "end": {"line": 11, "character": 25}})
    );
    assert_eq!(d[0]["source"], "kubectl-dra");
    c.stop();
}

#[test]
fn code_actions_fix_and_hover_explains() {
    let mut c = Client::start(json!({}));
    let uri = "untitled:slice";
    c.open(uri, 1, SLICE);
    let (_, d) = c.diagnostics(uri);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d[0]["range"], "context": {"diagnostics": d}}),
    );
    let actions = actions.as_array().unwrap();
    let quick: Vec<&Value> = actions.iter().filter(|a| a["kind"] == "quickfix").collect();
    assert_eq!(quick.len(), 1, "{actions:?}");
    assert_eq!(quick[0]["isPreferred"], true);
    let edits = &quick[0]["edit"]["changes"][uri];
    assert_eq!(edits[0]["newText"], "\"yes\"", "{edits}");
    assert!(
        actions
            .iter()
            .any(|a| a["kind"] == "source.fixAll.kubectl-dra"),
        "{actions:?}"
    );
    // A request for other kinds only gets none of these.
    let none = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d[0]["range"],
               "context": {"diagnostics": d, "only": ["refactor"]}}),
    );
    assert_eq!(none, json!([]));
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": d[0]["range"]["start"]}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**DRA-S002**"), "{text}");
    assert!(
        text.contains("spec.devices[0].attributes[model].string"),
        "{text}"
    );
    // Nothing under the cursor: no hover.
    let nothing = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(nothing, Value::Null);
    let fixed = SLICE.replace("{string: yes}", "{string: \"yes\"}");
    c.change(uri, 2, &fixed);
    assert_eq!(c.diagnostics(uri), (Some(2), vec![]));
    c.stop();
}

#[test]
fn quick_edits_are_debounced_and_only_the_newest_version_is_published() {
    let c = Client::start(json!({}));
    let uri = "untitled:slice";
    c.open(uri, 1, SLICE);
    assert_eq!(c.diagnostics(uri).0, Some(1));
    for v in 2..=20 {
        c.change(uri, v, &SLICE.replace("n1-gpus", &format!("n1-gpus-{v}")));
    }
    let (version, d) = c.diagnostics(uri);
    assert_eq!(version, Some(20), "{d:?}");
    c.stop();
}

#[test]
fn hostile_documents_do_not_stall_the_server() {
    let mut c = Client::start(json!({}));
    // Nesting far past the parser's depth limit, and a document over the
    // size limit: each answered with a finding, and the server still
    // answers requests.
    let deep = format!("a: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    c.open("untitled:deep", 1, &deep);
    let (_, d) = c.diagnostics("untitled:deep");
    assert_eq!(codes(&d), ["DRA-E002"], "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("nested deeper than 255 levels"),
        "{d:?}"
    );
    let huge = "#".repeat(65 << 20);
    c.open("untitled:huge", 1, &huge);
    let (_, d) = c.diagnostics("untitled:huge");
    assert_eq!(d.len(), 1);
    assert!(
        d[0]["message"].as_str().unwrap().contains("DRA-E005"),
        "{d:?}"
    );
    let r = c.request("textDocument/definition", json!({}));
    assert_eq!(r["error"], -32601, "{r}");
    c.stop();
}

#[test]
fn settings_name_the_target_release_and_an_inventory() {
    let dir = tempfile::tempdir().unwrap();
    let inventory = dir.path().join("slices.yaml");
    std::fs::write(
        &inventory,
        "apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: a100}
",
    )
    .unwrap();
    let claim = "apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == \"gpu.example.com\"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}
";
    let c = Client::start(json!({"kubectl-dra": {"inventory": inventory.to_str().unwrap()}}));
    c.open("untitled:claim", 1, claim);
    let (_, d) = c.diagnostics("untitled:claim");
    assert!(codes(&d).contains(&"DRA-C003"), "{d:?}");
    // A release setting: 1.35 drops distinctAttribute with its gate off.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"kubectl-dra": {"kubernetesVersion": "1.35", "inventory": []}}}),
    );
    let (_, d) = c.diagnostics("untitled:claim");
    assert!(!codes(&d).contains(&"DRA-C003"), "{d:?}");
    let with_distinct = claim.to_owned()
        + "    constraints:\n    - requests: [gpu]\n      distinctAttribute: gpu.example.com/uuid\n";
    c.change("untitled:claim", 2, &with_distinct);
    let (_, d) = c.diagnostics("untitled:claim");
    assert!(codes(&d).contains(&"DRA-D001"), "{d:?}");
    c.stop();
}
