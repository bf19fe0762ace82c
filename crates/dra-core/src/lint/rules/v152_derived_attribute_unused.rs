//! DRA-V152: a derived attribute no constraint of its request uses.
use super::prelude::*;

declare_rule! {
    id: "DRA-V152", name: "derived-attribute-not-referenced", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A derived attribute is not referenced by a `matchAttribute` or `distinctAttribute` constraint that applies to its request",
    docs: "Derived attributes exist to be compared by constraints. The apiserver rejects one that no constraint applying to the request (a constraint without `requests`, one naming the request, or for a subrequest its parent) reads.",
    example: "requests:\n- name: gpu\n  exactly:\n    deviceClassName: gpu\n    derivedAttributes: [{name: slot, expression: \"1\"}]\n# no constraint with matchAttribute: slot\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some((claim, _)) = device_claim(obj) else {
        return;
    };
    let reqs = requests(cx.gates.version, obj);
    let constraints = items(claim, "constraints");
    for (body, list) in derived_attributes(cx.gates.version, obj) {
        let Some((_, r, _)) = reqs.iter().find(|(i, _, _)| *i == body.request) else {
            continue;
        };
        let Some(request) = get_str(r, "name") else {
            continue;
        };
        let sub = body
            .subrequest
            .and_then(|k| items(r, "firstAvailable").get(k))
            .and_then(|s| get_str(s, "name"));
        let applies = |c: &Node| {
            let reqs: Vec<&str> = items(c, "requests")
                .iter()
                .filter_map(Node::as_str)
                .collect();
            reqs.is_empty()
                || reqs.contains(&request)
                || sub.is_some_and(|s| reqs.contains(&format!("{request}/{s}").as_str()))
        };
        for (j, d) in list.iter().enumerate() {
            let Some(n) = get(d, "name") else { continue };
            let Some(name) = n.as_str() else { continue };
            let used = constraints.iter().filter(|c| applies(c)).any(|c| {
                ["matchAttribute", "distinctAttribute"]
                    .iter()
                    .any(|k| get_str(c, k) == Some(name))
            });
            if !used {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.derivedAttributes[{j}].name", body.path),
                    n.span,
                    "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request",
                )
                .note(format!("no constraint that applies to this request uses {name:?}"));
            }
        }
    }
}
