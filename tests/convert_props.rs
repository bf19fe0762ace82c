//! Property test of `convert`: generated v1beta1 claims and slices, in
//! block and flow style, with comments and fields in any order (a field on
//! the item's `- ` line included), all convert; `convert` itself compares
//! each result, parsed back, with the apiserver's conversion of the
//! original field by field (it refuses any that differs), so a conversion
//! without problems is a faithful one. Converting the result again changes
//! nothing; converting it down to v1beta1 and up again gives it back.

use dra_core::gates::{FeatureGates, Version};
use dra_core::migrate::convert;
use proptest::prelude::*;

/// One request field, as `key: value` in block style (possibly several
/// lines, relative to the field's column) and in flow style.
fn request_field() -> impl Strategy<Value = (String, String, String)> {
    prop_oneof![
        Just(("deviceClassName", "gpu.example.com", "gpu.example.com")),
        Just(("count", "2", "2")),
        Just(("allocationMode", "ExactCount", "ExactCount")),
        Just(("adminAccess", "true", "true")),
        Just((
            "selectors",
            "\n- cel:\n    expression: device.driver == \"gpu.example.com\"",
            "[{cel: {expression: 'device.driver == \"gpu.example.com\"'}}]"
        )),
        Just((
            "tolerations",
            "\n- key: example.com/maintenance\n  operator: Exists",
            "[{key: example.com/maintenance, operator: Exists}]"
        )),
    ]
    .prop_map(|(k, b, f)| (k.to_owned(), b.to_owned(), f.to_owned()))
}

fn request(i: usize) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(request_field(), 0..5),
        any::<bool>(),
        any::<bool>(),
        0usize..6,
    )
        .prop_map(move |(fields, flow, comments, name_at)| {
            let mut seen = std::collections::HashSet::new();
            let mut fields: Vec<_> = fields
                .into_iter()
                .filter(|f| seen.insert(f.0.clone()))
                .collect();
            let name = ("name".to_owned(), format!("r{i}"), format!("r{i}"));
            fields.insert(name_at.min(fields.len()), name);
            if flow {
                let parts: Vec<String> =
                    fields.iter().map(|(k, _, f)| format!("{k}: {f}")).collect();
                return format!("  - {{{}}}\n", parts.join(", "));
            }
            let mut out = String::new();
            for (n, (k, b, _)) in fields.iter().enumerate() {
                let col = "    ";
                if comments && n > 0 {
                    out.push_str(&format!("{col}# about {k}\n"));
                }
                let lead = if n == 0 { "  - " } else { col };
                let value = b.replace('\n', &format!("\n{col}"));
                let sep = if b.starts_with('\n') { ":" } else { ": " };
                out.push_str(&format!("{lead}{k}{sep}{value}\n"));
            }
            out
        })
}

fn claim() -> impl Strategy<Value = String> {
    proptest::collection::vec(0usize..1, 1..4).prop_flat_map(|n| {
        let reqs: Vec<_> = (0..n.len()).map(request).collect();
        reqs.prop_map(|rs| {
            format!(
                "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c\n  namespace: default\nspec:\n  devices:\n    requests:\n{}",
                rs.concat().lines().map(|l| format!("    {l}\n")).collect::<String>()
            )
        })
    })
}

fn device(i: usize) -> impl Strategy<Value = String> {
    (0usize..4, any::<bool>()).prop_map(move |(style, name_first)| {
        let basic = match style {
            0 => "basic:\n  attributes:\n    model: {string: h100}\n  capacity:\n    memory:\n      value: 80Gi\n".to_owned(),
            1 => "basic: {attributes: {model: {string: h100}}}\n".to_owned(),
            2 => "basic:\n".to_owned(),
            _ => "basic: # the device\n  attributes:\n    index: {int: 1}\n".to_owned(),
        };
        let name = format!("name: gpu-{i}\n");
        let body = if name_first { name + &basic } else { basic + &name };
        let mut out = String::new();
        for (n, line) in body.lines().enumerate() {
            out.push_str(if n == 0 { "- " } else { "  " });
            out.push_str(line);
            out.push('\n');
        }
        out
    })
}

fn slice() -> impl Strategy<Value = String> {
    (proptest::collection::vec(0usize..1, 1..4), any::<bool>()).prop_flat_map(|(n, empty_node)| {
        let devs: Vec<_> = (0..n.len()).map(device).collect();
        devs.prop_map(move |ds| {
            let node = if empty_node { "  allNodes: false\n  nodeName: node-1\n" } else { "  nodeName: node-1\n" };
            format!(
                "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  driver: gpu.example.com\n{node}  pool: {{name: p, resourceSliceCount: 1}}\n  devices:\n{}",
                ds.concat().lines().map(|l| format!("  {l}\n")).collect::<String>()
            )
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn beta_objects_convert_faithfully(text in prop_oneof![claim(), slice()]) {
        let gates = FeatureGates::defaults(Version::LATEST);
        let c = convert(&text, "v1", &gates);
        prop_assert!(c.problems.is_empty(), "{:?}\n{}", c.problems, text);
        prop_assert_eq!(c.converted.len(), 1, "{}", text);
        let again = convert(&c.text, "v1", &gates);
        prop_assert_eq!(&again.text, &c.text);
        prop_assert!(again.converted.is_empty() && again.problems.is_empty());
        // Down to v1beta1 and up again: the same v1 text.
        let down = convert(&c.text, "v1beta1", &gates);
        prop_assert!(down.problems.is_empty(), "{:?}\n{}", down.problems, c.text);
        let up = convert(&down.text, "v1", &gates);
        prop_assert!(up.problems.is_empty(), "{:?}\n{}", up.problems, down.text);
        prop_assert_eq!(&up.text, &c.text);
    }
}
