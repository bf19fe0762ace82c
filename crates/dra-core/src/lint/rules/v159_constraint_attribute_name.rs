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

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (c, path) in constraints(cx.gates.version, obj) {
        for k in ["matchAttribute", "distinctAttribute"] {
            let Some(n) = get(c, k) else { continue };
            let Some(name) = n.as_str() else { continue };
            let p = format!("{path}.{k}");
            if paths_1_34(cx) {
                for (ty, msg) in crate::format::qualified_name_problems_1_34(name) {
                    out.report(obj, ty, p.clone(), n.span, format!("{name:?}: {msg}"));
                }
            } else if let Some((ty, msg)) = qualified_name_problem(name) {
                out.report(obj, ty, p.clone(), n.span, format!("{name:?}: {msg}"));
            }
            if !name.contains('/') {
                out.report(obj, Invalid, p, n.span, format!("{name:?}: a fully qualified name must be a domain and a name separated by a slash"));
            }
        }
    }
}
