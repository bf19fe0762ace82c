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

/// Deepest nesting the parser accepts, as cel-go's default (Kubernetes uses 32
/// for its own limits; the parser limit guards the stack).
const MAX_RECURSION: u16 = 96;

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
    parse_ast(expr).map(|_| ())
}

/// Deepest bracket nesting accepted; the parser itself gives up near 100.
pub const MAX_BRACKET_DEPTH: usize = 50;

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

/// Parses an expression into the `cel` crate's AST (standard macros expanded),
/// on a thread with a large stack so that no input can overflow it.
pub fn parse_ast(expr: &str) -> Result<Parsed, CelError> {
    if let Some(col) = too_deep(expr) {
        return Err(CelError {
            message: format!("expression nesting exceeds {MAX_BRACKET_DEPTH} levels"),
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
