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

/// Parses an expression into the `cel` crate's AST (standard macros expanded).
pub fn parse_ast(
    expr: &str,
) -> Result<(cel::common::ast::IdedExpr, cel::common::ast::SourceInfo), CelError> {
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
