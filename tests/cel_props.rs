//! No expression text panics the CEL parser, checker or evaluator, and deep
//! or huge expressions are refused with a clear error.

use std::sync::Arc;

use dra_core::cel::{Device, Env, Program};
use proptest::prelude::*;

fn device() -> Arc<Device> {
    let text = "name: gpu-0\nattributes:\n  model: {string: a100}\n  cores: {int: 16}\n  mig: {bool: true}\n  driverVersion: {version: 1.2.3}\n  other.example.com/numa: {int: 1}\ncapacity:\n  memory: {value: 80Gi}\n";
    let loaded = dra_core::yaml::load(text, dra_core::yaml::Limits::default());
    Arc::new(Device::from_node(
        "gpu.example.com",
        &loaded.documents[0].root,
        true,
    ))
}

fn env() -> Env {
    Env {
        allow_multiple_allocations: true,
        list_type_attributes: true,
        ext_lists: true,
        attributes_dyn: true,
    }
}

fn run(expr: &str) {
    if let Ok(p) = Program::compile(expr, &env()) {
        let _ = p.matches(&device());
    }
}

/// Grammar-shaped fragments, so generated expressions reach the checker and evaluator.
fn fragment() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("device.driver".to_owned()),
        Just(r#"device.attributes["gpu.example.com"].model"#.to_owned()),
        Just(r#"device.attributes["gpu.example.com"].cores"#.to_owned()),
        Just(r#"device.attributes["nope"].x"#.to_owned()),
        Just(r#"device.capacity["gpu.example.com"].memory"#.to_owned()),
        Just(r#"quantity("1Gi")"#.to_owned()),
        Just(r#"semver("1.0.0")"#.to_owned()),
        Just("device.attributes".to_owned()),
        Just("[1, 2, 3]".to_owned()),
        Just(r#"{"a": 1}"#.to_owned()),
        Just(r#""str""#.to_owned()),
        Just("1".to_owned()),
        Just("2.5".to_owned()),
        Just("true".to_owned()),
        Just("null".to_owned()),
        Just("x".to_owned()),
    ];
    atoms.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![
                    Just("=="),
                    Just("<"),
                    Just("+"),
                    Just("&&"),
                    Just("||"),
                    Just("/"),
                    Just("%"),
                    Just("in")
                ],
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                inner.clone(),
                prop_oneof![
                    Just("size()"),
                    Just("compareTo(quantity(\"1\"))"),
                    Just("isGreaterThan(semver(\"0.1.0\"))"),
                    Just("upperAscii()"),
                    Just("all(x, x > 1)"),
                    Just("exists_one(d, d == \"a\")"),
                    Just("map(y, y)"),
                    Just("?model.orValue(1)"),
                    Just("startsWith(\"a\")"),
                    Just("matches(\"[a-\")"),
                    Just("sum()"),
                    Just("asInteger()")
                ]
            )
                .prop_map(|(a, m)| format!("{a}.{m}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("has({a}.x) ? {a} : {b}")),
            inner
                .clone()
                .prop_map(|a| format!("cel.bind(v, {a}, v == v)")),
            inner.prop_map(|a| format!("!{a}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,200}") {
        run(&s);
    }

    #[test]
    fn cel_shaped_text_never_panics(s in "[a-z.()\\[\\]{}\"'!?:,<>=&|+*/%0-9 -]{0,120}") {
        run(&s);
    }

    #[test]
    fn generated_expressions_never_panic(e in fragment()) {
        run(&e);
    }

    /// The netip and net/url parsers behind ip(), cidr() and url() index
    /// the text they read: address-shaped text (and any Unicode) neither
    /// panics nor is refused without a message.
    #[test]
    fn address_text_never_panics(s in "[0-9a-fA-F.:%/+@?#\\[\\]-]{0,48}|.{0,24}") {
        let quoted = serde_json::to_string(&s).expect("a string serializes");
        for f in ["ip", "cidr", "url"] {
            let expr = format!("{f}({quoted}) == {f}({quoted})");
            if let Ok(p) = Program::compile(&expr, &env()) {
                if let Err(e) = p.matches(&device()) {
                    prop_assert!(!e.0.is_empty());
                }
            }
        }
        run(&format!("ip.isCanonical({quoted}) || isIP({quoted}) || isCIDR({quoted}) || isURL({quoted})"));
    }
}

#[test]
fn deep_and_huge_expressions_are_refused_clearly() {
    let deep = format!("{}true{}", "(".repeat(5_000), ")".repeat(5_000));
    let e = Program::compile(&deep, &env()).unwrap_err();
    assert!(!e.message.is_empty());
    let huge = format!("device.driver == \"{}\"", "a".repeat(20_000));
    let e = Program::compile(&huge, &env()).unwrap_err();
    assert!(e.message.contains("longer than"), "{}", e.message);
    // 200 nested macros are within cel-go's limits (the listener counts
    // 201 levels, the visitor 200) and compile, on this test thread's small
    // stack too; 250 nest the calls' brackets past the listener's limit.
    let nested_all = |n: usize| format!("{}true{}", "[1].all(x, ".repeat(n), ")".repeat(n));
    let program = Program::compile(&nested_all(200), &env()).expect("200 nested all()");
    // Evaluated on this thread's small stack too (2 MiB: 150 levels
    // overflowed it before the evaluator grew its stack).
    let text = "devices:\n- name: a\n  attributes: {model: {string: h100}}\n";
    let root = dra_core::yaml::load(text, dra_core::yaml::Limits::default())
        .documents
        .remove(0)
        .root;
    let node = &root
        .get("devices")
        .and_then(|d| d.as_seq())
        .expect("devices")[0];
    let device = Arc::new(Device::from_node("gpu.example.com", node, true));
    assert!(matches!(program.matches(&device), Ok(true)));
    let e = Program::compile(&nested_all(250), &env()).unwrap_err();
    assert!(
        e.message
            .contains("expression recursion limit exceeded: 250"),
        "{}",
        e.message
    );
}
