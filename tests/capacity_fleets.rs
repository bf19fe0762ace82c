//! Capacity on realistic fleets (issue 33): consumable-capacity NICs shared
//! between claims in requestPolicy steps, a network-attached pool that two
//! nodes reach, and the pod templates of a JobSet and a LeaderWorkerSet
//! (testdata/fixtures/capacity/nics-and-network-pools.yaml and its
//! workloads).

mod support;

const FLEET: &str = "testdata/fixtures/capacity/nics-and-network-pools.yaml";

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["-f", FLEET]);
    support::json_answer(&a)
}

fn row(node: &str, copies: u64, stop: &str) -> (String, u64, String) {
    (node.to_owned(), copies, stop.to_owned())
}

#[test]
fn a_nic_shared_between_claims_counts_its_bandwidth() {
    // 100G per NIC; node-a's already gives 30G to net/ingest-nic.
    let v = json(&["capacity", "template", "net/nic-20g"]);
    assert_eq!(v["total"], 8, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [row("node-b", 5, "capacity"), row("node-a", 3, "capacity")]
    );
    // 25G is rounded up to the policy's 10G steps: each copy takes 30G.
    let v = json(&["capacity", "template", "net/nic-25g"]);
    assert_eq!(v["total"], 5, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [row("node-b", 3, "capacity"), row("node-a", 2, "capacity")]
    );
    let reason = v["nodes"][0]["stop"]["reason"].as_str().unwrap();
    assert!(reason.contains("needs 30G, 10G left"), "{reason}");
}

#[test]
fn a_network_attached_pool_is_counted_once_across_nodes() {
    // Three fabric devices that both nodes reach: three copies in all, not
    // three per node.
    let v = json(&["capacity", "template", "net/fabric-one"]);
    assert_eq!(v["total"], 3, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [row("node-a", 3, "inUse"), row("node-b", 0, "inUse")]
    );
    assert_eq!(
        v["nodes"][0]["sharedPools"],
        serde_json::json!(["fabric.example.com/rack-r1"])
    );
    let held = v["nodes"][1]["stop"]["reason"].as_str().unwrap();
    assert!(held.contains("net/copy-1-on-node-a"), "{held}");
    let o = support::run(&["capacity", "template", "net/fabric-one", "-f", FLEET]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("takes from pools shared with other nodes: fabric.example.com/rack-r1"),
        "{text}"
    );
}

#[test]
fn a_jobset_copies_its_first_replicated_jobs_pod_template() {
    // Each pod takes 20G of a NIC and one of the three shared fabric
    // devices: the fabric is gone after three pods.
    let v = json(&[
        "capacity",
        "workload",
        "testdata/fixtures/capacity/jobset.yaml",
    ]);
    assert_eq!(v["of"]["kind"], "JobSet", "{v}");
    assert_eq!(v["total"], 3, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [row("node-a", 3, "capacity"), row("node-b", 0, "inUse")]
    );
}

#[test]
fn a_leaderworkerset_copies_its_worker_template() {
    let v = json(&[
        "capacity",
        "workload",
        "testdata/fixtures/capacity/leaderworkerset.yaml",
    ]);
    assert_eq!(v["of"]["kind"], "LeaderWorkerSet", "{v}");
    assert_eq!(v["total"], 5, "{v}");
}

/// A JobSet's pod template is linted as a pod's: its claims and container
/// claim references (DRA-V182), at the template's own path.
#[test]
fn a_jobset_template_is_linted_at_its_path() {
    let yaml = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, namespace: net}\nspec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n        template:\n          spec:\n            resourceClaims: [{name: nic, resourceClaimTemplateName: nic-20g}]\n            containers: [{name: c, image: x, resources: {claims: [{name: gpu}]}}]\n";
    let o = support::run_with_stdin(&["lint", "-o", "json", "-"], Some(yaml.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let fields: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "DRA-V182")
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.claims[0]"],
        "{v}"
    );
}

/// `--drain NODE` cordons the node: no new pod, so no copy, there; the same
/// answer as the inventory with `spec.unschedulable: true` written by hand.
#[test]
fn a_drained_node_takes_no_copy_as_when_cordoned_by_hand() {
    let v = json(&["capacity", "template", "net/nic-20g", "--drain", "node-b"]);
    assert_eq!(v["total"], 3, "{v}");
    assert_eq!(
        support::capacity_rows(&v),
        [
            row("node-a", 3, "capacity"),
            row("node-b", 0, "podExcluded")
        ]
    );
    let dir = support::ScratchDir::new("capacity-drain");
    let text = std::fs::read_to_string(support::root().join(FLEET)).unwrap().replace(
        "metadata:\n  name: node-b\n  labels: {kubernetes.io/hostname: node-b, example.com/rack: r1}",
        "metadata:\n  name: node-b\n  labels: {kubernetes.io/hostname: node-b, example.com/rack: r1}\nspec: {unschedulable: true}",
    );
    assert!(text.contains("unschedulable"));
    let path = dir.join("cordoned.yaml");
    std::fs::write(&path, text).unwrap();
    let o = support::run(&[
        "capacity",
        "template",
        "net/nic-20g",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    let by_hand: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(by_hand["total"], v["total"]);
    assert_eq!(by_hand["nodes"], v["nodes"]);
}
