//! What cel-go's planner does when the program is built, before any device
//! is seen. The Kubernetes base environment plans with `cel.OptOptimize`
//! (`apiserver/pkg/cel/environment/base.go`), whose decorator
//! (`interpreter/decorators.go` decOptimize → maybeOptimizeConstUnary)
//! evaluates every type conversion of a constant once; one that fails makes
//! `env.Program` fail, and `CompileCELExpression` returns "program
//! instantiation failed" (an internal error to the apiserver, a CEL compile
//! error to the allocator), wherever the call sits: `true || int("x") > 0`
//! is refused, not true.

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

use super::functions;
use super::value::Value;

/// cel-go's `overloads.IsTypeConversionFunction`.
const CONVERSIONS: [&str; 10] = [
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// The first constant conversion that fails when the program is built, as
/// cel-go's error text.
pub(super) fn failed_constant_conversion(e: &IdedExpr) -> Option<String> {
    fold(e).err()
}

/// The value of a list literal of constants, built once per program as
/// cel-go's planner builds it (`maybeBuildListLiteral`).
pub(super) fn constant_list(e: &IdedExpr) -> Option<Value> {
    match &e.expr {
        Expr::List(_) => fold(e).ok().flatten(),
        _ => None,
    }
}

/// The value of a constant the planner builds (a literal, a list or map of
/// constants, a conversion of a constant), `None` for anything that needs a
/// device; the error of a constant conversion that fails. Children are
/// planned first, as cel-go plans them.
fn fold(e: &IdedExpr) -> Result<Option<Value>, String> {
    match &e.expr {
        Expr::Literal(l) => Ok(Some(literal(l))),
        Expr::List(l) => {
            let mut items = Vec::with_capacity(l.elements.len());
            for x in &l.elements {
                items.push(fold(x)?);
            }
            let constant = l.optional_indices.is_empty() && items.iter().all(Option::is_some);
            Ok(constant
                .then(|| Value::List(std::sync::Arc::new(items.into_iter().flatten().collect()))))
        }
        Expr::Map(m) => {
            for entry in &m.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    fold(&me.key)?;
                    fold(&me.value)?;
                }
            }
            // A constant map is never a conversion's valid operand; its
            // value is not needed.
            Ok(None)
        }
        Expr::Call(c) => {
            let mut args = Vec::with_capacity(c.args.len());
            if let Some(t) = &c.target {
                fold(t)?;
            }
            for a in &c.args {
                args.push(fold(a)?);
            }
            let name = c.func_name.as_str();
            // With OptOptimize cel-go compiles a constant pattern of
            // `matches` when the program is built, and the Kubernetes regex
            // library's OptimizeRegex does so for `find` and `findAll`
            // (`apiserver/pkg/cel/library/regex.go`); the index counts the
            // receiver, so it is the pattern in either call style.
            if matches!(name, "matches" | "find" | "findAll") {
                let pattern = if c.target.is_some() {
                    args.first()
                } else {
                    args.get(1)
                };
                if let Some(Some(Value::String(p))) = pattern {
                    functions::regex(p)?;
                }
            }
            match (
                c.target.is_none() && CONVERSIONS.contains(&name),
                args.as_slice(),
            ) {
                (true, [Some(v)]) => {
                    functions::call(name, None, None, std::slice::from_ref(v)).map(Some)
                }
                _ => Ok(None),
            }
        }
        _ => {
            for child in super::children(e) {
                fold(child)?;
            }
            Ok(None)
        }
    }
}

pub(super) fn literal(l: &LiteralValue) -> Value {
    match l {
        LiteralValue::Boolean(b) => Value::Bool(*b.inner()),
        LiteralValue::Bytes(b) => Value::Bytes(b.inner().to_vec().into()),
        LiteralValue::Double(d) => Value::Double(*d.inner()),
        LiteralValue::Int(i) => Value::Int(*i.inner()),
        LiteralValue::Null => Value::Null,
        LiteralValue::String(s) => Value::String(s.inner().into()),
        LiteralValue::UInt(u) => Value::Uint(*u.inner()),
    }
}

#[cfg(test)]
mod tests {
    use crate::cel::{CompileErrorKind, Env, Program};

    fn refusal(expr: &str) -> Option<String> {
        match Program::compile(expr, &Env::stored_latest()) {
            Err(e) if e.kind == CompileErrorKind::Instantiation => Some(e.message),
            Err(e) => panic!("{expr}: {e:?}"),
            Ok(_) => None,
        }
    }

    #[test]
    fn failing_constant_conversions_refuse_the_program() {
        for e in [
            r#"int("pci0000:80") > 0"#,
            r#"true || int("x") > 0"#,
            r#"device.driver == "a" || uint("-1") == 1u"#,
            r#"double("one") > 0.0"#,
            r#"bool("maybe")"#,
            // Folded inside out: string(1) is "1", then int("1") is fine,
            // but int(string(1.5)) is int("1.5").
            r#"int(string(1.5)) == 1"#,
        ] {
            let m = refusal(e).unwrap_or_else(|| panic!("{e}: compiled"));
            assert!(m.starts_with("program instantiation failed: "), "{e}: {m}");
        }
        assert_eq!(
            refusal(r#"int("x") > 0"#).unwrap(),
            "program instantiation failed: type conversion error from 'string' to 'int'"
        );
        // A conversion of a folded constant: Go's time.ParseDuration refuses
        // it, and String.ConvertToType words it (`common/types/string.go`).
        assert_eq!(
            refusal(r#"duration(string(b"1d")) > duration("0s")"#).unwrap(),
            "program instantiation failed: type conversion error from 'string' to 'google.protobuf.Duration'"
        );
        // A constant pattern that is not a literal (the literal one is the
        // validator's, at type-check) fails when the program is built.
        for e in [
            r#""a".find(string(b"(")) == """#,
            r#""a".findAll("(").size() == 0"#,
            r#""a".matches(string(b"("))"#,
        ] {
            let m = refusal(e).unwrap_or_else(|| panic!("{e}: compiled"));
            assert!(
                m.starts_with("program instantiation failed: error parsing regexp: "),
                "{e}: {m}"
            );
        }
        // Conversions of what a device holds are evaluated per device.
        for e in [
            r#"int(device.attributes["d"].s) > 0"#,
            r#"int("12") == 12 && string(1) == "1""#,
            r#"[int("1"), 2].size() == 2"#,
            r#"dyn(1) == 1 && type(1) == int && bytes("a") == b"a""#,
            r#"duration("1s") > duration("0s") && timestamp("2020-01-01T00:00:00Z") > timestamp("2019-01-01T00:00:00Z")"#,
            r#"device.attributes["d"].s.find("(a)") == "a""#,
        ] {
            assert_eq!(refusal(e), None, "{e}");
        }
    }
}
