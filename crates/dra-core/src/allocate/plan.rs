//! The claims as the search reads them: each request (or firstAvailable
//! alternative) with its class, compiled selectors, tolerations and
//! capacity requests, and each claim's constraints; errors upstream raises
//! before any device is tried.

use super::*;

/// Each selector compiled, or its compile error's message.
pub(super) fn compile_all(exprs: &[String], env: &Env) -> Vec<Selector> {
    exprs
        .iter()
        .map(|e| Program::compile(e, env).map_err(|err| err.message))
        .collect()
}

pub(super) fn selectors_of(n: &Node) -> Vec<String> {
    n.get("selectors")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s.get("cel")?.get("expression")?.as_str().map(str::to_owned))
        .collect()
}

pub(super) fn tolerations_of(n: &Node) -> (Vec<Toleration>, Option<serde_json::Value>) {
    let list = n
        .get("tolerations")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let t = list
        .iter()
        .map(|t| Toleration {
            key: str_of(t, "key").unwrap_or_default().to_owned(),
            operator: str_of(t, "operator")
                .filter(|s| !s.is_empty())
                .unwrap_or("Equal")
                .to_owned(),
            value: str_of(t, "value").unwrap_or_default().to_owned(),
            effect: str_of(t, "effect").unwrap_or_default().to_owned(),
        })
        .collect();
    // The result holds the request's tolerations as stored: defaulted, so
    // an unset operator reads `Equal` (SetDefaults_DeviceToleration).
    let json = (!list.is_empty()).then(|| {
        serde_json::Value::Array(
            list.iter()
                .map(|t| {
                    let mut v = t.to_json();
                    if let Some(m) = v.as_object_mut() {
                        let unset = m
                            .get("operator")
                            .and_then(serde_json::Value::as_str)
                            .is_none_or(str::is_empty);
                        if unset {
                            m.insert("operator".into(), "Equal".into());
                        }
                    }
                    v
                })
                .collect(),
        )
    });
    (t, json)
}

/// `namespace/name` of the pods a claim is reserved for.
pub(super) fn reserved_pods(claim: &Object) -> Vec<String> {
    let ns = claim.namespace_or_default();
    claim
        .root
        .get("status")
        .and_then(|s| s.get("reservedFor"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|r| {
            r.get("resource")
                .and_then(Node::as_str)
                .is_none_or(|x| x == "pods")
        })
        .filter_map(|r| r.get("name").and_then(Node::as_str))
        .map(|n| format!("{ns}/{n}"))
        .collect()
}

pub(super) fn plan<'a>(
    objects: &'a [Object],
    gates: &'a FeatureGates,
    claims: &[&'a Object],
) -> Result<Vec<ClaimPlan<'a>>, Fatal> {
    // The scheduler evaluates with every field declared (stored expressions).
    let env = Env::stored();
    let classes: HashMap<&str, &Object> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceClass)
        .filter_map(|o| Some((o.name()?, o)))
        .collect();
    let mut class_programs: HashMap<String, Arc<Vec<Selector>>> = HashMap::new();
    let mut plans = Vec::new();
    let mut next_key = 0usize;
    for (ci, claim) in claims.iter().enumerate() {
        let cref = claim_ref(claim);
        let devices = claim.spec().and_then(|s| s.get("devices"));
        let mut slots = Vec::new();
        for r in devices
            .and_then(|d| d.get("requests"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let name = str_of(r, "name").unwrap_or_default().to_owned();
            let mut make = |body: &'a Node, shown: String| -> Result<Req<'a>, Fatal> {
                // validateDeviceRequest, in its order; messages name a
                // subrequest by its own name.
                let own = shown.rsplit('/').next().unwrap_or(&shown).to_owned();
                let selectors = body
                    .get("selectors")
                    .and_then(Node::as_seq)
                    .unwrap_or_default();
                if let Some(i) = selectors.iter().position(|s| s.get("cel").is_none()) {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}, selector #{i}: CEL expression empty (unsupported selector type?)"
                    )));
                }
                let admin = body.get("adminAccess").and_then(Node::as_bool);
                if admin.is_some() && !gates.enabled(Gate::DRAAdminAccess) {
                    return Err(Fatal(format!("claim {cref}, request {own}: admin access is requested, but the feature is disabled")));
                }
                let class_name = str_of(body, "deviceClassName").unwrap_or_default();
                // An empty name is not looked up.
                if class_name.is_empty() {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}: missing device class name (unsupported request type?)"
                    )));
                }
                let class = *classes.get(class_name).ok_or_else(|| {
                    Fatal(format!(
                        "claim {cref}, request {own}: could not retrieve device class {class_name}"
                    ))
                })?;
                // The apiserver defaults a missing mode to ExactCount.
                let all = match str_of(body, "allocationMode") {
                    None | Some("ExactCount") => false,
                    Some("All") => true,
                    Some(other) => {
                        return Err(Fatal(format!(
                            "claim {cref}, request {own}: unsupported count mode {other}"
                        )))
                    }
                };
                // Compile errors surface when a device is first evaluated
                // (upstream compiles through its cache in selectorsMatch).
                let cp = match class_programs.get(class_name) {
                    Some(p) => p.clone(),
                    None => {
                        let sel = class.spec().map(selectors_of).unwrap_or_default();
                        let p = Arc::new(compile_all(&sel, &env));
                        class_programs.insert(class_name.to_owned(), p.clone());
                        p
                    }
                };
                let programs = Arc::new(compile_all(&selectors_of(body), &env));
                let count = body
                    .get("count")
                    .and_then(Node::as_i64)
                    .filter(|c| *c > 0)
                    .unwrap_or(1) as usize;
                let capacity: Vec<(String, Quantity)> = body
                    .get("capacity")
                    .and_then(|c| c.get("requests"))
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| Some((e.key.to_string(), qty(&e.value)?)))
                    .collect();
                // Upstream checks the field is set, and names a subrequest as such.
                if body.get("capacity").is_some() && !gates.enabled(Gate::DRAConsumableCapacity) {
                    let what = if shown.contains('/') {
                        "subrequest"
                    } else {
                        "request"
                    };
                    return Err(Fatal(format!("claim {cref}, {what} {own}: has capacity requests, but the DRAConsumableCapacity feature is disabled")));
                }
                let (tolerations, tolerations_json) = tolerations_of(body);
                next_key += 1;
                Ok(Req {
                    key: next_key,
                    claim: ci,
                    name: shown,
                    parent: String::new(),
                    class,
                    class_programs: cp,
                    programs,
                    all,
                    count,
                    admin: admin == Some(true),
                    tolerations,
                    tolerations_json,
                    capacity,
                })
            };
            if let Some(ex) = r.get("exactly") {
                let mut req = make(ex, name.clone())?;
                req.parent = name.clone();
                slots.push(Slot::Exact(req));
            } else if let Some(subs) = r.get("firstAvailable").and_then(Node::as_seq) {
                if !gates.enabled(Gate::DRAPrioritizedList) {
                    return Err(Fatal(format!("claim {cref}, request {name}: has subrequests, but the DRAPrioritizedList feature is disabled")));
                }
                let mut list = Vec::new();
                for s in subs {
                    let sub = str_of(s, "name").unwrap_or_default();
                    let mut req = make(s, format!("{name}/{sub}"))?;
                    req.parent = name.clone();
                    list.push(req);
                }
                slots.push(Slot::First(list));
            }
        }
        let constraint_list = devices
            .and_then(|d| d.get("constraints"))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        if let Some(i) = constraint_list
            .iter()
            .position(|c| c.get("matchAttribute").is_none() && c.get("distinctAttribute").is_none())
        {
            return Err(Fatal(format!(
                "claim {cref}, constraint #{i}: empty constraint (unsupported constraint type?)"
            )));
        }
        let constraints = constraint_list
            .iter()
            .filter_map(|c| {
                let requests = c
                    .get("requests")
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|r| r.as_str().map(str::to_owned))
                    .collect();
                if let Some(a) = str_of(c, "matchAttribute") {
                    Some(Constraint {
                        requests,
                        attribute: a.to_owned(),
                        distinct: false,
                    })
                } else {
                    str_of(c, "distinctAttribute").map(|a| Constraint {
                        requests,
                        attribute: a.to_owned(),
                        distinct: true,
                    })
                }
            })
            .collect();
        plans.push(ClaimPlan {
            obj: claim,
            slots,
            constraints,
        });
    }

    Ok(plans)
}
