use super::*;
use crate::gates::{FeatureGates, Version};
use crate::inventory::devices;
use crate::sources::{load_objects, SourceFile};
use crate::yaml::Limits;

const SLICE: &str = r#"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: p, resourceSliceCount: 1}
  devices:
  - {name: g0, attributes: {model: {string: h100}}, capacity: {memory: {value: 80Gi}}}
  - {name: g1, attributes: {model: {string: h100}}, capacity: {memory: {value: 80Gi}}}
  - {name: g2, attributes: {model: {string: a100}}, capacity: {memory: {value: 40Gi}}}
  - {name: g3}
"#;

fn run(class: &[&str], request: &[&str]) -> Option<SelectorMiss> {
    let files = [SourceFile {
        name: "t.yaml".into(),
        text: SLICE.into(),
    }];
    let (objects, _) = load_objects(&files, Limits::default());
    let inv = devices(&objects, true);
    let env = Env::new(&FeatureGates::defaults(Version::LATEST));
    let class: Vec<String> = class.iter().map(|s| s.to_string()).collect();
    let request: Vec<String> = request.iter().map(|s| s.to_string()).collect();
    let stream = |f: &mut dyn FnMut(&InventoryDevice, bool)| inv.iter().for_each(|d| f(d, true));
    diagnose(Some(("gpu", &class)), &request, &stream, &env)
}

#[test]
fn a_value_in_the_wrong_case_is_named_with_what_the_devices_hold() {
    let m = run(
        &[r#"device.driver == "gpu.example.com""#],
        &[r#"has(device.attributes["gpu.example.com"].model) && device.attributes["gpu.example.com"].model == "H100""#],
    )
    .unwrap();
    assert_eq!(m.class, None);
    assert_eq!(m.index, 0);
    assert_eq!(
        m.term,
        r#"device.attributes["gpu.example.com"].model == "H100""#
    );
    assert_eq!(m.devices, 4);
    let c = m.comparison.unwrap();
    assert_eq!(c.read, r#"device.attributes["gpu.example.com"].model"#);
    assert_eq!(c.constant, r#""H100""#);
    assert_eq!(
        c.held,
        [
            Held {
                value: r#""h100""#.into(),
                devices: 2
            },
            Held {
                value: r#""a100""#.into(),
                devices: 1
            }
        ]
    );
    assert_eq!(c.without, 1);
    assert_eq!(c.likely.as_deref(), Some(r#""h100""#));
}

#[test]
fn a_class_selector_for_a_misspelt_driver_is_the_miss() {
    let m = run(&[r#"device.driver == "gpu.exmaple.com""#], &[]).unwrap();
    assert_eq!(m.class.as_deref(), Some("gpu"));
    let c = m.comparison.unwrap();
    assert_eq!(
        c.held,
        [Held {
            value: r#""gpu.example.com""#.into(),
            devices: 4
        }]
    );
    assert_eq!(c.likely.as_deref(), Some(r#""gpu.example.com""#));
}

#[test]
fn terms_that_fail_only_together_leave_the_whole_selector() {
    // Each term holds on some device; together on none.
    let m = run(
        &[],
        &[r#"device.attributes["gpu.example.com"].?model.orValue("") == "a100" && device.attributes["gpu.example.com"].?model.orValue("") == "h100""#],
    )
    .unwrap();
    assert!(m.term.contains("&&"), "{}", m.term);
    assert_eq!(m.comparison, None);
}

#[test]
fn no_miss_when_a_device_passes_or_a_selector_raises() {
    assert_eq!(run(&[r#"device.driver == "gpu.example.com""#], &[]), None);
    // g3 has no model: the unguarded read raises, which explain tells as the error.
    assert_eq!(
        run(
            &[],
            &[r#"device.attributes["gpu.example.com"].model == "v100""#]
        ),
        None
    );
}

#[test]
fn a_likely_fix_is_one_typo_away_never_another_model() {
    let held = |v: &[&str]| -> Vec<Held> {
        v.iter()
            .map(|v| Held {
                value: format!("{v:?}"),
                devices: 1,
            })
            .collect()
    };
    let l = |c: &str, v: &[&str]| likely(&format!("{c:?}"), &held(v));
    assert_eq!(l("H100", &["h100"]).as_deref(), Some("\"h100\""));
    assert_eq!(
        l("gpu.exmaple.com", &["gpu.example.com"]).as_deref(),
        Some("\"gpu.example.com\"")
    );
    assert_eq!(
        l("gpu.example.co", &["gpu.example.com"]).as_deref(),
        Some("\"gpu.example.com\"")
    );
    assert_eq!(
        l("gpu.examplle.com", &["gpu.example.com"]).as_deref(),
        Some("\"gpu.example.com\"")
    );
    // A single-quoted CEL string reads as the same string.
    assert_eq!(
        likely("'H100'", &held(&["h100"])).as_deref(),
        Some("\"h100\"")
    );
    // Another model, not a typo.
    assert_eq!(l("h100", &["a100"]), None);
    assert_eq!(l("nvidia-h100", &["nvidia-a100"]), None);
    assert_eq!(l("v5e", &["v5p"]), None);
}

#[test]
fn a_comparison_through_a_method_shows_what_its_receiver_holds() {
    let mem = r#"device.capacity["gpu.example.com"].memory"#;
    for (term, op) in [
        (format!(r#"{mem}.compareTo(quantity("100Gi")) >= 0"#), ">="),
        (format!(r#"{mem}.isGreaterThan(quantity("100Gi"))"#), ">"),
    ] {
        // g3 has no memory: without the guard the selector raises there.
        let selector = format!("has({mem}) && {term}");
        let m = run(&[r#"device.driver == "gpu.example.com""#], &[&selector]).unwrap();
        let c = m.comparison.clone().unwrap();
        assert_eq!((c.read.as_str(), c.op.as_str()), (mem, op));
        assert_eq!(
            c.held,
            [
                Held {
                    value: r#"quantity("80Gi")"#.into(),
                    devices: 2
                },
                Held {
                    value: r#"quantity("40Gi")"#.into(),
                    devices: 1
                }
            ]
        );
        assert_eq!(c.without, 1);
        assert_eq!(
            m.text(Scope::Nodes),
            format!("the request's selector #0: {term} is false on all 4 devices of its class on these nodes; {mem} is quantity(\"80Gi\") on 2 devices, quantity(\"40Gi\") on 1 device, missing on 1")
        );
    }
}

#[test]
fn a_bound_one_digit_from_a_held_value_is_no_typo() {
    let run_one = |request: &str| {
        run(&[r#"device.driver == "gpu.example.com""#], &[request])
            .unwrap()
            .comparison
            .unwrap()
    };
    let mem = r#"has(device.capacity["gpu.example.com"].memory) && device.capacity["gpu.example.com"].memory"#;
    // 8Gi held: quantity("80Gi") and quantity("8Gi") are one character apart.
    let c = run_one(&format!(r#"{mem}.isGreaterThan(quantity("800Gi"))"#));
    assert_eq!(c.likely, None);
    let model = r#"has(device.attributes["gpu.example.com"].model) && device.attributes["gpu.example.com"].model"#;
    let c = run_one(&format!(r#"{model} > "h1000""#));
    assert_eq!(c.likely, None);
    // The same typo asked to be equal is named.
    let c = run_one(&format!(r#"{model} == "h1000""#));
    assert_eq!(c.likely.as_deref(), Some(r#""h100""#));
}
