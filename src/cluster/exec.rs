//! Exec credential plugins, run by kubectl-dra itself before the client is
//! built: kube-rs would run the plugin with no deadline and echo what it
//! printed in its errors. Here the plugin gets `--request-timeout` (killed
//! past it), its output is read up to a bound, and what it printed is never
//! shown (it may be a raw token). A token it returns replaces the exec entry;
//! a client certificate leaves the entry for kube-rs, the plugin having been
//! seen to finish.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kube::config::{KubeConfigOptions, Kubeconfig};

use super::error::redact;
use super::ClusterError;

/// The most an exec plugin may print.
const MAX_OUTPUT: u64 = 1 << 20;

/// The user the options and the current context select.
fn selected_user(kc: &Kubeconfig, options: &KubeConfigOptions) -> Option<String> {
    if let Some(u) = &options.user {
        return Some(u.clone());
    }
    let ctx = options
        .context
        .clone()
        .or_else(|| kc.current_context.clone())?;
    kc.contexts
        .iter()
        .find(|c| c.name == ctx)?
        .context
        .as_ref()?
        .user
        .clone()
}

/// Runs the selected user's exec plugin, if any, within `timeout` (`None`:
/// no deadline), and puts the token it returns in its place.
pub fn resolve(
    kc: &mut Kubeconfig,
    options: &KubeConfigOptions,
    timeout: Option<Duration>,
) -> Result<(), ClusterError> {
    let Some(user) = selected_user(kc, options) else {
        return Ok(());
    };
    let Some(named) = kc.auth_infos.iter_mut().find(|a| a.name == user) else {
        return Ok(());
    };
    let Some(info) = named.auth_info.as_mut() else {
        return Ok(());
    };
    let Some(exec) = info.exec.as_ref() else {
        return Ok(());
    };
    let Some(command) = exec.command.clone() else {
        return Ok(());
    };
    let api_version = exec
        .api_version
        .clone()
        .unwrap_or_else(|| "client.authentication.k8s.io/v1".to_owned());
    let mut cmd = Command::new(&command);
    cmd.args(exec.args.clone().unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for kv in exec.env.iter().flatten() {
        if let (Some(k), Some(v)) = (kv.get("name"), kv.get("value")) {
            cmd.env(k, v);
        }
    }
    cmd.env(
        "KUBERNETES_EXEC_INFO",
        serde_json::json!({"apiVersion": api_version, "kind": "ExecCredential", "spec": {"interactive": false}}).to_string(),
    );
    let fail = |why: String| {
        ClusterError::Config(format!(
            "the exec credential plugin {command:?} of kubeconfig user {user:?} {why}"
        ))
    };
    let mut child = cmd
        .spawn()
        .map_err(|e| fail(format!("could not be started: {e}")))?;
    let mut out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take();
    // Read both pipes on threads (bounded), so that a chatty plugin cannot
    // block on a full pipe while we wait for it.
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = out_pipe.as_mut() {
            let _ = p.take(MAX_OUTPUT + 1).read_to_end(&mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = err_pipe.as_mut() {
            let _ = p.take(MAX_OUTPUT + 1).read_to_end(&mut buf);
        }
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => {}
            Err(e) => return Err(fail(format!("could not be waited for: {e}"))),
        }
        if timeout.is_some_and(|t| start.elapsed() >= t) {
            let _ = child.kill();
            let _ = child.wait();
            let t = timeout.unwrap_or_default();
            return Err(fail(format!(
                "did not finish within {}s (--request-timeout)",
                t.as_secs_f64()
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        let said = redact(
            String::from_utf8_lossy(&err)
                .chars()
                .take(300)
                .collect::<String>()
                .trim(),
        );
        return Err(fail(format!("failed ({status}): {said}")));
    }
    if out.len() as u64 > MAX_OUTPUT {
        return Err(fail(format!("printed more than {} KiB", MAX_OUTPUT >> 10)));
    }
    #[derive(serde::Deserialize)]
    struct Credential {
        status: Option<Status>,
    }
    #[derive(serde::Deserialize)]
    struct Status {
        token: Option<String>,
    }
    let cred: Credential = serde_json::from_slice(&out).map_err(|_| {
        // Never shown: the output may be a raw token.
        fail(format!(
            "printed {} bytes that are not an ExecCredential (not shown)",
            out.len()
        ))
    })?;
    if let Some(token) = cred
        .status
        .and_then(|s| s.token)
        .map(|t| t.trim().to_owned())
    {
        if token.chars().any(|c| c.is_control() || !c.is_ascii()) {
            return Err(fail(
                "returned a token with control or non-ASCII characters".into(),
            ));
        }
        info.token = Some(secrecy::SecretString::from(token));
        info.exec = None;
    }
    Ok(())
}
