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
/// (the call's recorded position) within `[start, end)` of `source`.
fn comparison(
    e: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    start: usize,
    end: usize,
) -> Option<Comparison> {
    let Expr::Call(c) = &e.expr else { return None };
    if c.target.is_some() || c.args.len() != 2 {
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
}
