//! DeviceTaintRules: a taint and the devices it is put on.

use super::{list, opt_text, text, Selector};
use crate::model::Object;
use crate::tree::Node;

#[derive(Debug)]
pub struct DeviceTaintRule<'t> {
    pub object: &'t Object,
    pub name: &'t str,
    /// `spec.deviceSelector`; `None` when unset. The API documentation says
    /// an unset selector matches no device, but the scheduler's tracker
    /// (`resourceslice/tracker` applyPatches) applies such a rule to every
    /// device, as an empty one.
    pub selector: Option<TaintSelector<'t>>,
    pub taint: Option<Taint<'t>>,
}

impl<'t> DeviceTaintRule<'t> {
    /// Whether the rule's driver, pool and device select the device: a rule
    /// without a selector, or with an empty one, taints every device (the
    /// tracker's applyPatches reads a nil selector as no restriction). In
    /// 1.34 a class or CEL selector must also select it ([`super::TaintCel`]).
    pub fn applies_to(&self, driver: &str, pool: &str, device: &str) -> bool {
        match &self.selector {
            None => true,
            Some(sel) => sel.names(driver, pool, device),
        }
    }

    pub fn decode(object: &'t Object) -> Self {
        let spec = object.spec();
        DeviceTaintRule {
            object,
            name: object.name().unwrap_or_default(),
            selector: spec
                .and_then(|s| s.get("deviceSelector"))
                .map(TaintSelector::decode),
            taint: spec.and_then(|s| s.get("taint")).map(Taint::decode),
        }
    }
}

/// `deviceSelector`: each field that is set narrows the devices.
#[derive(Debug)]
pub struct TaintSelector<'t> {
    pub node: &'t Node,
    pub driver: Option<&'t str>,
    pub pool: Option<&'t str>,
    pub device: Option<&'t str>,
    /// `deviceClassName` (v1alpha3 only).
    pub device_class_name: Option<&'t str>,
    /// `selectors` (v1alpha3 only).
    pub selectors: Option<Vec<Selector<'t>>>,
}

impl<'t> TaintSelector<'t> {
    fn decode(node: &'t Node) -> Self {
        TaintSelector {
            node,
            driver: opt_text(node, "driver"),
            pool: opt_text(node, "pool"),
            device: opt_text(node, "device"),
            device_class_name: opt_text(node, "deviceClassName"),
            selectors: node.get("selectors").map(|_| {
                list(node, "selectors")
                    .iter()
                    .map(Selector::decode)
                    .collect()
            }),
        }
    }

    /// Whether the selector's driver, pool and device name this device (a
    /// class or CEL selector is [`super::TaintCel`]'s to decide).
    pub fn names(&self, driver: &str, pool: &str, device: &str) -> bool {
        self.driver.is_none_or(|x| x == driver)
            && self.pool.is_none_or(|x| x == pool)
            && self.device.is_none_or(|x| x == device)
    }
}

/// A device taint (in a slice's device or a DeviceTaintRule).
#[derive(Debug)]
pub struct Taint<'t> {
    pub node: &'t Node,
    pub key: &'t str,
    pub value: &'t str,
    pub effect: &'t str,
}

impl<'t> Taint<'t> {
    pub(super) fn decode(node: &'t Node) -> Self {
        Taint {
            node,
            key: text(node, "key"),
            value: text(node, "value"),
            effect: text(node, "effect"),
        }
    }

    /// `key=value:Effect` (`key:Effect` without a value), as kubectl shows taints.
    pub fn display(&self) -> String {
        if self.value.is_empty() {
            format!("{}:{}", self.key, self.effect)
        } else {
            format!("{}={}:{}", self.key, self.value, self.effect)
        }
    }
}
