//! Expression text through the DRA CEL parser, type checker, cost estimate
//! and evaluator, on devices with and without the attributes it reads.
#![no_main]

use std::sync::{Arc, OnceLock};

use dra_core::cel::{value::Device, Env, Program};
use dra_core::gates::{FeatureGates, Version};

fn devices() -> &'static [Arc<Device>] {
    static D: OnceLock<Vec<Arc<Device>>> = OnceLock::new();
    D.get_or_init(|| {
        let text = r#"
devices:
- name: a
  attributes: {model: {string: h100}, numa: {int: 1}, driverVersion: {version: 1.2.3}, fast: {bool: true},
               "other.example.com/x": {string: y}}
  capacity: {memory: {value: 80Gi}}
- name: b
"#;
        let root = dra_core::yaml::load(text, dra_core::yaml::Limits::default()).documents.remove(0).root;
        root.get("devices")
            .and_then(|d| d.as_seq())
            .unwrap_or_default()
            .iter()
            .map(|d| Arc::new(Device::from_node("gpu.example.com", d, true)))
            .collect()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(expr) = std::str::from_utf8(data) else {
        return;
    };
    let env = Env::new(&FeatureGates::defaults(Version::V1_37));
    if let Ok(p) = Program::compile(expr, &env) {
        for d in devices() {
            let _ = p.matches(d);
        }
    }
});
