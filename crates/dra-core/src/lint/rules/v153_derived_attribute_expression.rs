//! DRA-V153: a derived attribute expression that does not compile as one.
use super::prelude::*;

declare_rule! {
    id: "DRA-V153", name: "invalid-derived-attribute-expression", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A derived attribute's expression is too long, does not compile, does not give a string, int, bool, version or list of them, or is too expensive",
    docs: "Derived attribute expressions run in the DRA device CEL environment, like selectors, but give the attribute's value instead of a bool: exactly a string, int, bool, semver or an attribute value (`any`, `dyn`), or, with DRAListTypeAttributes on, a list of those (the DRA compiler's validateOutputType; `[\"a\", \"b\"]` is refused while the gate is off). The apiserver applies the selector limits: 10,240 characters and the cost limit; a compile error reads as a selector's (DRA-V161).",
    example: "derivedAttributes:\n- {name: mem, expression: device.capacity[\"x.example.com\"].memory}   # a quantity\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (body, list) in derived_attributes(cx.gates.version, obj) {
        for (j, d) in list.iter().enumerate() {
            let Some(n) = get(d, "expression") else {
                continue;
            };
            let Some(expr) = n.as_str() else { continue };
            let path = format!("{}.derivedAttributes[{j}].expression", body.path);
            if expr.len() > CEL_MAX_LEN {
                out.report(
                    obj,
                    TooLong,
                    path,
                    n.span,
                    format!("may not be more than {CEL_MAX_LEN} bytes"),
                );
                continue;
            }
            match crate::cel::Program::compile_derived(expr, &cx.cel_env) {
                // The apiserver converts the compiler's error as for a
                // selector (convertCELErrorToValidationError).
                Err(e) => {
                    super::v161_cel_compile_error::report_compile_error(cx, obj, n, path, &e, out)
                }
                Ok(p) if p.estimated_cost > crate::cel::MAX_ESTIMATED_COST => {
                    out.report(
                        obj,
                        Forbidden,
                        path,
                        n.span,
                        "too complex, exceeds cost limit",
                    );
                }
                Ok(_) => {}
            }
        }
    }
}
