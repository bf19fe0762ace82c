//! Consumable capacity's step rounding as kube-scheduler does it:
//! consumable_capacity.go roundUpRange (kubernetes/dynamic-resource-allocation
//! 3d03671) reads request, min and step with Quantity.Value(), in whole
//! units; with DRAFractionalCapacityRange on, a fractional range is read in
//! milli-units.

mod support;

fn consumed(gates: &[&str]) -> String {
    let mut args = vec![
        "explain",
        "claim",
        "default/c",
        "-f",
        "testdata/fixtures/explain-fractional-step.yaml",
        "--node",
        "worker-1",
        "-o",
        "json",
    ];
    args.extend_from_slice(gates);
    let o = support::run(&args);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let found = find(&v, "consumedCapacity").expect("a consumedCapacity");
    found["bandwidth"].as_str().expect("a quantity").to_owned()
}

fn find<'v>(v: &'v serde_json::Value, key: &str) -> Option<&'v serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => {
            m.get(key).or_else(|| m.values().find_map(|x| find(x, key)))
        }
        serde_json::Value::Array(a) => a.iter().find_map(|x| find(x, key)),
        _ => None,
    }
}

#[test]
fn a_fractional_step_is_rounded_in_whole_units_by_default() {
    assert_eq!(consumed(&[]), "1");
}

#[test]
fn a_fractional_step_is_rounded_in_milli_units_with_the_gate() {
    assert_eq!(
        consumed(&["--feature-gates", "DRAFractionalCapacityRange=true"]),
        "600m"
    );
}
