//! A selector taken apart where it is written as `A && B && C`, each term
//! with its own text, and a term that compares what a device holds with a
//! constant (`device.attributes["d"].model == "h100"`) split into its two
//! sides: so that explain can say which term keeps every device out and
//! what the devices hold there instead. The text is cut at the operator
//! tokens the parser records, so each piece is the user's own writing.

use cel::common::ast::{operators as op, Expr, IdedExpr, SourceInfo};

/// One `&&` term of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub text: String,
    /// `device-side OP constant` (either order), when the term is one
    /// comparison whose one side reads the device and the other does not.
    pub comparison: Option<Comparison>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The side that reads the device, as written (`device.attributes["d"].model`).
    pub read: String,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` or `in`, as if the read were on the left.
    pub op: &'static str,
    /// The constant side, as written (`"h100"`).
    pub constant: String,
}

/// The `&&` terms of `source` (one term when it has no top-level `&&`, or
/// when it cannot be cut cleanly: the whole expression in parentheses), or
/// `None` when it does not parse.
pub fn terms(source: &str) -> Option<Vec<Term>> {
    let parsed = super::parse::parse_ast(source);
    let (expr, info) = parsed.as_ref().as_ref().ok()?;
    Some(cut(expr, info, source).unwrap_or_else(|| {
        vec![Term {
            text: source.trim().to_owned(),
            comparison: None,
        }]
    }))
}

fn cut(expr: &IdedExpr, info: &SourceInfo, source: &str) -> Option<Vec<Term>> {
    let mut parts = Vec::new();
    flatten_and(expr, &mut parts);
    let mut cuts: Vec<(u32, u32)> = Vec::new();
    collect_and_tokens(expr, info, &mut cuts);
    cuts.sort_unstable();
    if cuts.len() + 1 != parts.len() {
        return None;
    }
    let mut start = 0usize;
    let mut out = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        let end = cuts.get(i).map_or(source.len(), |c| c.0 as usize);
        let piece = source.get(start..end)?;
        let trimmed = piece.trim();
        if !balanced(trimmed) {
            return None;
        }
        let lead = piece.len() - piece.trim_start().len();
        out.push(Term {
            text: trimmed.to_owned(),
            comparison: comparison(
                part,
                info,
                source,
                start + lead,
                start + lead + trimmed.len(),
            ),
        });
        // The recorded stop is the token's last byte.
        start = cuts.get(i).map_or(source.len(), |c| c.1 as usize + 1);
    }
    Some(out)
}

fn flatten_and<'a>(e: &'a IdedExpr, out: &mut Vec<&'a IdedExpr>) {
    match &e.expr {
        Expr::Call(c)
            if c.func_name == op::LOGICAL_AND && c.args.len() == 2 && c.target.is_none() =>
        {
            flatten_and(&c.args[0], out);
            flatten_and(&c.args[1], out);
        }
        _ => out.push(e),
    }
}

/// The source ranges of the `&&` tokens joining the top-level terms.
fn collect_and_tokens(e: &IdedExpr, info: &SourceInfo, out: &mut Vec<(u32, u32)>) {
    if let Expr::Call(c) = &e.expr {
        if c.func_name == op::LOGICAL_AND && c.args.len() == 2 && c.target.is_none() {
            if let Some(range) = info.offset_for(e.id) {
                out.push(range);
            }
            collect_and_tokens(&c.args[0], info, out);
            collect_and_tokens(&c.args[1], info, out);
        }
    }
}

/// Brackets and parentheses close what they open, outside string literals.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for open in super::parse::brackets(text) {
        depth += if open { 1 } else { -1 };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

fn reads_device(e: &IdedExpr) -> bool {
    matches!(&e.expr, Expr::Ident(name) if name == "device")
        || super::children(e).into_iter().any(reads_device)
}

/// `read OP constant` or `constant OP read`, cut at the operator token
/// (the call's recorded position) within `[start, end)` of `source`; or a
/// comparison written as a method of the read (`read.isGreaterThan(c)`,
/// `read.compareTo(c) >= 0`, `read.matches(c)`), whose read is the
/// method's receiver: what the devices hold is the receiver's value, not
/// the method's answer.
fn comparison(
    e: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    start: usize,
    end: usize,
) -> Option<Comparison> {
    let Expr::Call(c) = &e.expr else { return None };
    if c.target.is_some() {
        return method_comparison(e, info, source, start, end, false)
            .filter(|c| c.op != "compareTo");
    }
    if c.func_name == op::LOGICAL_NOT && c.args.len() == 1 {
        // `!read.isLessThan(c)`: the member starts past the `!`.
        let (at, _) = info.offset_for(e.id)?;
        let inner = source
            .get(start..end)?
            .find(|ch: char| !ch.is_whitespace())?
            + start;
        if inner != at as usize {
            return None;
        }
        return method_comparison(&c.args[0], info, source, inner + 1, end, true)
            .filter(|c| c.op != "compareTo");
    }
    if c.args.len() != 2 {
        return None;
    }
    let (op, flipped) = match c.func_name.as_str() {
        op::EQUALS => ("==", "=="),
        op::NOT_EQUALS => ("!=", "!="),
        op::LESS => ("<", ">"),
        op::LESS_EQUALS => ("<=", ">="),
        op::GREATER => (">", "<"),
        op::GREATER_EQUALS => (">=", "<="),
        op::IN => ("in", ""),
        _ => return None,
    };
    let (at, past) = info.offset_for(e.id)?;
    let (at, past) = (at as usize, past as usize + 1);
    if !(start <= at && past <= end) {
        return None;
    }
    let left = source.get(start..at)?.trim().to_owned();
    let right = source.get(past..end)?.trim().to_owned();
    if !balanced(&left) || !balanced(&right) || left.is_empty() || right.is_empty() {
        return None;
    }
    let compares_to = |a: &IdedExpr| matches!(&a.expr, Expr::Call(m) if m.func_name == "compareTo");
    if c.args.iter().any(compares_to) {
        // Its answer (-1, 0, 1) is no value a device holds.
        return compare_to(&c.args, op, flipped, info, source, (start, at), (past, end));
    }
    match (reads_device(&c.args[0]), reads_device(&c.args[1])) {
        (true, false) => Some(Comparison {
            read: left,
            op,
            constant: right,
        }),
        // `"h100" in device...` reads as membership, which has no mirror.
        (false, true) if !flipped.is_empty() => Some(Comparison {
            read: right,
            op: flipped,
            constant: left,
        }),
        _ => None,
    }
}

/// `read.compareTo(c) OP k` (either order), with `k` an integer: the
/// comparison of the read with `c` it stands for (`compareTo` answers -1,
/// 0 or 1, so `>= 0` is `>=`, `== -1` is `<`, `> -1` is `>=`).
fn compare_to(
    args: &[IdedExpr],
    op: &'static str,
    flipped: &'static str,
    info: &SourceInfo,
    source: &str,
    left: (usize, usize),
    right: (usize, usize),
) -> Option<Comparison> {
    let ((call, call_at), k, op) = match (int_literal(&args[1]), int_literal(&args[0])) {
        (Some(k), _) => ((&args[0], left), k, op),
        (None, Some(k)) if !flipped.is_empty() => ((&args[1], right), k, flipped),
        _ => return None,
    };
    let Expr::Call(m) = &call.expr else {
        return None;
    };
    if m.func_name != "compareTo" {
        return None;
    }
    let answers = [-1i64, 0, 1].map(|r| match op {
        "==" => r == k,
        "!=" => r != k,
        "<" => r < k,
        "<=" => r <= k,
        ">" => r > k,
        ">=" => r >= k,
        _ => false,
    });
    let op = match answers {
        [true, false, false] => "<",
        [true, true, false] => "<=",
        [false, true, false] => "==",
        [false, true, true] => ">=",
        [false, false, true] => ">",
        [true, false, true] => "!=",
        _ => return None,
    };
    let mut compared = method_comparison(call, info, source, call_at.0, call_at.1, false)?;
    compared.op = op;
    Some(compared)
}

fn int_literal(e: &IdedExpr) -> Option<i64> {
    use cel::common::ast::LiteralValue;
    match &e.expr {
        Expr::Literal(LiteralValue::Int(i)) => Some(*i.inner()),
        Expr::Call(c) if c.func_name == op::NEGATE && c.args.len() == 1 => {
            int_literal(&c.args[0]).map(|i| -i)
        }
        _ => None,
    }
}

/// `read.f(constant)` written in `[start, end)`: the receiver as the read,
/// `f` as the operator (`isGreaterThan` as `>`; `negated`: under `!`).
fn method_comparison(
    e: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    start: usize,
    end: usize,
    negated: bool,
) -> Option<Comparison> {
    let Expr::Call(c) = &e.expr else { return None };
    let target = c.target.as_deref()?;
    if c.args.len() != 1 || !reads_device(target) || reads_device(&c.args[0]) {
        return None;
    }
    let op = match (c.func_name.as_str(), negated) {
        ("isGreaterThan", false) => ">",
        ("isGreaterThan", true) => "<=",
        ("isLessThan", false) => "<",
        ("isLessThan", true) => ">=",
        // compareTo's answer is read by compare_to.
        ("compareTo", false) => "compareTo",
        ("matches", false) => "matches",
        ("startsWith", false) => "startsWith",
        ("endsWith", false) => "endsWith",
        ("contains", false) => "contains",
        _ => return None,
    };
    // The call's recorded position is its `(`.
    let (open, _) = info.offset_for(e.id)?;
    let open = open as usize;
    if !(start < open && open < end) {
        return None;
    }
    let read = source
        .get(start..open)?
        .trim_end()
        .strip_suffix(c.func_name.as_str())?
        .trim_end()
        .strip_suffix('.')?
        .trim();
    let constant = source.get(open + 1..end)?.trim().strip_suffix(')')?.trim();
    if read.is_empty() || constant.is_empty() || !balanced(read) || !balanced(constant) {
        return None;
    }
    Some(Comparison {
        read: read.to_owned(),
        op,
        constant: constant.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        terms(src).unwrap().into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn terms_are_cut_at_the_top_level_ands() {
        assert_eq!(
            texts(
                r#"device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "h100""#
            ),
            [
                r#"device.driver == "gpu.example.com""#,
                r#"device.attributes["gpu.example.com"].model == "h100""#
            ]
        );
        assert_eq!(
            texts("(a || b) && f(x && y) && [1, 2].all(i, i > 0 && i < 3)"),
            ["(a || b)", "f(x && y)", "[1, 2].all(i, i > 0 && i < 3)"]
        );
        assert_eq!(texts("a\n  &&\n  b && c"), ["a", "b", "c"]);
        assert_eq!(texts("x == 1"), ["x == 1"]);
        // The whole selector in parentheses is one term.
        assert_eq!(texts("(a && b)"), ["(a && b)"]);
        assert_eq!(terms("a &&"), None);
    }

    #[test]
    fn a_comparison_is_split_into_the_read_and_the_constant() {
        let t = terms(r#"device.attributes["gpu.example.com"].model == "h100" && 8 <= device.attributes["gpu.example.com"].cores"#).unwrap();
        assert_eq!(
            t[0].comparison,
            Some(Comparison {
                read: r#"device.attributes["gpu.example.com"].model"#.into(),
                op: "==",
                constant: r#""h100""#.into()
            })
        );
        assert_eq!(
            t[1].comparison,
            Some(Comparison {
                read: r#"device.attributes["gpu.example.com"].cores"#.into(),
                op: ">=",
                constant: "8".into()
            })
        );
        // Both sides read the device, or neither: not a comparison with a constant.
        assert_eq!(
            terms("device.driver == device.driver").unwrap()[0].comparison,
            None
        );
        assert_eq!(
            terms(r#"has(device.attributes["d"].x)"#).unwrap()[0].comparison,
            None
        );
    }

    fn compared(src: &str) -> Option<(String, &'static str, String)> {
        let t = terms(src).unwrap().remove(0);
        t.comparison.map(|c| (c.read, c.op, c.constant))
    }

    #[test]
    fn a_method_comparison_reads_its_receiver() {
        let mem = r#"device.capacity["gpu.example.com"].memory"#;
        let q = r#"quantity("40Gi")"#;
        let want = |op| Some((mem.to_owned(), op, q.to_owned()));
        assert_eq!(compared(&format!("{mem}.isGreaterThan({q})")), want(">"));
        assert_eq!(compared(&format!("{mem}.isLessThan( {q} )")), want("<"));
        assert_eq!(compared(&format!("!{mem}.isLessThan({q})")), want(">="));
        assert_eq!(compared(&format!("! {mem}.isGreaterThan({q})")), want("<="));
        // compareTo answers -1, 0 or 1: what `OP k` keeps of those.
        for (tail, op) in [
            (">= 0", ">="),
            ("> 0", ">"),
            ("== 1", ">"),
            ("> -1", ">="),
            ("== -1", "<"),
            ("<= 0", "<="),
            ("< 1", "<="),
            ("== 0", "=="),
            ("!= 0", "!="),
        ] {
            assert_eq!(
                compared(&format!("{mem}.compareTo({q}) {tail}")),
                want(op),
                "{tail}"
            );
        }
        assert_eq!(compared(&format!("0 <= {mem}.compareTo({q})")), want(">="));
        assert_eq!(compared(&format!("-1 == {mem}.compareTo({q})")), want("<"));
        // Every answer, or none, kept: no comparison.
        assert_eq!(compared(&format!("{mem}.compareTo({q}) >= -1")), None);
        assert_eq!(compared(&format!("{mem}.compareTo({q}) > 1")), None);
        let model = r#"device.attributes["gpu.example.com"].model"#;
        assert_eq!(
            compared(&format!(r#"{model}.matches("^a100")"#)),
            Some((model.to_owned(), "matches", r#""^a100""#.to_owned()))
        );
        assert_eq!(
            compared(&format!(r#"{model}.startsWith("a1")"#)),
            Some((model.to_owned(), "startsWith", r#""a1""#.to_owned()))
        );
        // The argument reads the device, or the method is no comparison.
        assert_eq!(compared(&format!("{mem}.isGreaterThan({mem})")), None);
        assert_eq!(compared(&format!(r#"!{model}.matches("x")"#)), None);
        assert_eq!(
            compared(&format!(r#"{model}.lowerAscii() == "x""#))
                .unwrap()
                .0,
            format!("{model}.lowerAscii()")
        );
        // Within a longer selector.
        let t = terms(&format!(
            r#"device.driver == "d" && {mem}.compareTo({q}) >= 0"#
        ))
        .unwrap();
        assert_eq!(t[1].comparison.as_ref().unwrap().read, mem);
    }
}
