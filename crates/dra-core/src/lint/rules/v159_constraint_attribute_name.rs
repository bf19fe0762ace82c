//! DRA-V159: constraint attribute not a fully qualified name.
use super::prelude::*;
use super::v155_too_many_constraints::constraints;

declare_rule! {
    id: "DRA-V159", name: "constraint-attribute-not-qualified", severity: Error, origin: Apiserver,
    summary: "matchAttribute or distinctAttribute is not a fully qualified name (domain/name)",
    docs: "Constraints compare attributes across drivers, so the attribute must carry its domain: `gpu.example.com/numaNode`, not `numaNode`.",
    example: "constraints:\n- matchAttribute: numaNode\n",
    check: Check::Object(CLAIMS, check),
}

/// `validateDeviceConstraint` validates matchAttribute when it is set, else
/// distinctAttribute, never both (C34-C37); `validateFullyQualifiedName` of
/// the release words the errors.
fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let v = cx.gates.version;
    for (c, path) in constraints(v, obj) {
        let Some((k, n)) = ["matchAttribute", "distinctAttribute"]
            .into_iter()
            .find_map(|k| get(c, k).map(|n| (k, n)))
        else {
            continue;
        };
        let Some(name) = n.as_str() else { continue };
        let p = format!("{path}.{k}");
        for (ty, msg) in crate::format::fully_qualified_name_errors(v, name) {
            out.report(obj, ty, p.clone(), n.span, format!("{name:?}: {msg}"));
        }
    }
}
