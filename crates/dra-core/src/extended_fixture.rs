//! The fleet moving from a device plugin to DRA
//! (`testdata/fixtures/explain-extended-mixed.yaml`) that the tests of
//! `extended` and `node_fit` read.

use crate::gates::{FeatureGates, Version};
use crate::model::{Object, ObjectKind};

pub(crate) const FLEET: &str =
    include_str!("../../../testdata/fixtures/explain-extended-mixed.yaml");

pub(crate) fn load() -> Vec<Object> {
    crate::model::parse_file(0, FLEET, crate::yaml::Limits::default()).objects
}

pub(crate) fn gates(v: Version) -> FeatureGates {
    let mut g = FeatureGates::defaults(v);
    g.set("DRAExtendedResource", true).unwrap();
    g
}

pub(crate) fn find<'a>(objects: &'a [Object], kind: ObjectKind, name: &str) -> &'a Object {
    objects
        .iter()
        .find(|o| o.kind == kind && o.name() == Some(name))
        .unwrap()
}
