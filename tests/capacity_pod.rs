//! `capacity pod` and `capacity workload` (issue 33, item 1): copies of a
//! pod's template claims, only on the nodes the pod may run on, pinned by
//! the claims it shares.

mod support;

const FLEET: &str = "testdata/fixtures/whatif/add-nodes.yaml";

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["-f", FLEET]);
    support::json_answer(&a)
}

#[test]
fn a_pod_counts_its_template_claims_on_the_nodes_it_may_run_on() {
    let v = json(&[
        "capacity",
        "pod",
        "ml/infer-0",
        "--add-nodes",
        "2",
        "--like",
        "gpu-1",
    ]);
    assert_eq!(v["total"], 2, "{v}");
    assert_eq!(v["templates"][0]["template"], "ml/one-gpu");
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("gpu-1-copy-1".to_owned(), 1, "inUse".to_owned()),
            ("gpu-1-copy-2".to_owned(), 1, "inUse".to_owned()),
            ("gpu-1".to_owned(), 0, "inUse".to_owned()),
        ]
    );
    // The same as copies of its template, where the pod may run everywhere.
    let t = json(&[
        "capacity",
        "template",
        "ml/one-gpu",
        "--add-nodes",
        "2",
        "--like",
        "gpu-1",
    ]);
    assert_eq!(t["total"], v["total"]);
}

#[test]
fn a_workload_that_does_not_tolerate_the_taint_fits_nowhere() {
    let v = json(&[
        "capacity",
        "workload",
        "testdata/fixtures/whatif/deployment.yaml",
    ]);
    assert_eq!(v["of"]["kind"], "Deployment");
    assert_eq!(v["total"], 0, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [("gpu-1".to_owned(), 0, "podExcluded".to_owned())]
    );
    assert!(v["nodes"][0]["stop"]["reason"]
        .as_str()
        .unwrap()
        .contains("nvidia.com/gpu=present:NoSchedule"));
}

#[test]
fn a_shared_claim_pins_every_copy_to_its_node() {
    let v = json(&[
        "capacity",
        "workload",
        "testdata/fixtures/whatif/job-shared-claim.yaml",
        "--add-nodes",
        "1",
        "--like",
        "gpu-1",
    ]);
    assert_eq!(v["sharedClaims"], serde_json::json!(["ml/trainer-gpu"]));
    // The copy node would have a free GPU, but the shared claim is gpu-1's.
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("gpu-1".to_owned(), 0, "inUse".to_owned()),
            ("gpu-1-copy-1".to_owned(), 0, "podExcluded".to_owned()),
        ]
    );
    // A pod with no template claim has nothing to copy: said, exit 2.
    let o = support::run(&["capacity", "pod", "ml/trainer", "-f", FLEET]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("makes no claim from a ResourceClaimTemplate")
    );
}

/// A copy needs the node's cpu too (NodeResourcesFit): eight GPUs but ten
/// CPUs take three copies of a pod asking for three CPUs and one GPU, and
/// the count says what stops the next.
#[test]
fn copies_stop_where_the_node_has_no_cpu_left() {
    let v = support::json_answer(&[
        "capacity",
        "pod",
        "ml/infer",
        "-f",
        "testdata/fixtures/capacity-node-resources.yaml",
    ]);
    assert_eq!(v["total"], 3, "{v}");
    let node = &v["nodes"][0];
    assert_eq!(node["stop"]["kind"], "insufficientResource", "{v}");
    assert_eq!(
        node["stop"]["reason"], "the next copy cannot run there: Insufficient cpu",
        "{v}"
    );
    assert_eq!(node["maximum"]["copies"], 3, "{v}");
}

/// InterPodAffinity (interpodaffinity/filtering.go): a worker's required
/// anti-affinity to its own kind (topologyKey kubernetes.io/hostname) keeps
/// it off the nodes where a worker runs, and copies of it take one node
/// each: with the workers running, n1 and n2 are ruled out; once they have
/// finished, n1 and n2 take one copy each though each has two GPUs.
#[test]
fn anti_affinity_to_its_own_kind_takes_one_node_per_copy() {
    let file = "testdata/fixtures/explain-pod-anti-affinity.yaml";
    let v = support::json_answer(&["capacity", "pod", "ml/worker-2", "-f", file]);
    assert_eq!(v["total"], 0, "{v}");
    for n in 0..2 {
        assert_eq!(v["nodes"][n]["stop"]["kind"], "podExcluded", "{v}");
        assert_eq!(
            v["nodes"][n]["stop"]["reason"],
            "the pod cannot run there: node(s) didn't match pod anti-affinity rules",
            "{v}"
        );
    }
    let dir = support::ScratchDir::new("capacity-anti-affinity");
    let finished = dir.join("finished.yaml");
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    std::fs::write(
        &finished,
        text.replace("status: {phase: Running}", "status: {phase: Succeeded}"),
    )
    .unwrap();
    let path = finished.to_str().unwrap();
    let v = support::json_answer(&["capacity", "pod", "ml/worker-2", "-f", path]);
    assert_eq!(v["total"], 2, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("n1".to_owned(), 1, "podExcluded".to_owned()),
            ("n2".to_owned(), 1, "podExcluded".to_owned()),
            ("n3".to_owned(), 0, "inUse".to_owned()),
        ]
    );
    assert_eq!(
        v["nodes"][0]["stop"]["reason"],
        "the next copy cannot run there: node(s) didn't match pod anti-affinity rules (one copy per kubernetes.io/hostname)",
        "{v}"
    );
    // Without the term, each node takes both its GPUs.
    let free = dir.join("free.yaml");
    let text = std::fs::read_to_string(&finished).unwrap();
    let cut = text
        .find("---\napiVersion: v1\nkind: Pod\nmetadata: {name: worker-2")
        .unwrap();
    std::fs::write(
        &free,
        format!(
            "{}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: worker-2, namespace: ml}}\nspec:\n  resourceClaims:\n  - {{name: gpu, resourceClaimTemplateName: one-gpu}}\n  containers: [{{name: main, image: x, resources: {{claims: [{{name: gpu}}]}}}}]\n",
            &text[..cut]
        ),
    )
    .unwrap();
    let v = support::json_answer(&[
        "capacity",
        "pod",
        "ml/worker-2",
        "-f",
        free.to_str().unwrap(),
    ]);
    assert_eq!(v["total"], 4, "{v}");
}

/// PodTopologySpread in `capacity pod`: the nodes of the crowded zone are
/// ruled out for the next copy, in the scheduler's words.
#[test]
fn topology_spread_rules_out_the_crowded_zone_for_copies() {
    let file = "testdata/fixtures/explain-topology-spread.yaml";
    let v = support::json_answer(&["capacity", "pod", "ml/infer-2", "-f", file]);
    assert_eq!(v["total"], 0, "{v}");
    assert_eq!(
        v["nodes"][0]["stop"]["reason"],
        "the pod cannot run there: node(s) didn't match pod topology spread constraints",
        "{v}"
    );
}

/// NodePorts in `capacity pod`: n1's host port is taken, and every copy
/// asks for the same port, so n2 takes one though it has two GPUs.
#[test]
fn host_ports_take_one_copy_per_node() {
    let file = "testdata/fixtures/explain-node-ports.yaml";
    let v = support::json_answer(&["capacity", "pod", "ml/infer-2", "-f", file]);
    assert_eq!(v["total"], 1, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("n2".to_owned(), 1, "podExcluded".to_owned()),
            ("n1".to_owned(), 0, "podExcluded".to_owned()),
            ("n3".to_owned(), 0, "inUse".to_owned()),
        ]
    );
}

/// Copies move the spread (podtopologyspread's AddPod, one copy after
/// another): with no replica running and n3's GPU free, zone a (n1, n2:
/// four GPUs) may hold at most one copy more than zone b (n3: one GPU), so
/// three copies fit, not five.
#[test]
fn copies_keep_the_spread() {
    let file = "testdata/fixtures/explain-topology-spread.yaml";
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let docs: Vec<&str> = text
        .split("---\n")
        .filter(|d| !d.contains("kind: ResourceClaim\nmetadata: {name: notebook"))
        .collect();
    let text = docs
        .join("---\n")
        .replace("status: {phase: Running}", "status: {phase: Succeeded}");
    let dir = support::ScratchDir::new("capacity-spread");
    let path = dir.join("free.yaml");
    std::fs::write(&path, text).unwrap();
    let v = support::json_answer(&[
        "capacity",
        "pod",
        "ml/infer-2",
        "-f",
        path.to_str().unwrap(),
    ]);
    assert_eq!(v["total"], 3, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("n1".to_owned(), 2, "inUse".to_owned()),
            ("n3".to_owned(), 1, "inUse".to_owned()),
            ("n2".to_owned(), 0, "podExcluded".to_owned()),
        ]
    );
}

/// A pod whose required affinity meets its own kind, with none running
/// yet, starts a group (satisfyPodAffinity's first-pod rule): the copies
/// after the first meet it, so all share its `kubernetes.io/hostname`
/// domain. n1 keeps its two copies; n2, as large, takes none.
#[test]
fn affinity_to_its_own_kind_keeps_the_copies_together() {
    let file = "testdata/fixtures/explain-pod-anti-affinity.yaml";
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let (before, worker) = text.split_once("metadata: {name: worker-2").unwrap();
    let worker = worker.replacen("podAntiAffinity", "podAffinity", 1);
    let text = format!("{before}metadata: {{name: worker-2{worker}")
        .replace("status: {phase: Running}", "status: {phase: Succeeded}");
    let dir = support::ScratchDir::new("capacity-own-group");
    let path = dir.join("group.yaml");
    std::fs::write(&path, text).unwrap();
    let v = support::json_answer(&[
        "capacity",
        "pod",
        "ml/worker-2",
        "-f",
        path.to_str().unwrap(),
    ]);
    assert_eq!(v["total"], 2, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [
            ("n1".to_owned(), 2, "inUse".to_owned()),
            ("n2".to_owned(), 0, "podExcluded".to_owned()),
            ("n3".to_owned(), 0, "inUse".to_owned()),
        ]
    );
}

/// The copies share the pod's PVCs: a bound PV's node affinity, or a local
/// PV only one node has, keeps them off the other nodes (VolumeBinding, as
/// `explain pod` applies it); a PVC that does not exist stops every copy.
#[test]
fn copies_go_only_where_the_pods_volumes_can() {
    let fixture = "testdata/fixtures/explain-volumes.yaml";
    for (pod, fits, out) in [("ml/train", "n2", "n1"), ("ml/local", "n1", "n2")] {
        let v = support::json_answer(&["capacity", "pod", pod, "-f", fixture]);
        assert_eq!(v["total"], 1, "{v}");
        let rows = support::capacity_rows(&v);
        assert!(
            rows.contains(&(fits.to_owned(), 1, "inUse".to_owned())),
            "{rows:?}"
        );
        assert!(
            rows.contains(&(out.to_owned(), 0, "podExcluded".to_owned())),
            "{rows:?}"
        );
    }
    let o = support::run(&["capacity", "pod", "ml/orphan", "-f", fixture]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("kube-scheduler's VolumeRestrictions stops it before any node is tried: persistentvolumeclaim \"missing\" not found"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
