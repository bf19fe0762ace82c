//! The RBAC kinds lint reads (`rbac.authorization.k8s.io/v1` Role,
//! ClusterRole, RoleBinding, ClusterRoleBinding), decoded as strictly as the
//! DRA kinds: a driver's chart that writes `resource:` for `resources:`
//! grants nothing, and strict decoding refuses it. The same on kubernetes/api
//! release-1.34..1.36 and master (`rbac/v1/types.go`).

use super::Ty::*;
use super::{f, Field, OBJECT_META, STRINGS};

const POLICY_RULE: &[Field] = &[
    f("verbs", STRINGS),
    f("apiGroups", STRINGS),
    f("resources", STRINGS),
    f("resourceNames", STRINGS),
    f("nonResourceURLs", STRINGS),
];

const SELECTOR_REQUIREMENT: &[Field] = &[f("key", Str), f("operator", Str), f("values", STRINGS)];

/// `metav1.LabelSelector`.
const LABEL_SELECTOR: &[Field] = &[
    f("matchLabels", Map(&Str)),
    f("matchExpressions", List(&Obj(SELECTOR_REQUIREMENT))),
];

const AGGREGATION_RULE: &[Field] = &[f("clusterRoleSelectors", List(&Obj(LABEL_SELECTOR)))];

const SUBJECT: &[Field] = &[
    f("kind", Str),
    f("apiGroup", Str),
    f("name", Str),
    f("namespace", Str),
];

const ROLE_REF: &[Field] = &[f("apiGroup", Str), f("kind", Str), f("name", Str)];

pub(crate) static ROLE: [Field; 4] = [
    f("apiVersion", Str),
    f("kind", Str),
    f("metadata", Obj(OBJECT_META)),
    f("rules", List(&Obj(POLICY_RULE))),
];

pub(crate) static CLUSTER_ROLE: [Field; 5] = [
    f("apiVersion", Str),
    f("kind", Str),
    f("metadata", Obj(OBJECT_META)),
    f("rules", List(&Obj(POLICY_RULE))),
    f("aggregationRule", Obj(AGGREGATION_RULE)),
];

pub(crate) static BINDING: [Field; 5] = [
    f("apiVersion", Str),
    f("kind", Str),
    f("metadata", Obj(OBJECT_META)),
    f("subjects", List(&Obj(SUBJECT))),
    f("roleRef", Obj(ROLE_REF)),
];
