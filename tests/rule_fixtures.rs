//! Rule fixtures beyond the conformance cases (testdata/fixtures/rules, see
//! its README): each file is linted on its own and its findings must be
//! exactly the lines marked `# expect: RULE [severity]`. Every rule of the
//! listed families has a failing and a passing fixture.

mod support;

#[test]
fn rule_fixtures_find_exactly_what_they_mark() {
    support::check_fixture_dir(
        "testdata/fixtures/rules",
        &[
            "DRA-V100", "DRA-V101", "DRA-V102", "DRA-V103", "DRA-V104", "DRA-V105", "DRA-V151",
            "DRA-V152", "DRA-V153", "DRA-V016", "DRA-V168", "DRA-X001", "DRA-X002", "DRA-H001",
            "DRA-H002", "DRA-H003", "DRA-H004", "DRA-H005", "DRA-H006", "DRA-H007", "DRA-H008",
            "DRA-V171", "DRA-V172", "DRA-V173", "DRA-V193", "DRA-C004",
        ],
    );
}

/// The field errors (path, type) of linting `yaml` as the given release.
fn errors(yaml: &str, args: &[&str]) -> Vec<(String, String)> {
    let mut argv = vec!["lint", "-o", "json", "-"];
    argv.extend_from_slice(args);
    let o = support::run_with_stdin(&argv, Some(yaml.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut out: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["field"].as_str().unwrap().to_owned(),
                d["type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

/// validateResourcePool on a missing pool (a zero ResourcePool): the name is
/// Required and the count Invalid.
#[test]
fn a_missing_pool_fails_every_check_of_the_pool() {
    let yaml = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  nodeName: node-1\n  devices: [{name: gpu-0}]\n";
    assert_eq!(
        errors(yaml, &[]),
        [
            ("spec.pool.name".to_owned(), "Required".to_owned()),
            (
                "spec.pool.resourceSliceCount".to_owned(),
                "Invalid".to_owned()
            ),
        ]
    );
}

/// validateDeviceTaintRuleSpec with no taint: DeviceTaintRuleSpec.Taint is a
/// struct, so its empty key is Invalid (ValidateLabelName, twice: "name
/// part must be non-empty" and the pattern, as IsQualifiedName says) and
/// its effect Required.
#[test]
fn a_taint_rule_without_a_taint() {
    let yaml = "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: r}\nspec:\n  deviceSelector: {driver: gpu.example.com}\n";
    assert_eq!(
        errors(yaml, &[]),
        [
            ("spec.taint.effect".to_owned(), "Required".to_owned()),
            ("spec.taint.key".to_owned(), "Invalid".to_owned()),
            ("spec.taint.key".to_owned(), "Invalid".to_owned()),
        ]
    );
}

/// AuthorizedForAdmin stops at the first request with adminAccess.
#[test]
fn admin_access_is_refused_once() {
    let yaml = "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: team}\nspec:\n  devices:\n    requests:\n    - {name: a, exactly: {deviceClassName: gpu, adminAccess: true}}\n    - {name: b, exactly: {deviceClassName: gpu, adminAccess: true}}\n";
    assert_eq!(
        errors(yaml, &[]),
        [(
            "spec.devices.requests[0].adminAccess".to_owned(),
            "Forbidden".to_owned()
        )]
    );
}

/// validateRequestPolicyValidValues notes the default in validateSet's item
/// callback. 1.34 validates every item of an over-long list (the default
/// is found: TooMany alone); from 1.35 the list stops at TooMany before any
/// item, so the default is never found and Invalid follows at the same path
/// (validation.go of fabiendupont/kubernetes@291372b for 1.34,
/// kubernetes/kubernetes@009801d for 1.37).
#[test]
fn eleven_valid_values_per_release() {
    let values: String = (1..=11).map(|i| format!("'{i}', ")).collect();
    let yaml = format!("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: nic.example.com\n  pool: {{name: p, generation: 1, resourceSliceCount: 1}}\n  nodeName: node-1\n  devices:\n  - name: nic-0\n    allowMultipleAllocations: true\n    capacity:\n      queues:\n        value: '16'\n        requestPolicy:\n          default: '1'\n          validValues: [{values}]\n");
    let path = "spec.devices[0].capacity[queues].requestPolicy.validValues".to_owned();
    let too_many = (path.clone(), "TooMany".to_owned());
    let invalid = (path, "Invalid".to_owned());
    for (version, want) in [
        ("1.34", vec![too_many.clone()]),
        ("1.35", vec![invalid.clone(), too_many.clone()]),
        ("1.37", vec![invalid.clone(), too_many.clone()]),
    ] {
        let got = errors(
            &yaml,
            &[
                "--kubernetes-version",
                version,
                "--feature-gates",
                "DRAConsumableCapacity=true",
            ],
        );
        assert_eq!(got, want, "{version}");
    }
}

/// ValidateAnnotations (apimachinery objectmeta.go): keys and values of all
/// annotations together may hold 256 KiB (TooLong at metadata.annotations);
/// ValidateObjectMeta runs on a Pod as on the DRA kinds (DRA-V186), and a
/// claim template's metadata is held to the same total (DRA-V131).
#[test]
fn object_metadata_annotation_size_and_pods() {
    let claim = |bytes: usize| {
        format!(
            "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n  namespace: default\n  annotations:\n    k: \"{}\"\nspec: {{devices: {{requests: []}}}}\n",
            "x".repeat(bytes - 1)
        )
    };
    assert_eq!(errors(&claim(256 << 10), &[]), []);
    assert_eq!(
        errors(&claim((256 << 10) + 1), &[]),
        [("metadata.annotations".to_owned(), "TooLong".to_owned())]
    );
    // ValidateTemplateObjectMeta: a template's claim metadata alike (DRA-V131).
    let template = format!(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {{name: t, namespace: default}}\nspec:\n  metadata:\n    annotations:\n      k: \"{}\"\n  spec: {{devices: {{requests: []}}}}\n",
        "x".repeat(256 << 10)
    );
    assert_eq!(
        errors(&template, &[]),
        [("spec.metadata.annotations".to_owned(), "TooLong".to_owned())]
    );
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\n  labels: {app: \"a b\"}\n  generation: -4\nspec:\n  containers: [{name: app, image: busybox}]\n";
    assert_eq!(
        errors(pod, &[]),
        [("metadata.labels".to_owned(), "Invalid".to_owned())]
    );
}

/// corevalidation.ValidateNodeSelector requires a term before validateResourceSliceSpec
/// asks for exactly one: a slice's empty selector fails both (validation_resourceslice_test.go
/// "bad-empty-node-selector": Required "must have at least one node selector term" and
/// Invalid "must have exactly one node selector term"); validateDevice calls
/// ValidateNodeSelector alone for a device under perDeviceNodeSelection, and a null
/// selector is a nil pointer, not validated.
#[test]
fn an_empty_node_selector_has_no_term_before_it_has_not_one() {
    let slice = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  nodeSelector: {}\n  pool: {name: p, resourceSliceCount: 1}\n";
    let device = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  perDeviceNodeSelection: true\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n  - {name: d0, nodeSelector: {nodeSelectorTerms: []}}\n  - {name: d1, allNodes: true, nodeSelector: null}\n";
    for v in ["1.34", "1.37"] {
        assert_eq!(
            errors(slice, &["--kubernetes-version", v]),
            [
                (
                    "spec.nodeSelector.nodeSelectorTerms".to_owned(),
                    "Invalid".to_owned()
                ),
                (
                    "spec.nodeSelector.nodeSelectorTerms".to_owned(),
                    "Required".to_owned()
                ),
            ]
        );
        assert_eq!(
            errors(
                device,
                &[
                    "--kubernetes-version",
                    v,
                    "--feature-gates",
                    "DRAPartitionableDevices=true"
                ]
            ),
            [(
                "spec.devices[0].nodeSelector.nodeSelectorTerms".to_owned(),
                "Required".to_owned()
            )]
        );
    }
}

/// The request-policy messages print quantities as apimachinery's
/// Quantity.String() does, as validateRequestPolicyValidValues and
/// validateRequestPolicyRange format them (`maxCapacity.String()`,
/// `added.String()` after `added.Add(step)`): the figures of
/// validation_device_capacity_test.go ("option is larger than capacity value:
/// 10Gi", "one step 11Gi ...", "(2Gi) from (1Gi)") and of
/// validation_resourceslice_test.go ("default is less than min: 1100m" for a
/// min written 1.1).
#[test]
fn request_policy_messages_print_quantities_as_the_apiserver() {
    let yaml = policy_slice(&[
        ("10Gi", "{default: 1Gi, validValues: [20Gi]}"),
        (
            "10Gi",
            "{default: 2Gi, validRange: {min: 20Gi, max: 1024Mi}}",
        ),
        (
            "10Gi",
            "{default: 2Gi, validRange: {min: 1Gi, max: 10Gi, step: 2Gi}}",
        ),
        ("10Gi", "{default: 1Gi, validRange: {min: 1Gi, step: 10Gi}}"),
        ("1000", "{default: \"1.05\", validRange: {min: \"1.1\"}}"),
    ]);
    let o = support::run_with_stdin(
        &[
            "lint",
            "-o",
            "json",
            "-",
            "--feature-gates",
            "DRAConsumableCapacity=true",
        ],
        Some(yaml.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut got: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    got.sort();
    got.dedup();
    let mut want = vec![
        "default value is not valid according to the requestPolicy",
        "option is larger than capacity value: 10Gi",
        "default is less than min: 20Gi",
        "default is more than max: 1Gi",
        "min is larger than capacity value: 10Gi",
        "min is larger than max: 1Gi",
        "value is not a multiple of a given step (2Gi) from (1Gi)",
        "one step 11Gi is larger than capacity value: 10Gi",
        "default is less than min: 1100m",
    ];
    want.sort();
    assert_eq!(got, want);
}

/// validateRequestPolicyRange's overflow guard (1.37, DRAFractionalCapacityRange,
/// a fractional value in the range or its default): each of default, min, max
/// and step must be a whole number of milli-units within int64, else
/// "value cannot be represented as a milli value" and no step check follows.
/// The cases of validation_device_capacity_test.go "fractional-range-overflow-min"
/// (10P beside a step of 100m) and "fractional-too-fine-precision" (10u), and of
/// validation_resourceslice_test.go "consumable-capacity-fractional" device 11
/// (MaxInt64 beside a step of 1m); a negative step after a bad min is not
/// reported, the guard having returned first.
#[test]
fn a_fractional_range_must_fit_in_milli_units() {
    let max = i64::MAX;
    let max_policy =
        format!("{{default: \"{max}\", validRange: {{min: \"0\", step: 1m, max: \"{max}\"}}}}");
    let yaml = policy_slice(&[
        ("100P", "{default: 20P, validRange: {min: 10P, step: 100m}}"),
        ("1", "{default: 20u, validRange: {min: 10u}}"),
        (&max.to_string(), &max_policy),
        (
            "10",
            "{default: \"1\", validRange: {min: \"0.0001\", step: \"-1\"}}",
        ),
    ]);
    let gates = "DRAConsumableCapacity=true,DRAFractionalCapacityRange=true";
    let at = |i: usize, f: &str| {
        (
            format!("spec.devices[{i}].capacity[a].requestPolicy.validRange.{f}"),
            "Invalid".to_owned(),
        )
    };
    assert_eq!(
        errors(&yaml, &["--feature-gates", gates]),
        [
            at(0, "default"),
            at(0, "min"),
            at(1, "default"),
            at(1, "min"),
            at(2, "default"),
            at(2, "max"),
            at(3, "min"),
        ]
    );
}

/// A ResourceSlice whose devices d0, d1, ... allow multiple allocations and
/// have one capacity `a` of the given value and request policy.
fn policy_slice(devices: &[(&str, &str)]) -> String {
    let mut yaml = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n".to_owned();
    for (i, (value, policy)) in devices.iter().enumerate() {
        yaml.push_str(&format!("  - name: d{i}\n    allowMultipleAllocations: true\n    capacity:\n      a:\n        value: \"{value}\"\n        requestPolicy: {policy}\n"));
    }
    yaml
}

/// core validation's validateResourceClaimNames names the pod's claims as
/// gatherPodResourceClaimNames gathers them: the non-empty names, sorted
/// (an empty one is only V180's Required).
#[test]
fn an_unknown_container_claim_lists_the_pod_claims_that_have_names() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  resourceClaims:\n  - {name: '', resourceClaimName: c}\n  - {name: nic, resourceClaimName: c}\n  - {name: GPU, resourceClaimName: c}\n  containers:\n  - name: c\n    image: i\n    resources:\n      claims: [{name: nope}]\n";
    let o = support::run_with_stdin(&["lint", "-o", "json", "-"], Some(yaml.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let messages: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "DRA-V182")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        ["\"nope\": must be one of the names in pod.spec.resourceClaims: GPU, nic"]
    );
}

/// DRA-C003 names the selector term no device of the inventory passes and
/// what the devices hold there; "h100" against "a100" is another model, so
/// no fix is suggested (dra_core::selector_miss).
#[test]
fn a_selector_matching_nothing_names_what_the_devices_hold() {
    let o = support::run(&[
        "lint",
        "-o",
        "json",
        "testdata/witnesses/c003.yaml",
        "--inventory",
        "testdata/witnesses/inventory/slices.yaml",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["rule"], "DRA-C003", "{v}");
    assert_eq!(
        d["notes"][0],
        "the request's selector #0: device.attributes[\"gpu.example.com\"].model == \"h100\" is false on the one device of its class in the inventory; device.attributes[\"gpu.example.com\"].model is \"a100\" on 1 device",
        "{v}"
    );
}
