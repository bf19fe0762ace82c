//! CEL selector expressions: parsing for now (syntax errors with their
//! position inside the expression).

/// A CEL syntax error; `line` is 1-based within the expression, `column`
/// 1-based in characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelError {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

/// cel-go's parser limit (`maxRecursionDepth`, 250 by default; the
/// apiserver's CEL environments do not change it). It bounds two things:
/// how deep any grammar rule nests (the parse listener: "expression
/// recursion limit exceeded: 250"), and how deeply the visitor nests
/// selections, calls, indexes and operators ("max recursion depth
/// exceeded").
pub const CEL_GO_RECURSION: usize = 250;

/// The `cel` crate's own expression-depth limit, above cel-go's: the bracket
/// scan below decides first.
const MAX_RECURSION: u16 = CEL_GO_RECURSION as u16 + 1;

/// Shortens ANTLR's "mismatched input 'x' expecting {...}" to what a user needs.
pub fn short_message(msg: &str) -> String {
    let msg = msg.strip_prefix("Syntax error: ").unwrap_or(msg);
    if let Some(rest) = msg.strip_prefix("mismatched input ") {
        let token = rest.split(" expecting").next().unwrap_or(rest);
        if token == "'<EOF>'" {
            return "syntax error: the expression ends too early".into();
        }
        return format!("syntax error: unexpected {token}");
    }
    if let Some(rest) = msg.strip_prefix("extraneous input ") {
        let token = rest.split(" expecting").next().unwrap_or(rest);
        return format!("syntax error: unexpected {token}");
    }
    format!("syntax error: {msg}")
}

/// Parses an expression; the error names the first problem.
pub fn parse(expr: &str) -> Result<(), CelError> {
    match &*parse_ast(expr) {
        Ok(_) => Ok(()),
        Err(e) => Err(e.clone()),
    }
}

/// Deepest bracket nesting accepted: each level nests the `expr` rule once
/// more, and cel-go's listener refuses a rule nested deeper than 250.
pub const MAX_BRACKET_DEPTH: usize = CEL_GO_RECURSION - 1;

/// Stack for the parser thread: the generated parser recurses deeply (prefix
/// operators, brackets) before its own depth check applies.
const PARSER_STACK: usize = 256 << 20;

/// The 1-based column where bracket nesting first exceeds the limit, ignoring
/// brackets inside string literals.
fn too_deep(expr: &str) -> Option<u32> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in expr.chars().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_BRACKET_DEPTH {
                    return Some(i as u32 + 1);
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

type Parsed = (cel::common::ast::IdedExpr, cel::common::ast::SourceInfo);

fn parse_here(expr: &str) -> Result<Parsed, CelError> {
    // The parser is third-party code: a panic in it must not take the run down.
    let result = std::panic::catch_unwind(|| {
        cel::parser::Parser::new()
            .max_recursion_depth(MAX_RECURSION)
            .enable_optional_syntax(true)
            .parse_with_source_info(expr)
    });
    match result {
        Ok(Ok(_)) if super::depth::rule_depth(expr, CEL_GO_RECURSION) > CEL_GO_RECURSION => {
            Err(CelError {
                message: format!("expression recursion limit exceeded: {CEL_GO_RECURSION}"),
                line: 1,
                column: 1,
            })
        }
        Ok(Ok(r)) if visitor_depth(&r.0) > CEL_GO_RECURSION => Err(CelError {
            // (The deep tree is dropped here, on the parser's big stack.)
            message: "max recursion depth exceeded".into(),
            line: 1,
            column: 1,
        }),
        Ok(Ok(r)) => Ok(r),
        Ok(Err(errs)) => {
            let first = errs.errors.first();
            Err(CelError {
                message: first.map_or_else(|| "syntax error".to_owned(), |e| e.msg.clone()),
                line: first.map_or(1, |e| e.pos.0.max(1) as u32),
                column: first.map_or(1, |e| e.pos.1.max(1) as u32),
            })
        }
        Err(_) => Err(CelError {
            message: "the expression could not be parsed".into(),
            line: 1,
            column: 1,
        }),
    }
}

/// How deep cel-go's parser visitor nests (`checkAndIncrementRecursionDepth`):
/// selections, member calls (macros included), indexes, arithmetic and
/// relational operators and the conditional count a level; `&&`, `||`,
/// unary operators, global calls and literals do not. Walked with an
/// explicit stack: the tree may be thousands deep.
fn visitor_depth(root: &cel::common::ast::IdedExpr) -> usize {
    use cel::common::ast::{EntryExpr, Expr};
    let mut deepest = 0;
    let mut stack = vec![(root, 0usize)];
    while let Some((e, above)) = stack.pop() {
        let counts = match &e.expr {
            Expr::Select(_) | Expr::Comprehension(_) => true,
            Expr::Call(c) => {
                c.target.is_some()
                    || matches!(
                        c.func_name.as_str(),
                        "_+_"
                            | "_-_"
                            | "_*_"
                            | "_/_"
                            | "_%_"
                            | "_==_"
                            | "_!=_"
                            | "_<_"
                            | "_<=_"
                            | "_>_"
                            | "_>=_"
                            | "@in"
                            | "_?_:_"
                            | "_[_]"
                            | "_[?_]"
                            | "_?._"
                    )
            }
            _ => false,
        };
        let depth = above + usize::from(counts);
        deepest = deepest.max(depth);
        if deepest > CEL_GO_RECURSION {
            break;
        }
        match &e.expr {
            Expr::Select(s) => stack.push((&s.operand, depth)),
            Expr::Call(c) => {
                stack.extend(c.target.as_deref().map(|t| (t, depth)));
                stack.extend(c.args.iter().map(|a| (a, depth)));
            }
            Expr::Comprehension(c) => {
                for part in [
                    &c.iter_range,
                    &c.accu_init,
                    &c.loop_cond,
                    &c.loop_step,
                    &c.result,
                ] {
                    stack.push((part, depth));
                }
            }
            Expr::List(l) => stack.extend(l.elements.iter().map(|x| (x, depth))),
            Expr::Map(m) => {
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        stack.push((&me.key, depth));
                        stack.push((&me.value, depth));
                    }
                }
            }
            Expr::Struct(st) => {
                for entry in &st.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        stack.push((&f.value, depth));
                    }
                }
            }
            _ => {}
        }
    }
    deepest
}

/// Parses an expression into the `cel` crate's AST (standard macros expanded),
/// on a thread with a large stack so that no input can overflow it.
///
/// A parse depends on the text alone, and one thread per parse costs a
/// fresh stack (zeroed pages, a map and an unmap): `capacity` compiles the
/// same few selectors for every copy on every node, so each worker thread
/// keeps the last parses.
pub fn parse_ast(expr: &str) -> std::rc::Rc<Result<Parsed, CelError>> {
    /// Parses kept per thread; past it, the memory is released and refilled.
    const KEPT: usize = 256;
    type Kept = std::collections::HashMap<String, std::rc::Rc<Result<Parsed, CelError>>>;
    thread_local! {
        static PARSED: std::cell::RefCell<Kept> = Default::default();
    }
    if let Some(hit) = PARSED.with(|p| p.borrow().get(expr).cloned()) {
        return hit;
    }
    let parsed = std::rc::Rc::new(parse_fresh(expr));
    PARSED.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() >= KEPT {
            p.clear();
        }
        p.insert(expr.to_owned(), parsed.clone());
    });
    parsed
}

fn parse_fresh(expr: &str) -> Result<Parsed, CelError> {
    if let Some(col) = too_deep(expr) {
        return Err(CelError {
            message: format!("expression recursion limit exceeded: {CEL_GO_RECURSION}"),
            line: 1,
            column: col,
        });
    }
    let owned = expr.to_owned();
    let spawned = std::thread::Builder::new()
        .name("cel-parse".into())
        .stack_size(PARSER_STACK)
        .spawn(move || parse_here(&owned));
    match spawned {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(CelError {
                message: "the expression could not be parsed".into(),
                line: 1,
                column: 1,
            })
        }),
        // No thread available: parse here, within the bracket limit.
        Err(_) => parse_here(expr),
    }
}

#[cfg(test)]
mod tests {
    /// cel-go's parser limits at its default `maxRecursionDepth` of 250
    /// (parser.go: recursionListener.EnterEveryRule,
    /// checkAndIncrementRecursionDepth), which the apiserver keeps: 249
    /// nested brackets, selections or `+` terms parse, one more does not,
    /// and no depth within the length limit overflows a stack.
    #[test]
    fn recursion_limits_are_cel_gos() {
        let parses = |e: &str| super::parse(e).map_err(|e| e.message);
        let nested = |n: usize| format!("{}true{}", "(".repeat(n), ")".repeat(n));
        assert!(parses(&nested(249)).is_ok());
        assert_eq!(
            parses(&nested(250)).unwrap_err(),
            "expression recursion limit exceeded: 250"
        );
        let chain = |n: usize| format!("device{} == 1", ".a".repeat(n));
        assert!(parses(&chain(249)).is_ok());
        assert_eq!(
            parses(&chain(250)).unwrap_err(),
            "expression recursion limit exceeded: 250"
        );
        // Chains within chains (through brackets): the visitor's limit.
        let wrapped = format!("({})", chain(200)) + &".a".repeat(60);
        assert_eq!(
            parses(&wrapped).unwrap_err(),
            "max recursion depth exceeded"
        );
        // 4,000 selections: refused, not a stack overflow.
        assert!(parses(&chain(4000)).is_err());
        let sum = |terms: usize| vec!["1"; terms].join("+");
        assert!(parses(&sum(249)).is_ok());
        assert_eq!(
            parses(&sum(250)).unwrap_err(),
            "expression recursion limit exceeded: 250"
        );
        // `&&` and `||` chains are balanced by the parser: not deep.
        assert!(parses(&vec!["true"; 1000].join(" && ")).is_ok());
    }

    #[test]
    fn syntax_errors_have_positions() {
        assert!(super::parse("device.driver == \"a\"").is_ok());
        let e = super::parse("device.driver == ").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.column >= 15, "{e:?}");
        let e = super::parse("a &&\n  (b").unwrap_err();
        assert_eq!(e.line, 2, "{e:?}");
    }
}
