//! The core/v1 kinds lint reads beside the DRA objects: a Namespace (its
//! labels grant admin access) and a ServiceAccount (the subject of a
//! driver's RBAC), decoded as strictly as the DRA kinds. The same on
//! kubernetes/api release-1.34 and master (`core/v1/types.go`).

use super::Ty::*;
use super::{f, Field, OBJECT_META, STRINGS};

const NAMESPACE_SPEC: &[Field] = &[f("finalizers", STRINGS)];

pub(crate) static NAMESPACE: [Field; 5] = [
    f("apiVersion", Str),
    f("kind", Str),
    f("metadata", Obj(OBJECT_META)),
    f("spec", Obj(NAMESPACE_SPEC)),
    // Reset on create; its conditions are not modelled.
    f("status", Any),
];

const OBJECT_REFERENCE: &[Field] = &[
    f("kind", Str),
    f("namespace", Str),
    f("name", Str),
    f("uid", Str),
    f("apiVersion", Str),
    f("resourceVersion", Str),
    f("fieldPath", Str),
];

const LOCAL_OBJECT_REFERENCE: &[Field] = &[f("name", Str)];

pub(crate) static SERVICE_ACCOUNT: [Field; 6] = [
    f("apiVersion", Str),
    f("kind", Str),
    f("metadata", Obj(OBJECT_META)),
    f("secrets", List(&Obj(OBJECT_REFERENCE))),
    f("imagePullSecrets", List(&Obj(LOCAL_OBJECT_REFERENCE))),
    f("automountServiceAccountToken", Bool),
];
