//! What one call costs at run time, as cel-go's cost tracker charges it.
//!
//! The DRA compiler (`dynamic-resource-allocation/cel/compile.go`) builds its
//! program with `cel.CostLimit` and no `cel.CostTracking` estimator, so only
//! cel-go's own table applies (`interpreter/runtimecost.go` costCall) plus the
//! trackers a library registers (ext.Sets: `1 + |a|·|b|`, twice for
//! `equivalent`). Every other call costs one. cel-go charges a call after it
//! ran; here the same sum is charged before, so a call that would cost more
//! than the whole budget (a membership test over a long list repeated in a
//! comprehension) stops before the work is done, with the same verdict.

use cel::common::ast::{operators as op, EntryExpr, Expr, IdedExpr, LiteralValue};

use super::value::Value;

/// cel-go's `common.StringTraversalCostFactor`.
const TRAVERSAL: f64 = 0.1;
/// cel-go's `common.RegexStringLengthCostFactor`.
const REGEX_LENGTH: f64 = 0.25;

/// cel-go's `actualSize`: a Sizer's size (code points for strings, bytes,
/// elements, entries), one for anything else.
pub(super) fn size(v: &Value) -> u64 {
    match v {
        Value::String(s) => {
            // Counting code points walks the string; ASCII needs no walk.
            if s.is_ascii() {
                s.len() as u64
            } else {
                s.chars().count() as u64
            }
        }
        Value::Bytes(b) => b.len() as u64,
        Value::List(l) => l.len() as u64,
        Value::Map(m) | Value::Domains(m) => m.entries.len() as u64,
        _ => 1,
    }
}

/// `s.matches(re)`: the subject's length (plus one) times the pattern's.
pub(super) fn matches_cost(subject: &Value, pattern: &Value) -> u64 {
    matches_cost_of_sizes(size(subject), size(pattern))
}

/// [`matches_cost`] of the operands' sizes (code points).
pub(super) fn matches_cost_of_sizes(subject: u64, pattern: u64) -> u64 {
    let text = ((1 + subject) as f64 * TRAVERSAL).ceil() as u64;
    let regex = (pattern as f64 * REGEX_LENGTH).ceil() as u64;
    text.saturating_mul(regex)
}

/// cel-go's `common.ListCreateBaseCost` and `MapCreateBaseCost`.
pub(super) const LIST_CREATE: u64 = 10;
pub(super) const MAP_CREATE: u64 = 30;

/// A literal, or a list or map of them: cel-go's planner with OptOptimize
/// builds these once (`maybeBuildListLiteral`), so creating them costs
/// nothing at run time.
pub(super) fn is_constant(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::Literal(_) => true,
        Expr::List(l) => l.optional_indices.is_empty() && l.elements.iter().all(is_constant),
        Expr::Map(m) => m.entries.iter().all(|entry| match &entry.expr {
            EntryExpr::MapEntry(me) => {
                !me.optional && is_constant(&me.key) && is_constant(&me.value)
            }
            _ => false,
        }),
        _ => false,
    }
}

/// `x in [...]` over a constant list of primitive literals, which cel-go
/// plans as a set membership test (`maybeOptimizeSetMembership`): not a
/// call, so not charged.
pub(super) fn is_constant_set(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::List(l) if l.optional_indices.is_empty() => l
            .elements
            .iter()
            .all(|x| matches!(&x.expr, Expr::Literal(lit) if !matches!(lit, LiteralValue::Null))),
        _ => false,
    }
}

fn traversal(n: u64) -> u64 {
    (n as f64 * TRAVERSAL).ceil() as u64
}

/// The cost of calling `name` (a namespace's function when `namespace` is
/// set) on these operands; the target, if any, is cel-go's first argument.
pub(super) fn call_cost(
    name: &str,
    namespace: Option<&str>,
    target: Option<&Value>,
    args: &[Value],
) -> u64 {
    let mut all = target.into_iter().chain(args.iter());
    let (first, second) = (all.next(), all.next());
    if namespace == Some("sets") {
        let (Some(a), Some(b)) = (first, second) else {
            return 1;
        };
        let product = size(a).saturating_mul(size(b));
        let factor = if name == "equivalent" { 2 } else { 1 };
        return 1u64.saturating_add(product.saturating_mul(factor));
    }
    let string_like = |v: &Value| matches!(v, Value::String(_) | Value::Bytes(_));
    match (name, first, second) {
        ("startsWith" | "endsWith", Some(s @ Value::String(_)), _) => traversal(size(s)),
        ("bytes", Some(s @ Value::String(_)), None)
        | ("string", Some(s @ Value::Bytes(_)), None) => traversal(size(s)),
        (op::IN, Some(_), Some(l @ Value::List(_))) => size(l),
        (op::EQUALS | op::NOT_EQUALS, Some(a), Some(b)) => traversal(size(a).min(size(b))),
        (op::LESS | op::LESS_EQUALS | op::GREATER | op::GREATER_EQUALS, Some(a), Some(b))
            if string_like(a) && std::mem::discriminant(a) == std::mem::discriminant(b) =>
        {
            traversal(size(a).min(size(b)))
        }
        (op::ADD, Some(a), Some(b))
            if string_like(a) && std::mem::discriminant(a) == std::mem::discriminant(b) =>
        {
            traversal(size(a).saturating_add(size(b)))
        }
        ("matches", Some(s @ Value::String(_)), Some(re @ Value::String(_))) => matches_cost(s, re),
        ("contains", Some(s @ Value::String(_)), Some(sub @ Value::String(_))) => {
            traversal(size(s)).saturating_mul(traversal(size(sub)))
        }
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn s(x: &str) -> Value {
        Value::String(x.into())
    }

    fn ints(n: i64) -> Value {
        Value::List(Arc::new((0..n).map(Value::Int).collect()))
    }

    // Figures from runtimecost.go's table (costCall) and ext/sets.go's
    // trackers.
    #[test]
    fn costs_follow_cel_go_table() {
        assert_eq!(
            call_cost(op::IN, None, None, &[Value::Int(1), ints(5000)]),
            5000
        );
        assert_eq!(
            call_cost(op::EQUALS, None, None, &[Value::Int(1), Value::Int(2)]),
            1
        );
        assert_eq!(
            call_cost(op::EQUALS, None, None, &[ints(1000), ints(2000)]),
            100
        );
        assert_eq!(
            call_cost(
                op::LESS,
                None,
                None,
                &[s(&"a".repeat(95)), s(&"b".repeat(300))]
            ),
            10
        );
        assert_eq!(
            call_cost(op::LESS, None, None, &[Value::Int(1), Value::Int(2)]),
            1
        );
        assert_eq!(
            call_cost(op::ADD, None, None, &[s("abcde"), s("fghijk")]),
            2
        );
        assert_eq!(
            call_cost("startsWith", None, Some(&s(&"x".repeat(64))), &[s("x")]),
            7
        );
        assert_eq!(
            call_cost(
                "contains",
                None,
                Some(&s(&"x".repeat(100))),
                &[s(&"y".repeat(50))]
            ),
            50
        );
        // (1 + 9) * 0.1 = 1 for the text, ceil(6 * 0.25) = 2 for the pattern.
        assert_eq!(
            call_cost("matches", None, Some(&s("123456789")), &[s("^[0-9]")]),
            2
        );
        assert_eq!(
            call_cost("contains", Some("sets"), None, &[ints(300), ints(400)]),
            120_001
        );
        assert_eq!(
            call_cost("equivalent", Some("sets"), None, &[ints(3), ints(4)]),
            25
        );
        // Everything else costs one: the Kubernetes libraries' own estimator
        // is not given to the DRA program.
        assert_eq!(
            call_cost("lowerAscii", None, Some(&s(&"A".repeat(1000))), &[]),
            1
        );
        assert_eq!(call_cost("size", None, Some(&s(&"A".repeat(1000))), &[]), 1);
    }

    #[test]
    fn strings_are_sized_in_code_points() {
        assert_eq!(size(&s("ééé")), 3);
        assert_eq!(size(&Value::Bytes(Arc::from(&b"\xc3\xa9"[..]))), 2);
    }
}

#[cfg(test)]
mod runtime_tests {
    use std::sync::Arc;

    use crate::cel::{Device, Env, Program};

    fn device() -> Arc<Device> {
        let text = "name: d\nattributes:\n  s: {string: abc}\n";
        let loaded = crate::yaml::load(text, crate::yaml::Limits::default());
        Arc::new(Device::from_node(
            "d.example.com",
            &loaded.documents[0].root,
            true,
        ))
    }

    fn run(expr: &str) -> Result<bool, String> {
        let p = Program::compile(expr, &Env::stored_latest()).map_err(|e| e.message)?;
        p.matches(&device()).map_err(|e| e.0)
    }

    /// A membership test over a 4,000-element list built at run time costs
    /// 4,000 per step in cel-go: the loop stops after some 250 steps, not
    /// after 16 million comparisons.
    #[test]
    fn membership_in_a_long_list_stops_at_the_limit() {
        let e = "lists.range(4000).map(i, i).all(x, x in lists.range(4000).map(i, i))";
        assert_eq!(
            run(e),
            Err("operation cancelled: actual cost limit exceeded".into())
        );
        // A constant list is a set membership test, free in cel-go.
        let consts = (0..100)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let e = format!("lists.range(1000).all(x, x in [{consts}] || x >= 100)");
        assert_eq!(run(&e), Ok(true));
    }

    #[test]
    fn sets_cost_the_product_of_their_sizes() {
        let e = "lists.range(2000).all(x, sets.contains(lists.range(1000), lists.range(1000)))";
        assert_eq!(
            run(e),
            Err("operation cancelled: actual cost limit exceeded".into())
        );
        let e = "sets.contains(lists.range(900), lists.range(900))";
        assert_eq!(run(e), Ok(true));
    }

    /// A constant pattern is compiled when the program is built and its
    /// answers remembered (`cel/pattern.rs`); the verdict and the cost are
    /// those of the general path, which evaluates the same call unplanned.
    #[test]
    fn a_planned_pattern_costs_what_the_general_path_costs() {
        let env = Env::stored_latest();
        for expr in [
            r#"device.attributes["d.example.com"].s.matches("^a[b-c]+$")"#,
            r#"device.attributes["d.example.com"].s.matches("x")"#,
            r#"device.attributes["d.example.com"].s.matches("")"#,
            r#"lists.range(3000).all(i, device.attributes["d.example.com"].s.matches("^(a|b|c)+[a-z]*$"))"#,
            // Past the cost limit: the same error at the same step.
            r#"lists.range(300000).all(i, device.attributes["d.example.com"].s.matches("^(a|b|c)+[a-z]*$"))"#,
        ] {
            let p = Program::compile(expr, &env).unwrap();
            assert!(p.patterns.iter().any(Option::is_some), "{expr} is planned");
            let d = device();
            let mut planned = crate::cel::eval::Eval::new(&d, &p.literals, &p.patterns);
            let mut general = crate::cel::eval::Eval::new(&d, &p.literals, &[]);
            // Twice: the second planned answer comes from the memo.
            for _ in 0..2 {
                let (a, b) = (planned.eval(&p.expr), general.eval(&p.expr));
                if expr.contains("300000") {
                    assert_eq!(
                        a.as_ref().err().map(String::as_str),
                        Some("operation cancelled: actual cost limit exceeded")
                    );
                }
                assert_eq!(
                    a.as_ref().map(|v| v.to_string()),
                    b.as_ref().map(|v| v.to_string()),
                    "{expr}"
                );
                assert_eq!(planned.cost, general.cost, "{expr}");
                planned.cost = 0;
                general.cost = 0;
            }
        }
    }
}
