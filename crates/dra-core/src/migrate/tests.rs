//! Conversions of each shape and style, byte for byte.

use super::convert;
use crate::gates::{FeatureGates, Version};

fn to_v1(text: &str) -> super::Conversion {
    convert(text, "v1", &FeatureGates::defaults(Version::LATEST))
}

fn converts(text: &str, expected: &str) {
    let c = to_v1(text);
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(c.text, expected, "\n--- got:\n{}", c.text);
}

#[test]
fn request_fields_move_into_exactly_with_their_comments() {
    converts(
        "# a claim\napiVersion: resource.k8s.io/v1beta1 # old\nkind: ResourceClaimTemplate\nmetadata:\n  name: t\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu # the GPU\n        # which class\n        deviceClassName: acme-gpu\n        selectors:\n        - cel:\n            expression: device.driver == \"a\" # always\n        count: 2\n      - name: nic\n        deviceClassName: nic\n",
        "# a claim\napiVersion: resource.k8s.io/v1 # old\nkind: ResourceClaimTemplate\nmetadata:\n  name: t\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu # the GPU\n        exactly:\n          # which class\n          deviceClassName: acme-gpu\n          selectors:\n          - cel:\n              expression: device.driver == \"a\" # always\n          count: 2\n      - name: nic\n        exactly:\n          deviceClassName: nic\n",
    );
}

#[test]
fn a_field_on_the_dash_line_and_fields_around_name() {
    converts(
        "apiVersion: \"resource.k8s.io/v1beta1\"\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - deviceClassName: gpu\n      name: r\n      allocationMode: All\n",
        "apiVersion: \"resource.k8s.io/v1\"\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - exactly:\n        deviceClassName: gpu\n        allocationMode: All\n      name: r\n",
    );
}

#[test]
fn flow_requests_and_zero_values() {
    converts(
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - {name: r, deviceClassName: gpu, count: 2}\n    - name: alt\n      count: 0\n      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - {name: r, exactly: {deviceClassName: gpu, count: 2}}\n    - name: alt\n      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n",
    );
}

#[test]
fn slices_lose_basic_and_unset_fields() {
    converts(
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  driver: gpu.example.com\n  nodeName: node-1\n  allNodes: false\n  pool:\n    name: p\n    resourceSliceCount: 1\n  devices:\n  - name: gpu-0\n    basic: # the device\n      attributes:\n        model: {string: a100}\n      capacity:\n        memory:\n          value: 80Gi\n  - basic:\n      attributes: {}\n    name: gpu-1\n  - {name: gpu-2, basic: {attributes: {x: {int: 1}}}}\n  - name: gpu-3\n    basic: {capacity: {m: {value: 1}}, attributes: {}}\n",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool:\n    name: p\n    resourceSliceCount: 1\n  devices:\n  - name: gpu-0\n    # the device\n    attributes:\n      model: {string: a100}\n    capacity:\n      memory:\n        value: 80Gi\n  - attributes: {}\n    name: gpu-1\n  - {name: gpu-2, attributes: {x: {int: 1}}}\n  - name: gpu-3\n    capacity: {m: {value: 1}}\n    attributes: {}\n",
    );
}

#[test]
fn beta2_changes_only_the_version_and_v1_is_untouched() {
    let text = "apiVersion: 'resource.k8s.io/v1beta2'\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n";
    converts(text, &text.replace("v1beta2", "v1"));
    let v1 = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c} # x\n";
    let c = to_v1(v1);
    assert_eq!(c.text, v1);
    assert!(c.converted.is_empty() && c.problems.is_empty());
}

#[test]
fn what_cannot_be_converted_is_reported_and_left() {
    let rule = "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata: {name: r}\nspec:\n  deviceSelector: {driver: d.example.com}\n  taint: {key: k, effect: NoSchedule}\n";
    // 1.35 serves DeviceTaintRule in v1alpha3 only.
    let c = convert(rule, "v1", &FeatureGates::defaults("1.35".parse().unwrap()));
    assert_eq!(c.text, rule);
    assert!(
        c.problems[0]
            .message
            .contains("does not serve DeviceTaintRule"),
        "{:?}",
        c.problems
    );
    // 1.37 serves it in v1.
    converts(rule, &rule.replace("v1alpha3", "v1"));
    let by_class = rule.replace("{driver: d.example.com}", "{deviceClassName: gpu}");
    let c = to_v1(&by_class);
    assert_eq!(c.text, by_class);
    assert!(c.problems[0]
        .message
        .contains("deviceClassName has no equivalent"));
    let classic = "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\nmetadata: {name: c}\ndriverName: x\n";
    let c = to_v1(classic);
    assert_eq!(c.text, classic);
    assert!(
        c.problems[0].message.contains("classic DRA"),
        "{:?}",
        c.problems
    );
}

/// The check that keeps only faithful rewrites: an edit that changes the
/// object (here, the class) is caught, and a clean one passes.
#[test]
fn edits_that_change_the_object_are_refused() {
    use super::{check, edit::Edit, Converted};
    use crate::model::parse_file;
    let text =
        "apiVersion: resource.k8s.io/v1beta2\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n";
    let objects = parse_file(0, text, Default::default()).objects;
    let at = text.find("v1beta2").unwrap();
    let version = Edit {
        start: at,
        end: at + 7,
        text: "v1".into(),
    };
    let c = Converted {
        object: "DeviceClass c".into(),
        from: String::new(),
        to: String::new(),
        line: 1,
    };
    let (_, failed) = check(
        text,
        &objects,
        &[(0, vec![version.clone()], c.clone())],
        "v1",
    );
    assert!(failed.is_empty());
    let name = text.find("{name: c}").unwrap() + 7;
    let rename = Edit {
        start: name,
        end: name + 1,
        text: "d".into(),
    };
    let (_, failed) = check(text, &objects, &[(0, vec![version, rename], c)], "v1");
    assert_eq!(failed, vec![0]);
}

#[test]
fn comments_inside_flow_mappings_are_not_lost() {
    let text = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - {name: r, # the class\n       deviceClassName: gpu}\n";
    let c = to_v1(text);
    assert_eq!(c.text, text);
    assert!(
        c.problems[0].message.contains("comment"),
        "{:?}",
        c.problems
    );
}

/// `- basic:` with nothing in it (a KEP's example): the next key moves up.
#[test]
fn an_empty_basic_on_the_item_line() {
    converts(
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  devices:\n  - basic:\n    name: gpu-0\n  - basic: {}\n    name: gpu-1\n  driver: gpu.example.com\n  nodeName: n\n",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  devices:\n  - name: gpu-0\n  - name: gpu-1\n  driver: gpu.example.com\n  nodeName: n\n",
    );
    let classic = "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\nmetadata: {name: c, namespace: d}\nspec: {resourceClassName: gpu}\n";
    assert!(to_v1(classic).problems[0].message.contains("classic DRA"));
}

/// CRLF files stay CRLF, inserted lines included.
#[test]
fn crlf_files_keep_their_line_endings() {
    let text = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c\n  namespace: d\nspec:\n  devices:\n    requests:\n    - name: r\n      deviceClassName: gpu\n      count: 2\n"
        .replace('\n', "\r\n");
    let c = to_v1(&text);
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert!(!c.text.replace("\r\n", "").contains('\n'), "{:?}", c.text);
    assert!(
        c.text
            .contains("exactly:\r\n        deviceClassName: gpu\r\n"),
        "{:?}",
        c.text
    );
}

/// v1alpha3 (1.31) capacities were bare quantities: reported, not guessed.
#[test]
fn alpha3_bare_capacities_are_reported() {
    let text = "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  nodeName: n1\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n  - name: gpu-0\n    basic:\n      capacity:\n        memory: 80Gi\n";
    let c = to_v1(text);
    assert_eq!(c.text, text);
    assert!(
        c.problems[0].message.contains("bare quantity"),
        "{:?}",
        c.problems
    );
}
/// Down to the v1beta1 shape (served by 1.34 to 1.37): `exactly`
/// unwrapped, device fields into `basic`; checked by converting back.
#[test]
fn down_to_v1beta1_and_back() {
    let gates = FeatureGates::defaults(Version::LATEST);
    let beta = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/fixtures/convert/beta.yaml"
    ))
    .unwrap();
    let up = convert(&beta, "v1", &gates);
    let down = convert(&up.text, "v1beta1", &gates);
    assert!(down.problems.is_empty(), "{:?}", down.problems);
    assert_eq!(down.converted.len(), 2);
    assert_eq!(down.text, beta);
    let flow = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: d}\nspec:\n  devices:\n    requests:\n    - {name: r, exactly: {deviceClassName: gpu, count: 2}}\n    - name: s\n      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  nodeName: n1\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n  - {name: a, attributes: {x: {int: 1}}}\n  - capacity: {m: {value: 1}}\n    name: b\n";
    let down = convert(flow, "v1beta1", &gates);
    assert!(down.problems.is_empty(), "{:?}", down.problems);
    assert_eq!(
        down.text,
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c, namespace: d}\nspec:\n  devices:\n    requests:\n    - {name: r, deviceClassName: gpu, count: 2}\n    - name: s\n      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  nodeName: n1\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n  - {name: a, basic: {attributes: {x: {int: 1}}}}\n  - basic:\n      capacity: {m: {value: 1}}\n    name: b\n"
    );
}
