//! The CEL half of a 1.34 DeviceTaintRule selector: `deviceClassName` (the
//! class's CEL selectors) and `selectors`, which v1alpha3 had and later
//! releases removed. The scheduler's tracker (dynamic-resource-allocation
//! release-1.34 `resourceslice/tracker` applyPatches) taints a device only
//! when the named class exists and every class selector and every rule
//! selector evaluates to true; an evaluation error, like `false`, leaves the
//! device untainted (the rule gets a CELRuntimeError event). From 1.35 the
//! two fields do not exist: the apiserver drops them, so they select nothing
//! and the rule is decided by driver, pool and device alone.

use std::sync::{Arc, OnceLock};

use crate::cel::{Device, Env, Program};
use crate::gates::{FeatureGates, Version};
use crate::model::{Object, ObjectKind};

use super::{DeviceClass, DeviceTaintRule};

/// A rule's class and CEL selectors, compiled on first use.
#[derive(Debug, Default)]
pub struct TaintCel<'t> {
    /// `deviceClassName`: `Some(None)` when no such class exists (the rule
    /// then taints nothing), else the class's expressions.
    class: Option<Option<Vec<&'t str>>>,
    selectors: Vec<&'t str>,
    /// `None` when an expression does not compile (the tracker fails the
    /// slice's patching; no stored rule gets there, the apiserver compiles
    /// them on create).
    compiled: OnceLock<Option<Vec<Program>>>,
}

impl<'t> TaintCel<'t> {
    /// The CEL half of `rule`, its class looked up among `objects`.
    pub fn new(rule: &DeviceTaintRule<'t>, objects: &'t [Object]) -> Self {
        let Some(sel) = &rule.selector else {
            return TaintCel::default();
        };
        let class = sel.device_class_name.map(|name| {
            objects
                .iter()
                .filter(|o| o.kind == ObjectKind::DeviceClass && o.name() == Some(name))
                .map(DeviceClass::decode)
                .next()
                .map(|c| c.selectors.iter().filter_map(|s| s.expression).collect())
        });
        TaintCel {
            class,
            selectors: sel
                .selectors
                .iter()
                .flatten()
                .filter_map(|s| s.expression)
                .collect(),
            compiled: OnceLock::new(),
        }
    }

    /// Whether the rule selects by class or CEL in this release.
    pub fn applies_in(&self, gates: &FeatureGates) -> bool {
        gates.version == Version::V1_34 && (self.class.is_some() || !self.selectors.is_empty())
    }

    /// Whether the class and CEL selectors select the device (`device`
    /// builds its CEL view, only when an expression needs it).
    pub fn selects(&self, gates: &FeatureGates, device: impl FnOnce() -> Arc<Device>) -> bool {
        if !self.applies_in(gates) {
            return true;
        }
        if matches!(self.class, Some(None)) {
            return false;
        }
        let compiled = self.compiled.get_or_init(|| {
            let env = Env::new(gates);
            self.class
                .iter()
                .flatten()
                .flatten()
                .chain(&self.selectors)
                .map(|e| Program::compile(e, &env).ok())
                .collect()
        });
        let Some(programs) = compiled else {
            return false;
        };
        if programs.is_empty() {
            return true;
        }
        let device = device();
        programs.iter().all(|p| p.matches(&device) == Ok(true))
    }
}
