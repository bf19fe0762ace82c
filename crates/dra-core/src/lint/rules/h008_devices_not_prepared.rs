//! DRA-H008: a scheduled pod whose devices the kubelet cannot prepare.
use super::prelude::*;
use crate::prepare::{self, Failure};

declare_rule! {
    id: "DRA-H008", name: "devices-not-prepared", severity: Error, origin: Linter,
    summary: "A scheduled pod's devices cannot be prepared on its node: the driver's kubelet plugin is not registered there, or the plugin fails",
    docs: "Once a pod is bound, the kubelet on its node asks each driver's kubelet plugin to prepare the claim's devices; until every one succeeds the pod stays in ContainerCreating, retried, with a `FailedPrepareDynamicResources` event. \"DRA driver X is not registered\" means no plugin of that driver runs (or registered) on the node, while its ResourceSlices may still be published and the scheduler keeps placing pods there: check the driver's kubelet-plugin DaemonSet pod on that node (`kubectl get pods -A -o wide --field-selector spec.nodeName=NODE`) and its logs. Other messages are the plugin's own error. Read from the pod's latest such event (`kubectl dra doctor` reads them live; a snapshot keeps them); pods that run, finished or are gone are left out.",
    example: "kind: Event\nreason: FailedPrepareDynamicResources\nmessage: 'Failed to prepare dynamic resources: prepare dynamic resources: DRA driver gpu.nvidia.com is not registered'\ninvolvedObject: {kind: Pod, namespace: ml, name: train-0}\n",
    check: Check::Object(&[Event], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(f) = prepare::failures(std::slice::from_ref(obj)).pop() else {
        return;
    };
    // Only the pod's latest event speaks for it.
    let later = cx.of_kind(Event).any(|e| {
        !std::ptr::eq(e, obj)
            && prepare::failures(std::slice::from_ref(e))
                .first()
                .is_some_and(|g| {
                    g.namespace == f.namespace && g.pod == f.pod && g.last_seen > f.last_seen
                })
    });
    if later {
        return;
    }
    let Some(pod) = cx.of_kind(Workload).find(|p| {
        p.reference.kind == "Pod"
            && p.name() == Some(f.pod.as_str())
            && p.namespace_or_default() == f.namespace
            && f.pod_uid.as_deref().is_none_or(|u| {
                get(&p.root, "metadata")
                    .and_then(|m| get(m, "uid"))
                    .and_then(Node::as_str)
                    .is_none_or(|own| own == u)
            })
    }) else {
        return;
    };
    let phase = get(&pod.root, "status")
        .and_then(|s| get(s, "phase"))
        .and_then(Node::as_str);
    if matches!(phase, Some("Running" | "Succeeded" | "Failed")) {
        return;
    }
    let spec_node = pod.pod_spec().and_then(|s| entry(s, "nodeName"));
    let node = spec_node
        .and_then(|e| e.value.as_str())
        .map(str::to_owned)
        .or(f.node.clone())
        .unwrap_or_else(|| "its node".to_owned());
    let times = if f.count > 1 {
        format!(", {} times", f.count)
    } else {
        String::new()
    };
    let since = f
        .last_seen
        .as_deref()
        .map(|t| format!(" (last at {t}{times})"))
        .unwrap_or_default();
    let (message, note) = match &f.failure {
        Failure::DriverNotRegistered { driver } => {
            let slices = cx
                .dra()
                .slices
                .iter()
                .filter(|s| {
                    s.driver == driver.as_str()
                        && matches!(s.selection, crate::dra::NodeSelection::Node(n) if n == node)
                })
                .count();
            let published = match slices {
                0 => String::new(),
                n => format!("; {n} ResourceSlice(s) of {driver} for {node} are still published, so the scheduler keeps placing pods there"),
            };
            (
                format!("the kubelet on {node} cannot prepare the pod's devices: DRA driver {driver} is not registered there{since}: its kubelet plugin is not running on {node} (or has not registered), and the pod stays in ContainerCreating{published}"),
                format!("check the {driver} kubelet-plugin pod on {node}: kubectl get pods -A -o wide --field-selector spec.nodeName={node}"),
            )
        }
        Failure::Other => (
            format!("the kubelet on {node} cannot prepare the pod's devices{since}: the pod stays in ContainerCreating"),
            format!("the kubelet said: {}", f.message),
        ),
    };
    let (field, span) = match spec_node {
        Some(e) => ("spec.nodeName", e.value.span),
        None => ("metadata.name", pod.root.span),
    };
    out.report(pod, Invalid, field, span, message).note(note);
}
