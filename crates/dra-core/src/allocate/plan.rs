//! The claims as the search reads them: each request (or firstAvailable
//! alternative) with its class, compiled selectors, tolerations and
//! capacity requests, and each claim's constraints; errors upstream raises
//! before any device is tried.

use super::*;

/// Each selector compiled, or its compile error's message.
pub(super) fn compile_all(exprs: &[String], env: &Env) -> Vec<Selector> {
    exprs
        .iter()
        .map(|e| Program::compile(e, env).map_err(|err| err.detail(e)))
        .collect()
}

/// A request's tolerations for the search, and as the result holds them:
/// as stored, so defaulted (an unset operator reads `Equal`,
/// SetDefaults_DeviceToleration).
pub(super) fn tolerations_of(
    list: &[dra::Toleration],
) -> (Vec<Toleration>, Option<serde_json::Value>) {
    let t = list
        .iter()
        .map(|t| Toleration {
            key: t.key.to_owned(),
            operator: t.operator.to_owned(),
            value: t.value.to_owned(),
            effect: t.effect.to_owned(),
        })
        .collect();
    let json = (!list.is_empty()).then(|| {
        serde_json::Value::Array(
            list.iter()
                .map(|t| {
                    let mut v = t.node.to_json();
                    if let Some(m) = v.as_object_mut() {
                        m.insert("operator".into(), t.operator.into());
                    }
                    v
                })
                .collect(),
        )
    });
    (t, json)
}

pub(super) fn plan<'a>(
    objects: &'a [Object],
    gates: &'a FeatureGates,
    claims: &[&'a Object],
) -> Result<Vec<ClaimPlan<'a>>, Fatal> {
    // The scheduler evaluates with every field declared (stored expressions).
    let env = Env::stored(gates);
    let classes: HashMap<&str, dra::DeviceClass<'a>> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceClass && o.name().is_some())
        .map(|o| {
            let class = dra::DeviceClass::decode(o);
            (class.name, class)
        })
        .collect();
    let mut class_programs: HashMap<String, Arc<Vec<Selector>>> = HashMap::new();
    let mut plans = Vec::new();
    let mut next_key = 0usize;
    for (ci, claim) in claims.iter().enumerate() {
        let cref = claim_ref(claim);
        let typed = dra::Claim::decode(claim);
        let mut slots = Vec::new();
        for r in &typed.requests {
            let name = r.name.to_owned();
            let mut make = |body: &dra::DeviceRequest<'a>,
                            shown: String|
             -> Result<Req<'a>, Fatal> {
                // validateDeviceRequest, in its order; messages name a
                // subrequest by its own name.
                let own = shown.rsplit('/').next().unwrap_or(&shown).to_owned();
                if let Some(i) = body.selectors.iter().position(|s| !s.has_cel) {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}, selector #{i}: CEL expression empty (unsupported selector type?)"
                    )));
                }
                if body.admin_access.is_some() && !gates.enabled(Gate::DRAAdminAccess) {
                    return Err(Fatal(format!("claim {cref}, request {own}: admin access is requested, but the feature is disabled")));
                }
                let class_name = body.device_class_name;
                // An empty name is not looked up.
                if class_name.is_empty() {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}: missing device class name (unsupported request type?)"
                    )));
                }
                let class = classes.get(class_name).ok_or_else(|| {
                    Fatal(format!(
                        "claim {cref}, request {own}: could not retrieve device class {class_name}"
                    ))
                })?;
                let (all, count) = match body.mode {
                    dra::AllocationMode::ExactCount(count) => (false, count as usize),
                    dra::AllocationMode::All => (true, 1),
                    dra::AllocationMode::Unknown(other) => {
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
                        let p = Arc::new(compile_all(&class.expressions(), &env));
                        class_programs.insert(class_name.to_owned(), p.clone());
                        p
                    }
                };
                let programs = Arc::new(compile_all(&body.expressions(), &env));
                let capacity: Box<[(String, Quantity)]> = body
                    .capacity
                    .iter()
                    .flatten()
                    .filter_map(|(k, v)| Some(((*k).to_owned(), qty(v)?)))
                    .collect();
                // Upstream checks the field is set, and names a subrequest as such.
                if body.capacity.is_some() && !gates.enabled(Gate::DRAConsumableCapacity) {
                    let what = if shown.contains('/') {
                        "subrequest"
                    } else {
                        "request"
                    };
                    return Err(Fatal(format!("claim {cref}, {what} {own}: has capacity requests, but the DRAConsumableCapacity feature is disabled")));
                }
                let (tolerations, tolerations_json) = tolerations_of(&body.tolerations);
                let derived = if gates.enabled(Gate::DRADerivedAttributes) {
                    body.derived
                        .iter()
                        .map(|(name, expr)| Derived {
                            name: (*name).to_owned(),
                            program: Program::compile_derived(expr, &env)
                                .map_err(|err| err.detail(expr)),
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                next_key += 1;
                Ok(Req {
                    key: next_key,
                    claim: ci,
                    name: shown,
                    parent: String::new(),
                    class: class.object,
                    class_programs: cp,
                    programs,
                    all,
                    count,
                    admin: body.admin_access == Some(true),
                    tolerations,
                    tolerations_json,
                    capacity,
                    derived: Arc::new(derived),
                })
            };
            match &r.body {
                dra::RequestBody::Exactly(ex) => {
                    let mut req = make(ex, name.clone())?;
                    req.parent = name.clone();
                    slots.push(Slot::Exact(req));
                }
                dra::RequestBody::FirstAvailable(subs) => {
                    if !gates.enabled(Gate::DRAPrioritizedList) {
                        return Err(Fatal(format!("claim {cref}, request {name}: has subrequests, but the DRAPrioritizedList feature is disabled")));
                    }
                    let mut list = Vec::new();
                    for s in subs {
                        let mut req = make(s, format!("{name}/{}", s.name))?;
                        req.parent = name.clone();
                        list.push(req);
                    }
                    slots.push(Slot::First(list));
                }
                dra::RequestBody::Empty => {}
            }
        }
        if let Some(i) = typed
            .constraints
            .iter()
            .position(|c| c.kind == dra::ConstraintKind::Empty)
        {
            return Err(Fatal(format!(
                "claim {cref}, constraint #{i}: empty constraint (unsupported constraint type?)"
            )));
        }
        let constraints = typed
            .constraints
            .iter()
            .filter_map(|c| {
                let (attribute, distinct) = match c.kind {
                    dra::ConstraintKind::MatchAttribute(a) => (a, false),
                    dra::ConstraintKind::DistinctAttribute(a) => (a, true),
                    dra::ConstraintKind::Empty => return None,
                };
                Some(Constraint {
                    requests: c.requests.iter().map(|r| (*r).to_owned()).collect(),
                    attribute: attribute.to_owned(),
                    distinct,
                })
            })
            .collect();
        plans.push(ClaimPlan {
            obj: claim,
            claim: typed,
            slots,
            constraints,
        });
    }

    Ok(plans)
}
