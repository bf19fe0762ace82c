//! DRA-V003: driver name with upper-case letters.
use super::prelude::*;

declare_rule! {
    id: "DRA-V003", name: "upper-case-driver", severity: Warning, origin: Linter,
    summary: "spec.driver contains upper-case letters",
    docs: "The apiserver accepts upper case in driver names (it validates the lower-cased name) and warns about it from 1.35. Driver names are compared case-sensitively, so `GPU.example.com` in a slice and `gpu.example.com` in a class selector never match.",
    example: "spec:\n  driver: GPU.Example.com\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "driver")) else {
        return;
    };
    let Some(d) = n.as_str() else { return };
    if d.chars().any(|c| c.is_ascii_uppercase()) && driver_name_problem(d).is_none() {
        out.report(
            obj,
            Warning,
            "spec.driver",
            n.span,
            format!("driver name {d:?} has upper-case letters"),
        )
        .note(format!(
            "selectors and configs compare driver names case-sensitively; use {:?}",
            d.to_ascii_lowercase()
        ));
    }
}
