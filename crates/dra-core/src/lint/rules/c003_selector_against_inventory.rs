//! DRA-C003: a selector that matches no device of the inventory, or raises errors on it.
use super::prelude::*;

declare_rule! {
    id: "DRA-C003", name: "selector-fails-on-inventory", severity: Warning, origin: Linter,
    summary: "With --inventory: a request's selectors match no device, or raise a runtime error on some",
    docs: "Evaluated as the allocator does: the class's selectors first, then the request's. A selector that matches nothing keeps the claim pending, and the finding names the selector and its `&&` term that no device passes, with what the devices hold where it compares (`model == \"H100\"`: they hold \"h100\") and a likely fix one typo away; a runtime error on any candidate device aborts scheduling of the pod. Runs only with `--inventory` (ResourceSlices) and for classes given in the input.",
    example: "kubectl dra lint claim.yaml classes.yaml --inventory slices.yaml\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

/// A request (or the class itself) to evaluate.
struct Body {
    /// Where to report.
    path: String,
    class: String,
    class_sels: Vec<String>,
    /// The request's own selectors.
    own: Vec<String>,
    at: Node,
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(inv) = cx.inventory else { return };
    let bodies: Vec<Body> = match obj.kind {
        DeviceClass => {
            let sels = crate::dra::DeviceClass::decode(obj).expressions();
            let Some(n) = obj.spec().and_then(|s| get(s, "selectors")) else {
                return;
            };
            let name = obj.name().unwrap_or_default().to_owned();
            vec![Body {
                path: "spec.selectors".to_owned(),
                class: name,
                class_sels: sels,
                own: Vec::new(),
                at: n.clone(),
            }]
        }
        _ => request_bodies(cx.gates.version, obj)
            .into_iter()
            .filter_map(|b| {
                // The class from the typed model; the request as written
                // (its path is the one the user wrote).
                let class = get_str(b.node, "deviceClassName").filter(|c| !c.is_empty())?;
                let class_sels = cx.dra().class(class)?.expressions();
                let own: Vec<String> = items(b.node, "selectors")
                    .iter()
                    .filter_map(|s| {
                        get(s, "cel")
                            .and_then(|c| get_str(c, "expression"))
                            .map(str::to_owned)
                    })
                    .collect();
                let at = get(b.node, "selectors")
                    .or_else(|| get(b.node, "deviceClassName"))?
                    .clone();
                Some(Body {
                    path: format!("{}.selectors", b.path),
                    class: class.to_owned(),
                    class_sels,
                    own,
                    at,
                })
            })
            .collect(),
    };
    for Body {
        path,
        class,
        class_sels,
        own,
        at,
    } in bodies
    {
        let sels: Vec<String> = class_sels.iter().chain(&own).cloned().collect();
        let programs: Vec<_> = sels.iter().map(|s| cx.compile(s)).collect();
        if programs.iter().any(|p| p.is_err()) {
            continue;
        }
        let (mut matching, mut errors, mut first_err) = (0usize, 0usize, None);
        for d in inv {
            let mut ok = true;
            for p in &programs {
                let Ok(p) = &**p else { continue };
                match p.matches(&d.cel) {
                    Ok(true) => {}
                    Ok(false) => {
                        ok = false;
                        break;
                    }
                    Err(e) => {
                        ok = false;
                        errors += 1;
                        first_err
                            .get_or_insert_with(|| format!("{} on {}/{}", e.0, d.pool, d.name));
                        break;
                    }
                }
            }
            if ok {
                matching += 1;
            }
        }
        if errors > 0 {
            out.report(
                obj,
                Warning,
                path,
                at.span,
                format!(
                    "the selectors raise a runtime error on {errors} of {} devices: {}",
                    inv.len(),
                    first_err.unwrap_or_default()
                ),
            )
            .note("a runtime error aborts scheduling of the whole pod");
        } else if matching == 0 {
            let d = out.report(
                obj,
                Warning,
                path,
                at.span,
                format!(
                    "the selectors match none of the {} devices of the inventory",
                    inv.len()
                ),
            );
            // Which selector and term, and what the devices hold there.
            let stream = |f: &mut dyn FnMut(&crate::inventory::InventoryDevice, bool)| {
                inv.iter().for_each(|dev| f(dev, true))
            };
            let env = crate::cel::Env::new(cx.gates);
            let miss =
                crate::selector_miss::diagnose(Some((&class, &class_sels)), &own, &stream, &env);
            if let Some(m) = miss {
                d.note(m.text(crate::selector_miss::Scope::Inventory));
            }
        }
    }
}
