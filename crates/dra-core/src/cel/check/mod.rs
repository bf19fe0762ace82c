//! The compile-time checks the `cel` crate lacks: a type checker over the
//! parsed expression for the DRA environment (`device` of type
//! `kubernetes.DRADevice`), with cel-go's wording for the errors the
//! apiserver reports, and a worst-case cost estimate in the spirit of cel-go's
//! estimator with the DRA size limits (see spec/cel.md §5).

use cel::common::ast::{operators as op, CallExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

pub use super::types::Type;
use super::Env;

mod macros;

mod error;
pub use error::{CompileError, CompileErrorKind};

/// Result of checking one node: its type, worst-case cost and size.
#[derive(Clone, Debug)]
pub(crate) struct Checked {
    pub ty: Type,
    pub cost: f64,
    /// Worst-case length of a string or number of elements of a collection;
    /// infinite where cel-go's estimate has no size (UnknownSizeEstimate).
    pub size: f64,
    /// The sizes of what the value holds, for its elements, keys and values.
    pub holds: Holds,
}

mod literal;
mod select;
mod sizes;
pub(crate) use sizes::{iteration_vars, times, Holds};
use sizes::{sized_as, unsized_result};

impl Checked {
    /// The same value wrapped in an optional.
    fn optional(self) -> Checked {
        Checked {
            ty: Type::Optional(Box::new(self.ty)),
            ..self
        }
    }
}

fn c(ty: Type, cost: f64, size: f64) -> Checked {
    Checked {
        ty,
        cost,
        size,
        holds: Holds::Unknown,
    }
}

/// Limits of the DRA size estimator (spec/cel.md §5).
const MAX_ATTRS: f64 = 32.0;
const MAX_DOMAIN: f64 = 63.0;
const MAX_ID: f64 = 32.0;
const MAX_STRING_ATTR: f64 = 64.0;

pub(crate) struct Checker<'a> {
    env: &'a Env,
    scopes: Vec<(String, Checked)>,
    offsets: &'a dyn Fn(u64) -> Option<(u32, u32)>,
    /// How many `format` calls enclose the expression being checked: the
    /// homogeneous-literal validator exempts every list and map literal
    /// inside one (cel-go `inExemptFunction`, the strings library adds
    /// `format` to HomogeneousAggregateLiteralExemptFunctions).
    in_format: usize,
    /// Errors found so far; the checker goes on past them (`child`).
    errors: Vec<CompileError>,
}

impl<'a> Checker<'a> {
    pub fn new(env: &'a Env, offsets: &'a dyn Fn(u64) -> Option<(u32, u32)>) -> Self {
        Checker {
            env,
            scopes: Vec::new(),
            offsets,
            in_format: 0,
            errors: Vec::new(),
        }
    }

    /// Checks a subexpression; a type error in it is recorded and the
    /// subexpression typed `*error*` (assignable to anything), so that the
    /// rest of the expression is checked too, as cel-go's checker does.
    fn child(&mut self, e: &IdedExpr) -> Result<Checked, CompileError> {
        match self.check(e) {
            Err(err) if matches!(err.kind, CompileErrorKind::Type | CompileErrorKind::Gated) => {
                self.errors.push(err);
                Ok(c(Type::Error, 0.0, 0.0))
            }
            r => r,
        }
    }

    /// The result of a whole expression: its first error (by position, as
    /// cel-go sorts them) with the others in `more`, or its type.
    fn finish(&mut self, r: Result<Checked, CompileError>) -> Result<Checked, CompileError> {
        let mut errors = std::mem::take(&mut self.errors);
        match r {
            Err(e) => errors.push(e),
            Ok(k) if errors.is_empty() => return Ok(k),
            Ok(_) => {}
        }
        // cel-go runs the AST validators only on an expression that
        // type-checks (cel/env.go Check).
        if errors.iter().any(|e| !e.validator) {
            errors.retain(|e| !e.validator);
        }
        let mut flat: Vec<CompileError> = errors
            .into_iter()
            .flat_map(|mut e| {
                let more = std::mem::take(&mut e.more);
                std::iter::once(e).chain(more)
            })
            .collect();
        flat.sort_by_key(|e| e.position.unwrap_or((u32::MAX, u32::MAX)));
        let mut first = flat.remove(0);
        first.more = flat;
        Err(first)
    }

    fn err(&self, e: &IdedExpr, kind: CompileErrorKind, message: String) -> CompileError {
        CompileError::new(kind, message, (self.offsets)(e.id))
    }

    fn lookup(&self, name: &str) -> Option<&Checked> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    /// Checks the whole expression, including its result type: `bool`, or
    /// exactly the type of an attribute value (the DRA compiler's
    /// CompileCELExpression: 1.34 and 1.35 `bool` or `any`; 1.36 also `dyn`
    /// with DRAListTypeAttributes; 1.37 the environment's attribute type).
    /// So `dyn(true)` is refused while attribute values are `any`.
    pub fn check_root(&mut self, e: &IdedExpr) -> Result<Checked, CompileError> {
        let r = self.check(e);
        let r = self.finish(r)?;
        let allowed = match r.ty {
            Type::Bool | Type::Any | Type::Error => true,
            Type::Dyn | Type::Free => self.env.attributes_dyn,
            _ => false,
        };
        if !allowed {
            let mut err = self.err(
                e,
                CompileErrorKind::Type,
                format!(
                    "must evaluate to bool or the unknown type, not {}",
                    r.ty.name()
                ),
            );
            err.result_type = true;
            return Err(err);
        }
        Ok(r)
    }

    /// Checks an expression of any type (the CEL conformance suite's).
    pub fn check_any(&mut self, e: &IdedExpr) -> Result<Checked, CompileError> {
        let r = self.check(e);
        self.finish(r)
    }

    /// A derived attribute (DRADerivedAttributes) must give a value an
    /// attribute can hold (compile.go validateOutputType,
    /// isAllowedDerivedAttributeType): exactly bool, int, string, semver,
    /// `any` or `dyn`, or, where lists are allowed (DRAListTypeAttributes on,
    /// or a stored expression), a list of those.
    pub fn check_derived_root(&mut self, e: &IdedExpr) -> Result<Checked, CompileError> {
        let r = self.check(e);
        let r = self.finish(r)?;
        let scalar = |t: &Type| {
            matches!(
                t,
                Type::Bool
                    | Type::Int
                    | Type::String
                    | Type::Semver
                    | Type::Dyn
                    | Type::Any
                    | Type::Free
            )
        };
        let lists = self.env.list_type_attributes;
        let ok = scalar(&r.ty) || (lists && matches!(&r.ty, Type::List(inner) if scalar(inner)));
        if !ok {
            let allowed = if lists {
                "a primitive scalar (string, integer, boolean, semver) or a list of these scalars"
            } else {
                "a primitive scalar (string, integer, boolean, semver)"
            };
            let mut err = self.err(
                e,
                CompileErrorKind::Type,
                format!("must evaluate to {allowed}, not {}", r.ty.name()),
            );
            err.result_type = true;
            return Err(err);
        }
        Ok(r)
    }

    pub fn check(&mut self, e: &IdedExpr) -> Result<Checked, CompileError> {
        match &e.expr {
            Expr::Unspecified => Ok(c(Type::Dyn, 0.0, 0.0)),
            Expr::Literal(l) => Ok(match l {
                LiteralValue::Boolean(_) => c(Type::Bool, 0.0, 1.0),
                LiteralValue::Bytes(b) => c(Type::Bytes, 0.0, b.inner().len() as f64),
                LiteralValue::Double(_) => c(Type::Double, 0.0, 1.0),
                LiteralValue::Int(_) => c(Type::Int, 0.0, 1.0),
                LiteralValue::Null => c(Type::Null, 0.0, 1.0),
                LiteralValue::String(s) => c(Type::String, 0.0, s.inner().chars().count() as f64),
                LiteralValue::UInt(_) => c(Type::Uint, 0.0, 1.0),
            }),
            Expr::Ident(name) => {
                if name == "device" {
                    return Ok(c(Type::Device, 1.0, 1.0));
                }
                if let Some(t) = self.lookup(name) {
                    return Ok(Checked {
                        cost: 1.0,
                        ..t.clone()
                    });
                }
                match name.as_str() {
                    "int" | "uint" | "double" | "string" | "bool" | "bytes" | "list" | "map"
                    | "null_type" | "type" | "optional_type" => Ok(c(Type::TypeT, 1.0, 1.0)),
                    _ => Err(self.err(
                        e,
                        CompileErrorKind::Type,
                        format!("undeclared reference to '{name}' (in container '')"),
                    )),
                }
            }
            Expr::Select(s) => {
                if let (false, Some((_, root))) =
                    (s.test, super::library_type_ident(&s.operand, &s.field))
                {
                    if self.lookup(root).is_none() {
                        return Ok(c(Type::TypeT, 1.0, 1.0));
                    }
                }
                let operand = self.child(&s.operand)?;
                let r = self.select_field(e, &operand, &s.field, false)?;
                if s.test {
                    // has() costs nothing extra (Kubernetes keeps the old presence cost).
                    return Ok(c(Type::Bool, operand.cost, 1.0));
                }
                // cel-go costSelect charges the selection only on a map or
                // a struct (the device); a field of a dyn, any or optional
                // value costs only its operand.
                let unit = if matches!(operand.ty, Type::Map(..) | Type::Device) {
                    1.0
                } else {
                    0.0
                };
                Ok(Checked {
                    cost: operand.cost + unit,
                    ..r
                })
            }
            Expr::List(l) => {
                let mut elem = literal::LiteralTypes::default();
                let mut cost = 0.0;
                let mut size = 0.0f64;
                for (i, item) in l.elements.iter().enumerate() {
                    let t = self.child(item)?;
                    cost += t.cost;
                    size = size.max(t.size);
                    let ty = if l.optional_indices.contains(&i) {
                        self.optional_entry(item, t.ty)?
                    } else {
                        t.ty
                    };
                    self.join_element(item, &mut elem, ty, true);
                }
                Ok(Checked {
                    holds: Holds::Literal {
                        key: 1.0,
                        value: size,
                    },
                    ..c(
                        Type::list(elem.joined()),
                        cost + 10.0, // cel-go charges 10 to create a list, 30 a map
                        l.elements.len() as f64,
                    )
                })
            }
            Expr::Map(m) => {
                let mut kt = literal::LiteralTypes::default();
                let mut vt = literal::LiteralTypes::default();
                let mut cost = 0.0;
                let (mut key_size, mut value_size) = (0.0f64, 0.0f64);
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        let k = self.child(&me.key)?;
                        let v = self.child(&me.value)?;
                        cost += k.cost + v.cost;
                        key_size = key_size.max(k.size);
                        value_size = value_size.max(v.size);
                        let value_type = if me.optional {
                            self.optional_entry(&me.value, v.ty)?
                        } else {
                            v.ty
                        };
                        self.join_element(&me.key, &mut kt, k.ty, false);
                        self.join_element(&me.value, &mut vt, value_type, false);
                    }
                }
                Ok(Checked {
                    holds: Holds::Literal {
                        key: key_size,
                        value: value_size,
                    },
                    ..c(
                        Type::Map(Box::new(kt.joined()), Box::new(vt.joined())),
                        cost + 30.0,
                        m.entries.len() as f64,
                    )
                })
            }
            Expr::Struct(s) => Err(self.err(
                e,
                CompileErrorKind::Type,
                format!(
                    "undeclared reference to '{}' (in container '')",
                    s.type_name
                ),
            )),
            Expr::Comprehension(comp) => {
                let range = self.child(&comp.iter_range)?;
                let (t1, t2) = match &range.ty {
                    Type::List(t) => {
                        if comp.iter_var2.is_some() {
                            (Type::Int, (**t).clone())
                        } else {
                            ((**t).clone(), Type::Dyn)
                        }
                    }
                    Type::Map(k, v) => ((**k).clone(), (**v).clone()),
                    // checkComprehension accepts dyn and error, not any.
                    Type::Dyn | Type::Error | Type::Free => (Type::Dyn, Type::Dyn),
                    other => {
                        return Err(self.err(
                            &comp.iter_range,
                            CompileErrorKind::Type,
                            format!("expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)", other.name()),
                        ))
                    }
                };
                let init = self.child(&comp.accu_init)?;
                self.scopes.push((comp.accu_var.clone(), init.clone()));
                let (first, second) = iteration_vars(&range, t1, t2, comp.iter_var2.is_some());
                self.scopes.push((comp.iter_var.clone(), first));
                if let Some(v2) = &comp.iter_var2 {
                    self.scopes.push((v2.clone(), second));
                }
                let cond = self.child(&comp.loop_cond);
                let step = self.child(&comp.loop_step);
                if comp.iter_var2.is_some() {
                    self.scopes.pop();
                }
                self.scopes.pop();
                let (cond, step) = (cond?, step?);
                // The accumulator takes the step's type (a list built by map/filter).
                if let Some(last) = self.scopes.last_mut() {
                    if !step.ty.is_dyn() {
                        last.1.ty = step.ty.clone();
                    }
                }
                let result = self.child(&comp.result);
                self.scopes.pop();
                let result = result?;
                let iterations = range.size.max(0.0);
                let cost =
                    range.cost + init.cost + times(iterations, cond.cost + step.cost) + result.cost;
                // A list or map built by the loop (map, filter) holds what
                // its step adds (cel-go copies the step's entry size).
                let holds = if matches!(&comp.accu_init.expr, Expr::List(_) | Expr::Map(_)) {
                    step.holds.clone()
                } else {
                    Holds::Unknown
                };
                Ok(Checked {
                    holds,
                    ..c(result.ty, cost, result.size.max(iterations))
                })
            }
            Expr::Call(call) => self.call(e, call),
        }
    }

    /// The type an optional list element or map entry (`[?x]`, `{?k: x}`)
    /// contributes: the optional's value type; anything but an optional or
    /// dyn is a mismatch (cel-go checkCreateList / checkCreateMap).
    fn optional_entry(&self, e: &IdedExpr, ty: Type) -> Result<Type, CompileError> {
        match ty {
            Type::Optional(inner) => Ok(*inner),
            t if t.is_dyn() => Ok(t),
            t => Err(self.err(
                e,
                CompileErrorKind::Type,
                format!(
                    "expected type '{}' but found '{}'",
                    Type::Optional(Box::new(t.clone())).name(),
                    t.name()
                ),
            )),
        }
    }

    /// An AST validator's error: recorded, and reported only if the
    /// expression type-checks (`finish`).
    fn validator_error(&mut self, e: &IdedExpr, message: String) {
        let mut err = self.err(e, CompileErrorKind::Type, message);
        err.validator = true;
        self.errors.push(err);
    }

    fn no_overload(
        &self,
        e: &IdedExpr,
        name: &str,
        receiver: Option<&Type>,
        args: &[&Type],
    ) -> CompileError {
        let list: Vec<String> = args.iter().map(|t| t.name()).collect();
        let receiver = receiver.map_or(String::new(), |t| format!("{}.", t.name()));
        self.err(
            e,
            CompileErrorKind::Type,
            format!(
                "found no matching overload for '{name}' applied to '{receiver}({})'",
                list.join(", ")
            ),
        )
    }

    fn call(&mut self, e: &IdedExpr, call: &CallExpr) -> Result<Checked, CompileError> {
        let format = call.func_name == "format";
        self.in_format += usize::from(format);
        let r = self.call_inner(e, call);
        self.in_format -= usize::from(format);
        r
    }

    /// The static form of a literal `format` argument (its type, and for a
    /// literal list or map its elements, keys and values).
    fn format_arg(
        &mut self,
        e: &IdedExpr,
    ) -> Result<super::strings_format::StaticArg, CompileError> {
        let ty = self.check(e)?.ty;
        let mut children = Vec::new();
        match &e.expr {
            Expr::List(l) => {
                for item in &l.elements {
                    children.push(self.format_arg(item)?);
                }
            }
            Expr::Map(m) => {
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        children.push(self.format_arg(&me.key)?);
                        children.push(self.format_arg(&me.value)?);
                    }
                }
            }
            _ => {}
        }
        Ok(super::strings_format::StaticArg { ty, children })
    }

    fn call_inner(&mut self, e: &IdedExpr, call: &CallExpr) -> Result<Checked, CompileError> {
        let name = call.func_name.as_str();
        // Macros the parser leaves as calls: cel.bind, two-variable comprehensions, optMap.
        if let Some(r) = self.special_call(e, call)? {
            return Ok(r);
        }
        let namespace_target =
            |n: &str| super::functions::is_namespace(n) && self.lookup(n).is_none();
        let target = match call.target.as_deref() {
            // `sets.contains(...)`, `optional.of(...)`: a namespace, not a value.
            Some(IdedExpr {
                expr: Expr::Ident(n),
                ..
            }) if namespace_target(n) => Some(c(Type::Dyn, 0.0, 0.0)),
            Some(t) => Some(self.child(t)?),
            None => None,
        };
        // The base environment's AST validators (1.29+, cel-go
        // `cel/validator.go` formatValidator): a literal first argument of
        // `matches` must compile as a regular expression, of `duration` and
        // `timestamp` must convert; the error names only the function.
        let validated = match (name, call.args.first()) {
            (
                "matches",
                Some(IdedExpr {
                    expr: Expr::Literal(LiteralValue::String(re)),
                    ..
                }),
            ) => Some(regex::Regex::new(re.inner()).is_ok()),
            // formatValidator's evalCall: the call itself, evaluated on the
            // literal (a declared argument type; another is the checker's
            // no-matching-overload), so `duration(5)` is refused here, as
            // Int.ConvertToType has no duration.
            (
                "duration" | "timestamp",
                Some(IdedExpr {
                    expr: Expr::Literal(lit @ (LiteralValue::String(_) | LiteralValue::Int(_))),
                    ..
                }),
            ) => {
                Some(super::functions::call(name, None, None, &[super::plan::literal(lit)]).is_ok())
            }
            _ => None,
        };
        if validated == Some(false) {
            self.validator_error(&call.args[0], format!("invalid {name} argument"));
        }
        if matches!(name, op::LOGICAL_AND | op::LOGICAL_OR) && call.args.len() == 2 {
            return self.logical(call);
        }
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            args.push(self.child(a)?);
        }
        // A literal format string over a literal list is checked now, as
        // cel-go's format validator does.
        if name == "format" {
            if let (
                Some(IdedExpr {
                    expr: Expr::Literal(LiteralValue::String(fmt)),
                    ..
                }),
                Some(IdedExpr {
                    expr: Expr::List(l),
                    ..
                }),
            ) = (call.target.as_deref(), call.args.first())
            {
                let mut static_args = Vec::new();
                for item in &l.elements {
                    static_args.push(self.format_arg(item)?);
                }
                if let Err(m) = super::strings_format::static_check(fmt.inner(), &static_args) {
                    self.validator_error(e, m);
                }
            }
        }
        // `x.?f` is typed as the field selection it is (checkOptSelect).
        let opt_select = match (name, args.first(), call.args.get(1).map(|a| &a.expr)) {
            (op::OPT_SELECT, Some(operand), Some(Expr::Literal(LiteralValue::String(f)))) => {
                Some(self.select_field(e, operand, f.inner(), true)?.ty)
            }
            _ => None,
        };
        let base: f64 =
            target.as_ref().map_or(0.0, |t| t.cost) + args.iter().map(|a| a.cost).sum::<f64>();
        let arg_types: Vec<&Type> = args.iter().map(|a| &a.ty).collect();
        let size_of = |i: usize| args.get(i).map_or(0.0, |a| a.size);
        let plain_args: Vec<&Type> = arg_types.iter().map(|t| t.as_dyn()).collect();
        let r = super::functions::signature(
            name,
            target.as_ref().map(|t| t.ty.as_dyn()),
            &plain_args,
            self.env,
        );
        match r {
            super::functions::Sig::Ok(ty, extra_kind) => {
                let ty = opt_select.unwrap_or(ty);
                // The signature sees an attribute's `any` as dyn; where a type
                // parameter takes an argument, it takes the type as written:
                // `cond ? attr : false`, `optional.of(attr).value()` and
                // `optional.of(true).orValue(attr)` are `any`.
                let ty = match (name, args.as_slice(), &ty) {
                    (op::CONDITIONAL, [_, a, b], _) => a.ty.join(&b.ty).unwrap_or(ty),
                    ("of" | "ofNonZeroValue", [a], Type::Optional(_)) => {
                        Type::Optional(Box::new(a.ty.clone()))
                    }
                    ("orValue", [a], _) => match target.as_ref().map(|t| &t.ty) {
                        Some(Type::Optional(t)) => t.join(&a.ty).unwrap_or(ty),
                        _ => ty,
                    },
                    _ => ty,
                };
                let extra = match extra_kind {
                    super::functions::Extra::None => 0.0,
                    super::functions::Extra::Traversal(factor) => {
                        let a = target.as_ref().map_or(size_of(0), |t| t.size);
                        (factor * a).ceil()
                    }
                    super::functions::Extra::ArgTraversal => (0.1 * size_of(0)).ceil(),
                    super::functions::Extra::InList => size_of(1),
                    super::functions::Extra::Flat(n) => n,
                    super::functions::Extra::Equality => (0.1 * size_of(0).min(size_of(1))).ceil(),
                    super::functions::Extra::Affix => (0.1 * size_of(0)).ceil(),
                    super::functions::Extra::Contains => {
                        let t = target.as_ref().map_or(0.0, |t| t.size);
                        times((0.1 * t).ceil(), (0.1 * size_of(0)).ceil())
                    }
                    super::functions::Extra::Matches => {
                        let t = target.as_ref().map_or(0.0, |t| t.size);
                        times((0.1 * (t + 1.0)).ceil(), (0.25 * size_of(0)).ceil())
                    }
                    // library/cost.go join: the list's size times its
                    // elements' size, which the DRA size estimator cannot
                    // give (an element has no path): unbounded unless the
                    // list is empty.
                    super::functions::Extra::ListScan { sized_elements } => {
                        let n = target.as_ref().map_or(0.0, |t| t.size);
                        if sized_elements || n == 0.0 {
                            n
                        } else {
                            f64::INFINITY
                        }
                    }
                    super::functions::Extra::Join => {
                        let n = target.as_ref().map_or(0.0, |t| t.size);
                        if n == 0.0 {
                            0.0
                        } else {
                            f64::INFINITY
                        }
                    }
                };
                // cel-go charges these by length alone, without the base unit.
                let unit = match extra_kind {
                    super::functions::Extra::Equality
                    | super::functions::Extra::Affix
                    | super::functions::Extra::Contains
                    | super::functions::Extra::Matches
                    | super::functions::Extra::Traversal(_)
                    | super::functions::Extra::ArgTraversal
                    | super::functions::Extra::InList
                    | super::functions::Extra::Flat(_)
                    | super::functions::Extra::Join
                    | super::functions::Extra::ListScan { .. } => 0.0,
                    _ => 1.0,
                };
                let holds_of = |i: usize| args.get(i).map_or(Holds::Unknown, |a| a.holds.clone());
                // Index results: what the container holds (cel-go's
                // entry sizes, or the `@items`/`@values` path).
                if name == op::INDEX {
                    let (size, holds) = holds_of(0).value();
                    return Ok(sized_as(ty, base + 1.0, size, holds));
                }
                let holds = match name {
                    op::CONDITIONAL => holds_of(1).union(&holds_of(2)),
                    op::ADD if matches!(ty, Type::List(_)) => holds_of(0).union(&holds_of(1)),
                    "dyn" => holds_of(0),
                    _ => Holds::Unknown,
                };
                let size = match &ty {
                    // cel-go's Conditional: the union of the branches' sizes.
                    _ if name == op::CONDITIONAL => size_of(1).max(size_of(2)),
                    // AddString, AddBytes, AddList: the sum of the sizes.
                    Type::List(_) | Type::String | Type::Bytes if name == op::ADD => {
                        size_of(0) + size_of(1)
                    }
                    _ if name == "dyn" => size_of(0),
                    // No estimator gives these results a size and no path
                    // leads the DRA size estimator to them, so cel-go's
                    // computeSize finds none: the size is unknown
                    // (UnknownSizeEstimate, up to 2^64), and a function
                    // charged by its length is unbounded on it.
                    Type::List(_)
                    | Type::Map(..)
                    | Type::String
                    | Type::Bytes
                    | Type::Dyn
                    | Type::Any
                        if unsized_result(name, target.is_some(), &arg_types) =>
                    {
                        f64::INFINITY
                    }
                    Type::List(_) | Type::Map(..) | Type::String => {
                        target.as_ref().map_or(size_of(0), |t| t.size).max(1.0)
                    }
                    _ => 1.0,
                };
                let cost = match name {
                    op::LOGICAL_AND | op::LOGICAL_OR => base,
                    // checker/cost.go functionCost: the condition plus the
                    // union of the branches, whose maximum is the dearer one.
                    op::CONDITIONAL => {
                        let branch = |i: usize| args.get(i).map_or(0.0, |a| a.cost);
                        branch(0) + branch(1).max(branch(2))
                    }
                    _ => base + unit + extra,
                };
                Ok(Checked {
                    holds,
                    ..sized_as(ty, cost, size, Holds::Unknown)
                })
            }
            super::functions::Sig::NoOverload => {
                // cel-go's noMatchingOverload: a member call shows its
                // receiver before a dot (`string.(int)`); a namespaced
                // function (`sets.contains`) is a global one by its full name.
                let namespace = match call.target.as_deref() {
                    Some(IdedExpr {
                        expr: Expr::Ident(n),
                        ..
                    }) if super::functions::is_namespace(n) && self.lookup(n).is_none() => {
                        Some(n.as_str())
                    }
                    _ => None,
                };
                let receiver = match (&target, namespace) {
                    (Some(t), None) => Some(&t.ty),
                    _ => None,
                };
                let shown = match namespace {
                    Some(ns) => format!("{ns}.{name}"),
                    None => name.to_owned(),
                };
                Err(self.no_overload(e, &shown, receiver, &arg_types))
            }
            super::functions::Sig::Undeclared => {
                // `math.greatest(...)` without the library: cel-go checks
                // the receiver (undeclared) and then reports the function.
                // (A namespace's identifier was not checked above.)
                if let Some(
                    t @ IdedExpr {
                        expr: Expr::Ident(n),
                        ..
                    },
                ) = call.target.as_deref()
                {
                    if super::functions::is_namespace(n) && self.lookup(n).is_none() {
                        let receiver = self.err(
                            t,
                            CompileErrorKind::Type,
                            format!("undeclared reference to '{n}' (in container '')"),
                        );
                        self.errors.push(receiver);
                    }
                }
                Err(self.err(
                    e,
                    CompileErrorKind::Type,
                    format!("undeclared reference to '{name}' (in container '')"),
                ))
            }
            super::functions::Sig::Gated(why) => Err(self.err(e, CompileErrorKind::Gated, why)),
        }
    }

    /// `a && b`, `a || b`: both operands are checked and each that is not
    /// a bool is a type mismatch, reported in order after the operands' own
    /// errors, as cel-go's checker reports them all (checker.go, checkCall
    /// on logical operators; errors.go typeMismatch).
    fn logical(&mut self, call: &CallExpr) -> Result<Checked, CompileError> {
        let mut checked = Vec::new();
        for a in &call.args {
            checked.push(self.child(a)?);
        }
        for (a, k) in call.args.iter().zip(&checked) {
            if k.ty != Type::Bool && !k.ty.is_dyn() {
                let e = self.err(
                    a,
                    CompileErrorKind::Type,
                    format!("expected type 'bool' but found '{}'", k.ty.name()),
                );
                self.errors.push(e);
            }
        }
        let cost = checked.iter().map(|k| k.cost).sum();
        Ok(c(Type::Bool, cost, 1.0))
    }
}
