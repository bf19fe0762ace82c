//! The two CEL environments against the rules of upstream's compile.go and
//! cel-go's planner, over generated selectors, for every release and
//! DRAListTypeAttributes setting:
//! - a selector that ranges over or `%s`-formats an attribute compiles as a
//!   new expression only where attributes are `dyn` (1.36+ with the gate),
//!   as a stored one from 1.37 always, in 1.36 with the gate;
//! - a constant conversion that fails refuses the program in both;
//! - where both environments compile a selector, they evaluate it alike.

use std::sync::Arc;

use dra_core::cel::{list_values_converted, CompileErrorKind, Device, Env, Program};
use dra_core::gates::{FeatureGates, Version};
use proptest::prelude::*;

fn device(converted: bool) -> Arc<Device> {
    let text = "name: gpu-0\nattributes:\n  model: {string: a100}\n  cores: {int: 16}\n  tags: {strings: [ecc, fast]}\n";
    let loaded = dra_core::yaml::load(text, dra_core::yaml::Limits::default());
    Arc::new(Device::from_node(
        "gpu.example.com",
        &loaded.documents[0].root,
        converted,
    ))
}

/// A clause and whether it needs attributes typed `dyn` to compile, and
/// whether it holds a failing constant conversion.
#[derive(Clone, Debug)]
struct Clause {
    text: &'static str,
    needs_dyn: bool,
    folds_to_error: bool,
}

fn clause() -> impl Strategy<Value = Clause> {
    let c = |text, needs_dyn, folds_to_error| Clause {
        text,
        needs_dyn,
        folds_to_error,
    };
    prop_oneof![
        Just(c(
            r#"device.attributes["gpu.example.com"].model == "a100""#,
            false,
            false
        )),
        Just(c(
            r#"device.attributes["gpu.example.com"].cores > 8"#,
            false,
            false
        )),
        Just(c(r#"device.driver.startsWith("gpu")"#, false, false)),
        Just(c(r#"int("12") == 12"#, false, false)),
        Just(c(r#"int("x") > 0"#, false, true)),
        Just(c(r#"uint("-3") == 1u"#, false, true)),
        Just(c(
            r#"device.attributes["gpu.example.com"].tags.exists(t, t == "ecc")"#,
            true,
            false
        )),
        Just(c(
            r#"device.attributes["gpu.example.com"].?tags.orValue([]).all(t, t != "")"#,
            true,
            false
        )),
        Just(c(
            r#""%s".format([device.attributes["gpu.example.com"].model]) == "a100""#,
            true,
            false
        )),
    ]
}

fn releases() -> impl Strategy<Value = (Version, bool)> {
    (
        prop_oneof![
            Just(Version::V1_34),
            Just(Version::V1_35),
            Just(Version::V1_36),
            Just(Version::V1_37)
        ],
        any::<bool>(),
    )
}

fn gates(v: Version, on: bool) -> FeatureGates {
    let mut g = FeatureGates::defaults(v);
    if v >= Version::V1_36 {
        g.set("DRAListTypeAttributes", on).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn environments_follow_upstream(
        clauses in proptest::collection::vec(clause(), 1..4),
        joins in proptest::collection::vec(prop_oneof![Just("&&"), Just("||")], 3),
        (v, on) in releases(),
    ) {
        let expr = clauses
            .iter()
            .enumerate()
            .map(|(i, c)| if i == 0 { c.text.to_owned() } else { format!("{} {}", joins[i - 1], c.text) })
            .collect::<Vec<_>>()
            .join(" ");
        let g = gates(v, on);
        let gate = on && v >= Version::V1_36;
        let dyn_new = gate;
        let dyn_stored = v >= Version::V1_37 || gate;
        let needs_dyn = clauses.iter().any(|c| c.needs_dyn);
        let folds = clauses.iter().any(|c| c.folds_to_error);
        let outcomes = [(Env::new(&g), dyn_new), (Env::stored(&g), dyn_stored)].map(|(env, dyn_attrs)| {
            let r = Program::compile(&expr, &env);
            match &r {
                // A type error (any where dyn is needed) is found before
                // the program is built.
                Err(e) if needs_dyn && !dyn_attrs => prop_assert_eq!(e.kind, CompileErrorKind::Type, "{}: {}", expr, e.message),
                Err(e) if folds => {
                    prop_assert_eq!(e.kind, CompileErrorKind::Instantiation, "{}", expr);
                    prop_assert!(e.message.starts_with("program instantiation failed: type conversion error"), "{}", e.message);
                }
                Err(e) => prop_assert!(false, "{v} gate {on}: {expr}: {}", e.message),
                Ok(_) => prop_assert!(!folds && (!needs_dyn || dyn_attrs), "{v} gate {on}: {expr} compiled"),
            }
            Ok(r.ok())
        });
        let [new, stored] = outcomes;
        let (new, stored) = (new?, stored?);
        if let (Some(a), Some(b)) = (new, stored) {
            let d = device(list_values_converted(&g));
            let (ra, rb) = (a.matches(&d), b.matches(&d));
            prop_assert_eq!(ra.is_ok(), rb.is_ok(), "{}", expr);
            if let (Ok(x), Ok(y)) = (ra, rb) {
                prop_assert_eq!(x, y, "{}", expr);
            }
        }
    }
}
