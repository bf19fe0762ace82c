//! A tree-walking evaluator over the `cel` crate's AST with the semantics the
//! scheduler relies on: commutative `&&`/`||` that absorb an error on the
//! side not needed, `no such key` for missing attributes, an empty map for an
//! unknown device domain, and a runtime cost limit (cel-go's actual cost:
//! one unit per variable, selection, index, call and loop step, strings by
//! length).

use std::sync::Arc;

use cel::common::ast::{operators as op, CallExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

use super::cost;
use super::functions::{self, arith, compare, index, R};
use super::qualify;
use super::value::{equals, Device, MapValue, Value};

pub(crate) const COST_LIMIT: u64 = 1_000_000;

/// Stack left when evaluation moves to a fresh segment, and its size.
const STACK_RED_ZONE: usize = 128 * 1024;
const STACK_SEGMENT: usize = 8 << 20;
const COST_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

pub(crate) struct Eval<'a> {
    device: &'a Arc<Device>,
    /// String literals as values, by expression id, built once per program.
    literals: &'a [Option<Value>],
    /// Constant `matches` patterns, compiled when the program was built, by
    /// the pattern literal's expression id.
    patterns: &'a [Option<super::pattern::Pattern>],
    scopes: Vec<(&'a str, Result<Value, String>)>,
    pub cost: u64,
}

/// The most bytes, or list elements, one value may grow to. cel-go charges
/// string growth (below) but concatenates lists lazily and builds `replace`
/// and `join` results as asked; here every value is built, so growth past
/// this bound stops the evaluation instead of exhausting memory.
const MAX_GROWN: usize = 16 << 20;

/// Refuses a growing call whose result would pass MAX_GROWN, from the
/// operands' sizes before the result exists (its cost is charged apart, as
/// cel-go charges it: `cost::call_cost`).
fn growth_bound(name: &str, target: Option<&Value>, args: &[Value]) -> Result<(), String> {
    let bound = |len: usize| {
        if len > MAX_GROWN {
            Err(format!(
                "operation cancelled: the result would exceed {} MiB",
                MAX_GROWN >> 20
            ))
        } else {
            Ok(())
        }
    };
    match (name, target, args) {
        (op::ADD, None, [Value::String(a), Value::String(b)]) => bound(a.len() + b.len()),
        (op::ADD, None, [Value::Bytes(a), Value::Bytes(b)]) => bound(a.len() + b.len()),
        // Elements are values of their own: a tighter bound than bytes.
        (op::ADD, None, [Value::List(a), Value::List(b)]) => {
            bound((a.len() + b.len()).saturating_mul(16))
        }
        ("replace", Some(Value::String(s)), [Value::String(old), Value::String(new), ..]) => {
            let hits = if old.is_empty() {
                s.chars().count() + 1
            } else {
                s.matches(&**old).count()
            };
            bound(s.len().saturating_add(hits.saturating_mul(new.len())))
        }
        ("join", Some(Value::List(l)), rest) => {
            let sep = match rest {
                [Value::String(sep)] => sep.len(),
                _ => 0,
            };
            bound(
                l.iter()
                    .map(|v| match v {
                        Value::String(x) => x.len().saturating_add(sep),
                        _ => 0,
                    })
                    .fold(0usize, usize::saturating_add),
            )
        }
        _ => Ok(()),
    }
}

impl<'a> Eval<'a> {
    pub fn new(
        device: &'a Arc<Device>,
        literals: &'a [Option<Value>],
        patterns: &'a [Option<super::pattern::Pattern>],
    ) -> Self {
        Eval {
            device,
            literals,
            patterns,
            scopes: Vec::new(),
            cost: 0,
        }
    }

    fn charge(&mut self, n: u64) -> Result<(), String> {
        self.cost += n;
        if self.cost > COST_LIMIT {
            Err(COST_EXCEEDED.into())
        } else {
            Ok(())
        }
    }

    /// Evaluates `e`. The walk recurses once per level of the tree, and a
    /// tree within cel-go's limits is some hundreds of levels deep (200
    /// nested macros): near the end of the caller's stack it goes on in a
    /// fresh segment (`stacker`), so no caller's stack decides. The check
    /// is a comparison with a thread-local limit.
    pub fn eval(&mut self, e: &'a IdedExpr) -> R {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.eval_here(e))
    }

    fn eval_here(&mut self, e: &'a IdedExpr) -> R {
        match &e.expr {
            Expr::Literal(l) => Ok(match l {
                LiteralValue::Boolean(b) => Value::Bool(*b.inner()),
                LiteralValue::Bytes(b) => Value::Bytes(b.inner().to_vec().into()),
                LiteralValue::Double(d) => Value::Double(*d.inner()),
                LiteralValue::Int(i) => Value::Int(*i.inner()),
                LiteralValue::Null => Value::Null,
                LiteralValue::String(s) => match self.literals.get(e.id as usize) {
                    Some(Some(v)) => v.clone(),
                    _ => Value::String(s.inner().into()),
                },
                LiteralValue::UInt(u) => Value::Uint(*u.inner()),
            }),
            Expr::Ident(name) => {
                self.charge(1)?;
                if let Some((_, v)) = self.scopes.iter().rev().find(|(n, _)| *n == name) {
                    return v.clone();
                }
                match name.as_str() {
                    "device" => Ok(Value::Device(self.device.clone())),
                    "int" | "uint" | "double" | "string" | "bool" | "bytes" | "list" | "map"
                    | "null_type" | "type" | "optional_type" => Ok(Value::Type(type_name(name))),
                    _ => Err(format!("no such attribute(s): {name}")),
                }
            }
            Expr::Select(s) => {
                self.charge(1)?;
                if let (false, Some((name, root))) =
                    (s.test, super::library_type_ident(&s.operand, &s.field))
                {
                    if !self.scopes.iter().any(|(v, _)| *v == root) {
                        return Ok(Value::Type(name));
                    }
                }
                // `device.x`: read the field without materialising the device value.
                if !s.test {
                    if let Expr::Ident(n) = &s.operand.expr {
                        if n == "device" && !self.scopes.iter().any(|(v, _)| *v == "device") {
                            self.charge(1)?;
                            return self.select_device(&s.field);
                        }
                    }
                }
                let operand = self.eval(&s.operand)?;
                if s.test {
                    return Ok(Value::Bool(qualify::has(&operand, &s.field)?));
                }
                // A field of an optional value is optional: cel-go's
                // applyQualifiers qualifies its value if present.
                if let Value::Optional(_) = operand {
                    return qualify::opt_get(&operand, &Value::string(&s.field));
                }
                qualify::select(&operand, &s.field)
            }
            Expr::List(l) => {
                if let Some(Some(v)) = self.literals.get(e.id as usize) {
                    return Ok(v.clone());
                }
                let mut items = Vec::with_capacity(l.elements.len());
                for (i, item) in l.elements.iter().enumerate() {
                    let v = self.eval(item)?;
                    if l.optional_indices.contains(&i) {
                        match v {
                            Value::Optional(Some(inner)) => items.push(*inner),
                            Value::Optional(None) => {}
                            other => return Err(format!("cannot initialize optional list element from non-optional value {other}")),
                        }
                    } else {
                        items.push(v);
                    }
                }
                // Not planned as a constant (collect_literals): built here.
                self.charge(cost::LIST_CREATE)?;
                Ok(Value::List(Arc::new(items)))
            }
            Expr::Map(m) => {
                let mut out = super::value::MapBuilder::default();
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        let k = self.eval(&me.key)?;
                        let v = self.eval(&me.value)?;
                        let v = match (me.optional, v) {
                            (false, v) => Some(v),
                            (true, Value::Optional(inner)) => inner.map(|b| *b),
                            (true, other) => {
                                return Err(format!("cannot initialize optional entry '{}' from non-optional value {other}", functions::key_text(&k)))
                            }
                        };
                        out.set(k, v);
                    }
                }
                let out = out.build();
                if !cost::is_constant(e) {
                    self.charge(cost::MAP_CREATE)?;
                }
                Ok(Value::Map(Arc::new(out)))
            }
            Expr::Struct(s) => Err(format!("unknown type {}", s.type_name)),
            Expr::Unspecified => Err("unspecified expression".into()),
            Expr::Comprehension(c) => {
                let range = self.eval(&c.iter_range)?;
                let items = range_pairs(&range)?;
                let two = c.iter_var2.is_some();
                let init = self.eval(&c.accu_init);
                self.scopes.push((c.accu_var.as_str(), init));
                let accu_slot = self.scopes.len() - 1;
                let mut result = Ok(());
                for (k, v) in items {
                    if let Err(e) = self.charge(1) {
                        result = Err(e);
                        break;
                    }
                    let first = if two || matches!(range, Value::Map(_) | Value::Domains(_)) {
                        k
                    } else {
                        v.clone()
                    };
                    self.scopes.push((c.iter_var.as_str(), Ok(first)));
                    if let Some(v2) = &c.iter_var2 {
                        self.scopes.push((v2.as_str(), Ok(v)));
                    }
                    let cond = self.eval(&c.loop_cond);
                    let go_on = !matches!(cond, Ok(Value::Bool(false)));
                    if go_on {
                        let step = self.eval(&c.loop_step);
                        if let Err(e) = &step {
                            if e == COST_EXCEEDED {
                                result = Err(e.clone());
                            }
                        }
                        self.scopes[accu_slot].1 = step;
                    }
                    if two {
                        self.scopes.pop();
                    }
                    self.scopes.pop();
                    if !go_on || result.is_err() {
                        break;
                    }
                }
                if let Err(e) = result {
                    self.scopes.truncate(accu_slot);
                    return Err(e);
                }
                let r = self.eval(&c.result);
                self.scopes.truncate(accu_slot);
                r
            }
            Expr::Call(call) => {
                // Calls folded at compile time (quantity/semver of a literal).
                if let Some(Some(v)) = self.literals.get(e.id as usize) {
                    self.charge(1)?;
                    return Ok(v.clone());
                }
                self.call(call)
            }
        }
    }

    /// A reference to the value of a device path (`device.attributes["d"].x`)
    /// or a string literal, without cloning: the hot path of selectors.
    /// `None` when the expression is not such a path, or the path is missing
    /// (then the normal evaluation reports the error).
    fn eval_ref(&mut self, e: &'a IdedExpr) -> Option<&'a Value> {
        match &e.expr {
            Expr::Literal(LiteralValue::String(_)) => self.literals.get(e.id as usize)?.as_ref(),
            Expr::Select(s) if !s.test => {
                if let Expr::Ident(n) = &s.operand.expr {
                    if n != "device" || self.scopes.iter().any(|(v, _)| *v == "device") {
                        return None;
                    }
                    self.cost += 2;
                    let d: &'a Device = self.device;
                    return match s.field.as_str() {
                        "driver" => Some(&d.driver),
                        "attributes" => Some(&d.attributes),
                        "capacity" => Some(&d.capacity),
                        _ => None,
                    };
                }
                let operand = self.eval_ref(&s.operand)?;
                self.cost += 1;
                match operand {
                    Value::Map(m) | Value::Domains(m) => m.get_str(&s.field),
                    _ => None,
                }
            }
            Expr::Call(c)
                if c.func_name == op::INDEX && c.args.len() == 2 && c.target.is_none() =>
            {
                let key = match &c.args[1].expr {
                    Expr::Literal(LiteralValue::String(k)) => k.inner(),
                    _ => return None,
                };
                let container = self.eval_ref(&c.args[0])?;
                self.cost += 1;
                match container {
                    Value::Map(m) | Value::Domains(m) => m.get_str(key),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn select_device(&self, field: &str) -> R {
        let d = &**self.device;
        match field {
            "driver" => Ok(d.driver.clone()),
            "attributes" => Ok(d.attributes.clone()),
            "capacity" => Ok(d.capacity.clone()),
            "allowMultipleAllocations" => Ok(Value::Bool(d.allow_multiple_allocations)),
            _ => Err(format!("no such key: {field}")),
        }
    }

    fn call(&mut self, call: &'a CallExpr) -> R {
        let name = call.func_name.as_str();
        match name {
            op::LOGICAL_AND | op::LOGICAL_OR => {
                let is_and = name == op::LOGICAL_AND;
                let left = self.eval(&call.args[0]);
                let short = Value::Bool(!is_and);
                match &left {
                    Ok(Value::Bool(b)) if *b != is_and => return Ok(short),
                    Err(e) if e == COST_EXCEEDED => return left,
                    _ => {}
                }
                let right = self.eval(&call.args[1]);
                // cel-go's evalAnd/evalOr: a deciding right operand wins;
                // otherwise the left error, then a non-bool left operand
                // (no such overload), then the right one.
                return match (left, right) {
                    (_, Ok(Value::Bool(b))) if b != is_and => Ok(short),
                    (Ok(Value::Bool(_)), Ok(Value::Bool(b))) => Ok(Value::Bool(b)),
                    (Err(e), _) => Err(e),
                    (Ok(l), _) if !matches!(l, Value::Bool(_)) => {
                        Err(format!("no such overload: {name}({}, ...)", l.type_name()))
                    }
                    (_, Err(e)) => Err(e),
                    (Ok(_), Ok(r)) => {
                        Err(format!("no such overload: {name}(bool, {})", r.type_name()))
                    }
                };
            }
            op::CONDITIONAL => {
                self.charge(1)?;
                return match self.eval(&call.args[0])? {
                    Value::Bool(true) => self.eval(&call.args[1]),
                    Value::Bool(false) => self.eval(&call.args[2]),
                    other => Err(format!(
                        "no such overload: _?_:_({}, ...)",
                        other.type_name()
                    )),
                };
            }
            op::NOT_STRICTLY_FALSE => {
                return Ok(Value::Bool(!matches!(
                    self.eval(&call.args[0]),
                    Ok(Value::Bool(false))
                )));
            }
            _ => {}
        }
        if let Some(r) = self.special(call) {
            return r;
        }
        // `device...x == "literal"`: compare in place, no clones.
        if (name == op::EQUALS || name == op::NOT_EQUALS) && call.args.len() == 2 {
            let before = self.cost;
            if let (Some(a), Some(b)) = (self.eval_ref(&call.args[0]), self.eval_ref(&call.args[1]))
            {
                self.charge(cost::size(a).min(cost::size(b)).div_ceil(10))?;
                let eq = equals(a, b).unwrap_or(false);
                return Ok(Value::Bool(if name == op::EQUALS { eq } else { !eq }));
            }
            self.cost = before;
        }
        if let Some(r) = self.planned_matches(name, call) {
            return r;
        }
        // A namespace such as `sets` or `optional` as the call's target.
        let namespace = match call.target.as_deref() {
            Some(IdedExpr {
                expr: Expr::Ident(n),
                ..
            }) if functions::is_namespace(n) && !self.scopes.iter().any(|(s, _)| s == n) => {
                Some(n.as_str())
            }
            _ => None,
        };
        if name == op::OPT_SELECT {
            self.charge(1)?;
            let operand = self.eval(&call.args[0])?;
            let field = match &call.args[1].expr {
                Expr::Literal(LiteralValue::String(s)) => s.inner().to_string(),
                Expr::Ident(s) => s.clone(),
                _ => return Err("invalid optional field selection".into()),
            };
            return qualify::opt_get(&operand, &Value::string(&field));
        }
        if name == op::OPT_INDEX {
            self.charge(1)?;
            let operand = self.eval(&call.args[0])?;
            let key = self.eval(&call.args[1])?;
            return qualify::opt_get(&operand, &key);
        }
        let target = match (&call.target, namespace) {
            (Some(t), None) => Some(self.eval(t)?),
            _ => None,
        };
        let mut args: smallvec::SmallVec<[Value; 3]> = smallvec::SmallVec::new();
        for a in &call.args {
            args.push(self.eval(a)?);
        }
        // Charged before the call runs (cel-go charges the same sum after
        // it): an expression that doubles a string thirty times, or tests
        // membership in a long list in a loop, stops at the cost limit, not
        // after the work or at a 1 GiB allocation.
        let charge = if name == op::IN && cost::is_constant_set(&call.args[1]) {
            // Planned as a set membership test, which cel-go does not charge.
            0
        } else {
            cost::call_cost(name, namespace, target.as_ref(), &args)
        };
        self.charge(charge)?;
        growth_bound(name, target.as_ref(), &args)?;
        match (name, args.as_slice()) {
            (op::EQUALS, [a, b]) => Ok(Value::Bool(equals(a, b).unwrap_or(false))),
            (op::NOT_EQUALS, [a, b]) => Ok(Value::Bool(!equals(a, b).unwrap_or(false))),
            (op::LESS | op::LESS_EQUALS | op::GREATER | op::GREATER_EQUALS, [a, b]) => {
                let o = compare(a, b).ok_or_else(|| {
                    format!(
                        "no such overload: {name}({}, {})",
                        a.type_name(),
                        b.type_name()
                    )
                })?;
                Ok(Value::Bool(match name {
                    op::LESS => o.is_lt(),
                    op::LESS_EQUALS => o.is_le(),
                    op::GREATER => o.is_gt(),
                    _ => o.is_ge(),
                }))
            }
            (op::ADD | op::SUBSTRACT | op::MULTIPLY | op::DIVIDE | op::MODULO, [a, b]) => {
                arith(name, a, b)
            }
            (op::NEGATE, [a]) => match a {
                Value::Int(i) => i
                    .checked_neg()
                    .map(Value::Int)
                    .ok_or_else(|| "integer overflow".into()),
                Value::Double(d) => Ok(Value::Double(-d)),
                other => Err(format!("no such overload: -_({})", other.type_name())),
            },
            (op::LOGICAL_NOT, [a]) => match a {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                other => Err(format!("no such overload: !_({})", other.type_name())),
            },
            (op::INDEX, [c @ Value::Optional(_), k]) => qualify::opt_get(c, k),
            (op::INDEX, [c, k]) => index(c, k),
            (op::IN, [x, c]) => match c {
                Value::List(l) => Ok(Value::Bool(l.iter().any(|v| equals(v, x) == Some(true)))),
                Value::Map(m) | Value::Domains(m) => Ok(Value::Bool(m.get(x).is_some())),
                other => Err(format!(
                    "no such overload: @in({}, {})",
                    x.type_name(),
                    other.type_name()
                )),
            },
            _ => functions::call(name, namespace, target.as_ref(), &args),
        }
    }

    /// `device...x.matches("literal")` with the pattern compiled when the
    /// program was built, as cel-go's `OptimizeRegex` (which the Kubernetes
    /// base environment enables) plans it, and the subject read in place:
    /// no lookup of the pattern and no clone per device (issue 37). Charged
    /// as the general path charges it; `None` when that path must run.
    fn planned_matches(&mut self, name: &str, call: &'a CallExpr) -> Option<R> {
        if name != "matches" || call.args.len() != 1 {
            return None;
        }
        let id = call.args[0].id as usize;
        let re = self.patterns.get(id)?.as_ref()?;
        let before = self.cost;
        match self.eval_ref(call.target.as_deref()?) {
            Some(Value::String(subject)) => {
                let (matched, charge) = re.is_match(subject);
                Some(self.charge(charge).map(|()| Value::Bool(matched)))
            }
            _ => {
                self.cost = before;
                None
            }
        }
    }

    /// The macros the parser leaves as calls.
    fn special(&mut self, call: &'a CallExpr) -> Option<R> {
        let ident = |x: &'a IdedExpr| match &x.expr {
            Expr::Ident(n) => Some(n.as_str()),
            _ => None,
        };
        let name = call.func_name.as_str();
        let target_ident = call.target.as_deref().and_then(ident);
        if name == "bind" && target_ident == Some("cel") && call.args.len() == 3 {
            let var = ident(&call.args[0])?;
            let init = self.eval(&call.args[1]);
            self.scopes.push((var, init));
            let r = self.eval(&call.args[2]);
            self.scopes.pop();
            return Some(r);
        }
        let two_var = super::is_two_var_macro(name);
        if two_var && call.args.len() >= 3 {
            let (v1, v2) = (ident(&call.args[0])?, ident(&call.args[1])?);
            let target = call.target.as_deref()?;
            return Some(self.two_var(name, target, v1, v2, &call.args[2..]));
        }
        // ext lists' sortBy macro: the list sorted by each element's key
        // (cel-go expands it to @sortByAssociatedKeys(l, l.map(v, key))).
        if name == "sortBy" && call.args.len() == 2 {
            let var = ident(&call.args[0])?;
            let target = call.target.as_deref()?;
            return Some((|| {
                let items = match self.eval(target)? {
                    Value::List(items) => items,
                    other => {
                        return Err(format!(
                            "expression of type '{}' cannot be range of a comprehension",
                            other.type_name()
                        ))
                    }
                };
                let mut keys = Vec::with_capacity(items.len());
                for item in items.iter() {
                    self.charge(1)?;
                    self.scopes.push((var, Ok(item.clone())));
                    let key = self.eval(&call.args[1]);
                    self.scopes.pop();
                    keys.push(key?);
                }
                functions::sort_by_associated_keys(&items, &keys)
            })());
        }
        if matches!(name, "optMap" | "optFlatMap") && call.args.len() == 2 {
            let var = ident(&call.args[0])?;
            let target = call.target.as_deref()?;
            return Some((|| {
                let opt = self.eval(target)?;
                let Value::Optional(inner) = opt else {
                    return Err(format!("no such overload: {name} on {}", opt.type_name()));
                };
                let Some(inner) = inner else {
                    return Ok(Value::Optional(None));
                };
                self.scopes.push((var, Ok(*inner)));
                let r = self.eval(&call.args[1]);
                self.scopes.pop();
                let r = r?;
                Ok(if name == "optMap" {
                    Value::Optional(Some(Box::new(r)))
                } else {
                    r
                })
            })());
        }
        None
    }

    fn two_var(
        &mut self,
        name: &str,
        target: &'a IdedExpr,
        v1: &'a str,
        v2: &'a str,
        body: &'a [IdedExpr],
    ) -> R {
        let range = self.eval(target)?;
        let pairs = range_pairs(&range)?;
        let mut count = 0i64;
        let mut first_err: Option<String> = None;
        let mut list_out = Vec::new();
        let mut map_out = MapValue::default();
        for (k, v) in pairs {
            self.charge(1)?;
            self.scopes.push((v1, Ok(k.clone())));
            self.scopes.push((v2, Ok(v.clone())));
            let r = (|| -> R {
                match name {
                    "transformList" | "transformMap" => {
                        let keep = if body.len() == 2 {
                            self.eval(&body[0])?
                        } else {
                            Value::Bool(true)
                        };
                        if matches!(keep, Value::Bool(true)) {
                            let out = self.eval(body.last().expect("body"))?;
                            if name == "transformList" {
                                list_out.push(out);
                            } else {
                                map_out.entries.push((k.clone(), out));
                            }
                        }
                        Ok(Value::Null)
                    }
                    "transformMapEntry" => {
                        if let Value::Map(m) = self.eval(body.last().expect("body"))? {
                            map_out.entries.extend(m.entries.iter().cloned());
                        }
                        Ok(Value::Null)
                    }
                    _ => self.eval(&body[0]),
                }
            })();
            self.scopes.pop();
            self.scopes.pop();
            match (name, r) {
                (_, Err(e)) if e == COST_EXCEEDED => return Err(e),
                ("all", Ok(Value::Bool(false))) => return Ok(Value::Bool(false)),
                ("exists", Ok(Value::Bool(true))) => return Ok(Value::Bool(true)),
                ("existsOne" | "exists_one", Ok(Value::Bool(true))) => count += 1,
                (_, Err(e)) => {
                    if matches!(name, "transformList" | "transformMap" | "transformMapEntry") {
                        return Err(e);
                    }
                    first_err.get_or_insert(e);
                }
                _ => {}
            }
        }
        match name {
            "transformList" => Ok(Value::List(Arc::new(list_out))),
            "transformMap" | "transformMapEntry" => Ok(Value::Map(Arc::new(map_out))),
            _ => match first_err {
                Some(e) => Err(e),
                None => Ok(Value::Bool(match name {
                    "all" => true,
                    "exists" => false,
                    _ => count == 1,
                })),
            },
        }
    }
}

fn type_name(n: &str) -> &'static str {
    match n {
        "int" => "int",
        "uint" => "uint",
        "double" => "double",
        "string" => "string",
        "bool" => "bool",
        "bytes" => "bytes",
        "list" => "list",
        "map" => "map",
        "null_type" => "null_type",
        "optional_type" => "optional_type",
        _ => "type",
    }
}

/// The Go type cel-go's `%T` names for a value (its runtime messages).
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "types.Null",
        Value::Bool(_) => "types.Bool",
        Value::Int(_) => "types.Int",
        Value::Uint(_) => "types.Uint",
        Value::Double(_) => "types.Double",
        Value::String(_) => "types.String",
        Value::Bytes(_) => "types.Bytes",
        Value::Duration(_) => "types.Duration",
        Value::Timestamp(..) => "types.Timestamp",
        Value::Optional(_) => "*types.Optional",
        Value::Type(_) => "*types.Type",
        // The Kubernetes library types (k8s.io/apiserver/pkg/cel), as the
        // values attributes, capacities and the constructors give them.
        Value::Semver(_) => "cel.Semver",
        Value::Quantity(_) => "cel.Quantity",
        Value::Ip(_) => "cel.IP",
        Value::Cidr(..) => "cel.CIDR",
        Value::Url(_) => "cel.URL",
        _ => "ref.Val",
    }
}

/// What a comprehension iterates: (index, element) of a list, (key, value) of a map.
fn range_pairs(range: &Value) -> Result<Vec<(Value, Value)>, String> {
    match range {
        Value::List(l) => Ok(l
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Int(i as i64), v.clone()))
            .collect()),
        Value::Map(m) | Value::Domains(m) => Ok(m.entries.clone()),
        // cel-go's evalFold: `got '%T', expected iterable type`.
        other => Err(format!("got '{}', expected iterable type", go_type(other))),
    }
}
