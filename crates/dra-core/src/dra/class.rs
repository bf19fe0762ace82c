//! DeviceClasses: the selectors every request for the class adds, the
//! configuration handed to the driver, and the extended resource it backs.

use super::claim::{expressions, Selector};
use super::{list, opt_text, strings};
use crate::model::Object;
use crate::tree::Node;

#[derive(Clone, Debug)]
pub struct DeviceClass<'t> {
    pub object: &'t Object,
    pub name: &'t str,
    pub selectors: Vec<Selector<'t>>,
    pub config: Vec<DeviceConfig<'t>>,
    /// `spec.extendedResourceName`.
    pub extended_resource_name: Option<&'t str>,
}

impl<'t> DeviceClass<'t> {
    pub fn decode(object: &'t Object) -> Self {
        let spec = object.spec();
        DeviceClass {
            object,
            name: object.name().unwrap_or_default(),
            selectors: spec
                .map(|s| list(s, "selectors").iter().map(Selector::decode).collect())
                .unwrap_or_default(),
            config: spec
                .map(|s| list(s, "config").iter().map(DeviceConfig::decode).collect())
                .unwrap_or_default(),
            extended_resource_name: spec.and_then(|s| opt_text(s, "extendedResourceName")),
        }
    }

    /// The expressions of the selectors that have one, in order.
    pub fn expressions(&self) -> Vec<String> {
        expressions(&self.selectors)
    }
}

/// One entry of a class's or a claim's `config`.
#[derive(Clone, Debug)]
pub struct DeviceConfig<'t> {
    pub node: &'t Node,
    /// The requests it applies to (a claim's; all when empty).
    pub requests: Vec<&'t str>,
    /// `opaque`: the driver's parameters.
    pub opaque: Option<&'t Node>,
}

impl<'t> DeviceConfig<'t> {
    pub(super) fn decode(node: &'t Node) -> Self {
        DeviceConfig {
            node,
            requests: strings(node, "requests"),
            opaque: node.get("opaque"),
        }
    }
}
