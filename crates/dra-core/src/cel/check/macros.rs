//! The macros the parser leaves as calls, checked: `cel.bind`, the
//! two-variable comprehensions, `optMap`/`optFlatMap` and ext lists'
//! `sortBy`.

use cel::common::ast::{CallExpr, Expr, IdedExpr};

use super::{c, iteration_vars, Checked, Checker, CompileError, CompileErrorKind, Type};

impl Checker<'_> {
    /// `cel.bind(x, init, body)`, `list.all(i, v, p)` and friends, `opt.optMap(x, e)`.
    pub(super) fn special_call(
        &mut self,
        e: &IdedExpr,
        call: &CallExpr,
    ) -> Result<Option<Checked>, CompileError> {
        let ident = |x: &IdedExpr| match &x.expr {
            Expr::Ident(n) => Some(n.clone()),
            _ => None,
        };
        let name = call.func_name.as_str();
        let target_is = |n: &str| {
            call.target
                .as_ref()
                .is_some_and(|t| matches!(&t.expr, Expr::Ident(i) if i == n))
        };
        if name == "bind" && target_is("cel") && call.args.len() == 3 {
            let Some(var) = ident(&call.args[0]) else {
                return Err(self.err(
                    e,
                    CompileErrorKind::Type,
                    "cel.bind() variable name must be a simple identifier".into(),
                ));
            };
            let init = self.child(&call.args[1])?;
            self.scopes.push((
                var,
                Checked {
                    cost: 0.0,
                    ..init.clone()
                },
            ));
            let body = self.child(&call.args[2]);
            self.scopes.pop();
            let body = body?;
            return Ok(Some(Checked {
                cost: 10.0 + init.cost + body.cost,
                ..body
            }));
        }
        let two_var = crate::cel::is_two_var_macro(name);
        if two_var && call.target.is_some() && call.args.len() >= 3 {
            let (Some(v1), Some(v2)) = (ident(&call.args[0]), ident(&call.args[1])) else {
                return Err(self.err(
                    e,
                    CompileErrorKind::Type,
                    format!("{name}() variable names must be simple identifiers"),
                ));
            };
            let range = self.child(call.target.as_deref().expect("checked"))?;
            let (t1, t2) = match &range.ty {
                Type::List(t) => (Type::Int, (**t).clone()),
                Type::Map(k, v) => ((**k).clone(), (**v).clone()),
                _ => (Type::Dyn, Type::Dyn),
            };
            let key = t1.clone();
            let (first, second) = iteration_vars(&range, t1, t2, true);
            self.scopes.push((v1, first));
            self.scopes.push((v2, second));
            let mut body_cost = 0.0;
            let mut last = Type::Dyn;
            let mut res = Ok(());
            for a in &call.args[2..] {
                match self.child(a) {
                    Ok(t) => {
                        body_cost += t.cost;
                        last = t.ty;
                    }
                    Err(er) => {
                        res = Err(er);
                        break;
                    }
                }
            }
            self.scopes.pop();
            self.scopes.pop();
            res?;
            let ty = match name {
                "all" | "exists" | "existsOne" | "exists_one" => Type::Bool,
                "transformList" => Type::list(last),
                // The expansion inserts into `{}` (cel.@mapInsert), whose
                // parameters the key and the value (or the entry) bind.
                "transformMap" => Type::Map(Box::new(key), Box::new(last)),
                _ if matches!(last, Type::Map(..)) => last,
                _ => Type::free_map(),
            };
            return Ok(Some(c(
                ty,
                range.cost + super::times(range.size, body_cost + 1.0),
                range.size,
            )));
        }
        // ext lists' sortBy macro (ListsVersion 2+, so only where ext lists
        // are declared): cel-go refuses a target of another kind when it
        // expands the macro, and a variable that is not an identifier.
        if name == "sortBy" && self.env.ext_lists && call.args.len() == 2 {
            if let Some(t) = call.target.as_deref() {
                if !matches!(
                    t.expr,
                    Expr::List(_)
                        | Expr::Select(_)
                        | Expr::Ident(_)
                        | Expr::Call(_)
                        | Expr::Comprehension(_)
                ) {
                    return Err(self.err(
                        t,
                        CompileErrorKind::Syntax,
                        "sortBy can only be applied to a list, identifier, comprehension, call or select expression".into(),
                    ));
                }
                let Some(var) = ident(&call.args[0]) else {
                    return Err(self.err(
                        &call.args[0],
                        CompileErrorKind::Syntax,
                        "argument is not an identifier".into(),
                    ));
                };
                let range = self.child(t)?;
                let element = match &range.ty {
                    Type::List(e) => (**e).clone(),
                    Type::Dyn | Type::Any => Type::Dyn,
                    _ => Type::Dyn,
                };
                let (element, _) = iteration_vars(&range, element, Type::Dyn, false);
                self.scopes.push((var, element));
                let key = self.child(&call.args[1]);
                self.scopes.pop();
                let key = key?;
                let comparable = matches!(
                    key.ty.as_dyn(),
                    Type::Int
                        | Type::Uint
                        | Type::Double
                        | Type::Bool
                        | Type::Duration
                        | Type::Timestamp
                        | Type::String
                        | Type::Bytes
                        | Type::Dyn
                );
                if !comparable {
                    let list_of = |t: &Type| Type::list(t.clone()).name();
                    return Err(self.err(
                        e,
                        CompileErrorKind::Type,
                        format!(
                            "found no matching overload for '@sortByAssociatedKeys' applied to '{}.({})'",
                            range.ty.name(),
                            list_of(&key.ty)
                        ),
                    ));
                }
                // The expansion's cost, approximated: the key computed per
                // element (a map comprehension), then the sort.
                let ty = match &range.ty {
                    Type::List(_) => range.ty.clone(),
                    _ => Type::list(Type::Dyn),
                };
                return Ok(Some(c(
                    ty,
                    range.cost
                        + super::times(range.size, key.cost + 1.0)
                        + super::times(range.size, range.size.max(1.0).log2().ceil()),
                    range.size,
                )));
            }
        }
        if matches!(name, "optMap" | "optFlatMap") && call.args.len() == 2 {
            let Some(var) = ident(&call.args[0]) else {
                return Ok(None);
            };
            let target = self.child(call.target.as_deref().expect("optMap has a target"))?;
            let inner = match &target.ty {
                Type::Optional(t) => (**t).clone(),
                _ => Type::Dyn,
            };
            self.scopes.push((var, c(inner, 0.0, target.size)));
            let body = self.child(&call.args[1]);
            self.scopes.pop();
            let body = body?;
            let ty = if name == "optMap" {
                Type::Optional(Box::new(body.ty))
            } else {
                body.ty
            };
            return Ok(Some(c(ty, target.cost + body.cost + 1.0, body.size)));
        }
        Ok(None)
    }
}
