//! CEL selector expressions: parsing, with cel-go's syntax errors and
//! their positions inside the expression.

mod errors;

/// One error of a failed parse, as cel-go reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelError {
    /// cel-go's words, e.g. `Syntax error: mismatched input ...`.
    pub message: String,
    /// 1-based line and column (in characters) within the expression;
    /// `None` where cel-go reports at no location (its limits), displayed
    /// as `-1:0` without a snippet.
    pub position: Option<(u32, u32)>,
}

impl CelError {
    pub(crate) fn at(message: String, position: Option<(u32, u32)>) -> Self {
        CelError { message, position }
    }

    /// `ERROR: <input>:L:C: message`, as cel-go's Error.ToDisplayString
    /// begins (without the snippet).
    pub fn head(&self) -> String {
        match self.position {
            Some((l, c)) => format!("ERROR: <input>:{l}:{c}: {}", self.message),
            None => format!("ERROR: <input>:-1:0: {}", self.message),
        }
    }
}

/// Every error of a failed parse, by position, as cel-go keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxErrors {
    /// At least one.
    pub errors: Vec<CelError>,
    /// Errors counted beyond the 100 cel-go keeps.
    pub unlisted: usize,
}

impl SyntaxErrors {
    fn one(message: String, position: Option<(u32, u32)>) -> Self {
        SyntaxErrors {
            errors: vec![CelError::at(message, position)],
            unlisted: 0,
        }
    }

    /// The first error by position.
    pub fn first(&self) -> &CelError {
        &self.errors[0]
    }

    /// cel-go's `Errors.ToDisplayString()` of them.
    pub fn display(&self, source: &str) -> String {
        crate::cel::snippet::display_errors(
            self.errors.iter().map(|e| (e.head(), e.position)),
            self.unlisted,
            source,
        )
    }
}

/// How the parser is set up. Kubernetes' CEL environments keep cel-go's
/// defaults and turn on optional syntax (`cel.OptionalTypes`); cel-go's own
/// parser tests use others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParserOptions {
    /// `maxRecursionDepth`.
    pub max_recursion_depth: usize,
    /// `errorRecoveryLimit`: recoveries before the parse gives up.
    pub error_recovery_limit: u32,
    /// `errorReportingLimit`: syntax errors before the parse gives up.
    pub error_reporting_limit: usize,
    pub optional_syntax: bool,
    /// Backquoted identifiers: on by default only from cel-go v0.28, after
    /// every release Kubernetes 1.34-1.37 builds with.
    pub ident_escape_syntax: bool,
}

impl ParserOptions {
    /// The apiserver's and the scheduler's parser.
    pub const KUBERNETES: ParserOptions = ParserOptions {
        max_recursion_depth: CEL_GO_RECURSION,
        error_recovery_limit: 30,
        error_reporting_limit: 100,
        optional_syntax: true,
        ident_escape_syntax: false,
    };
}

/// cel-go's parser limit (`maxRecursionDepth`, 250 by default; the
/// apiserver's CEL environments do not change it). It bounds two things:
/// how deep any grammar rule nests (the parse listener: "expression
/// recursion limit exceeded: 250"), and how deeply the visitor nests
/// selections, calls, indexes and operators ("max recursion depth
/// exceeded").
pub const CEL_GO_RECURSION: usize = 250;

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

/// Parses an expression as Kubernetes' parser does.
pub fn parse(expr: &str) -> Result<(), SyntaxErrors> {
    match &*parse_ast(expr) {
        Ok(_) => Ok(()),
        Err(e) => Err(e.clone()),
    }
}

/// Parses an expression with other parser options (cel-go's own parser
/// tests run with lower limits), on a thread with a large stack.
pub fn parse_with(expr: &str, options: &ParserOptions) -> Result<(), SyntaxErrors> {
    parse_fresh(expr, options).map(|_| ())
}

/// Stack for the parser thread: the generated parser recurses deeply (prefix
/// operators, brackets) before its own depth check applies.
pub(crate) const PARSER_STACK: usize = 256 << 20;

/// Whether bracket nesting reaches `limit` (each level nests the `expr`
/// rule once more, and cel-go's listener refuses a rule nested deeper than
/// the limit), ignoring brackets inside string literals.
fn too_deep(expr: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    for open in brackets(expr) {
        if open {
            depth += 1;
            if depth >= limit {
                return true;
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    false
}

/// The brackets (`(`, `[`, `{` and their closers) of an expression outside
/// its string literals, in order: `true` for an opening one.
pub(crate) fn brackets(text: &str) -> impl Iterator<Item = bool> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    text.chars().filter_map(move |c| {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            return None;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                None
            }
            '(' | '[' | '{' => Some(true),
            ')' | ']' | '}' => Some(false),
            _ => None,
        }
    })
}

type Parsed = (cel::common::ast::IdedExpr, cel::common::ast::SourceInfo);

fn parse_here(expr: &str, options: &ParserOptions) -> Result<Parsed, SyntaxErrors> {
    let limit = options.max_recursion_depth;
    // The parser is third-party code: a panic in it must not take the run down.
    let result = std::panic::catch_unwind(|| {
        cel::parser::Parser::new()
            // The crate's own depth limit sits above cel-go's: the checks
            // here decide.
            .max_recursion_depth(u16::try_from(limit + 1).unwrap_or(u16::MAX))
            .error_recovery_limit(options.error_recovery_limit)
            .enable_optional_syntax(options.optional_syntax)
            .enable_ident_escape_syntax(options.ident_escape_syntax)
            .parse_with_source_info(expr)
    });
    // cel-go reports both recursion limits at no location.
    match result {
        Ok(Ok(_)) if crate::cel::depth::rule_depth(expr, limit) > limit => Err(SyntaxErrors::one(
            format!("expression recursion limit exceeded: {limit}"),
            None,
        )),
        // (The deep tree is dropped here, on the parser's big stack.)
        Ok(Ok(r)) if visitor_depth(&r.0, limit) > limit => Err(SyntaxErrors::one(
            "max recursion depth exceeded".into(),
            None,
        )),
        Ok(Ok(r)) => {
            let overwrites = errors::accumulator_overwrites(&r.0, &r.1, expr);
            if overwrites.is_empty() {
                Ok(r)
            } else {
                Err(SyntaxErrors {
                    errors: overwrites,
                    unlisted: 0,
                })
            }
        }
        Ok(Err(errs)) if errs.errors.is_empty() => {
            Err(SyntaxErrors::one("syntax error".into(), None))
        }
        Ok(Err(errs)) => Err(errors::go_errors(
            errs.errors,
            expr,
            options.error_reporting_limit,
        )),
        Err(_) => Err(SyntaxErrors::one(
            "the expression could not be parsed".into(),
            None,
        )),
    }
}

/// How deep cel-go's parser visitor nests (`checkAndIncrementRecursionDepth`):
/// selections, member calls (macros included), indexes, arithmetic and
/// relational operators and the conditional count a level; `&&`, `||`,
/// unary operators, global calls and literals do not. Walked with an
/// explicit stack: the tree may be thousands deep.
fn visitor_depth(root: &cel::common::ast::IdedExpr, limit: usize) -> usize {
    use cel::common::ast::Expr;
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
        if deepest > limit {
            break;
        }
        stack.extend(crate::cel::children(e).into_iter().map(|c| (c, depth)));
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
pub fn parse_ast(expr: &str) -> std::rc::Rc<Result<Parsed, SyntaxErrors>> {
    /// Parses kept per thread; past it, the memory is released and refilled.
    const KEPT: usize = 256;
    type Kept = std::collections::HashMap<String, std::rc::Rc<Result<Parsed, SyntaxErrors>>>;
    thread_local! {
        static PARSED: std::cell::RefCell<Kept> = Default::default();
    }
    if let Some(hit) = PARSED.with(|p| p.borrow().get(expr).cloned()) {
        return hit;
    }
    let parsed = std::rc::Rc::new(parse_fresh(expr, &ParserOptions::KUBERNETES));
    PARSED.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() >= KEPT {
            p.clear();
        }
        p.insert(expr.to_owned(), parsed.clone());
    });
    parsed
}

fn parse_fresh(expr: &str, options: &ParserOptions) -> Result<Parsed, SyntaxErrors> {
    let limit = options.max_recursion_depth;
    if too_deep(expr, limit) {
        return Err(SyntaxErrors::one(
            format!("expression recursion limit exceeded: {limit}"),
            None,
        ));
    }
    let owned = expr.to_owned();
    let options = *options;
    let spawned = std::thread::Builder::new()
        .name("cel-parse".into())
        .stack_size(PARSER_STACK)
        .spawn(move || parse_here(&owned, &options));
    match spawned {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(SyntaxErrors::one(
                "the expression could not be parsed".into(),
                None,
            ))
        }),
        // No thread available: parse here, within the bracket limit.
        Err(_) => parse_here(expr, &options),
    }
}

#[cfg(test)]
mod tests {
    /// cel-go's parser limits at its default `maxRecursionDepth` of 250
    /// (parser.go: recursionListener.EnterEveryRule for nested rules,
    /// checkAndIncrementRecursionDepth for the visitor), which the
    /// apiserver keeps: 249 nested brackets parse, one more does not (the
    /// listener); a chain of selections or `+` is the visitor's limit, as
    /// cel-go's own tests have it at 32 (parser_test.go "More than 32 field
    /// selections", "More than 32 arithmetic operations"); no depth within
    /// the length limit overflows a stack.
    #[test]
    fn recursion_limits_are_cel_gos() {
        let parses = |e: &str| super::parse(e).map_err(|e| e.first().message.clone());
        let nested = |n: usize| format!("{}true{}", "(".repeat(n), ")".repeat(n));
        assert!(parses(&nested(249)).is_ok());
        assert_eq!(
            parses(&nested(250)).unwrap_err(),
            "expression recursion limit exceeded: 250"
        );
        // 249 selections and the `==`: 250 visits deep.
        let chain = |n: usize| format!("device{} == 1", ".a".repeat(n));
        assert!(parses(&chain(249)).is_ok());
        assert_eq!(
            parses(&chain(250)).unwrap_err(),
            "max recursion depth exceeded"
        );
        // Chains within chains (through brackets): the visitor's limit.
        let wrapped = format!("({})", chain(200)) + &".a".repeat(60);
        assert_eq!(
            parses(&wrapped).unwrap_err(),
            "max recursion depth exceeded"
        );
        // 4,000 selections: refused, not a stack overflow.
        assert!(parses(&chain(4000)).is_err());
        // n terms are n - 1 additions, each a visit.
        let sum = |terms: usize| vec!["1"; terms].join("+");
        assert!(parses(&sum(251)).is_ok());
        assert_eq!(
            parses(&sum(252)).unwrap_err(),
            "max recursion depth exceeded"
        );
        // `&&` and `||` chains are balanced by the parser: not deep.
        assert!(parses(&vec!["true"; 1000].join(" && ")).is_ok());
    }

    /// cel-go reports its recursion limits at no location: `-1:0`, no
    /// snippet (parser_test.go: "ERROR: <input>:-1:0: expression recursion
    /// limit exceeded: 32").
    #[test]
    fn limits_are_reported_at_no_location() {
        let deep = format!("{}true{}", "(".repeat(250), ")".repeat(250));
        assert_eq!(
            super::parse(&deep).unwrap_err().display(&deep),
            "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
        );
    }

    #[test]
    fn syntax_errors_have_positions() {
        assert!(super::parse("device.driver == \"a\"").is_ok());
        let e = super::parse("device.driver == ").unwrap_err();
        assert_eq!(e.first().position, Some((1, 18)), "{e:?}");
        let e = super::parse("a &&\n  (b").unwrap_err();
        assert_eq!(e.first().position.map(|p| p.0), Some(2), "{e:?}");
    }

    /// A syntax error that leaves a part of the tree missing is the only
    /// error: cel-go's visitor says nothing of the missing part (the
    /// `cel` crate's "Incomplete `ExprContext`" came first and hid it).
    #[test]
    fn a_missing_part_is_not_an_error_of_its_own() {
        let expr = "device.driver == 'x' ? 1";
        assert_eq!(
            super::parse(expr).unwrap_err().display(expr),
            "ERROR: <input>:1:25: Syntax error: mismatched input '<EOF>' expecting ':'\n | device.driver == 'x' ? 1\n | ........................^"
        );
    }

    /// Every syntax error is shown, by position; past 100 the parse stops
    /// (errorReportingLimit) and cel-go keeps 100 (maxErrorsToReport).
    #[test]
    fn every_syntax_error_up_to_cel_gos_limits() {
        let expr = "a # b $ c";
        let e = super::parse(expr).unwrap_err();
        let heads: Vec<String> = e.errors.iter().map(|e| e.head()).collect();
        assert_eq!(
            heads,
            [
                "ERROR: <input>:1:3: Syntax error: token recognition error at: '#'",
                "ERROR: <input>:1:5: Syntax error: mismatched input 'b' expecting <EOF>",
                "ERROR: <input>:1:7: Syntax error: token recognition error at: '$'",
            ]
            .map(String::from)
            .into_iter()
            .collect::<Vec<_>>()
        );
        let flood = format!("1{}", " #".repeat(150));
        let e = super::parse(&flood).unwrap_err();
        assert_eq!(e.errors.len(), 100);
        assert_eq!(e.unlisted, 1);
        assert!(e
            .display(&flood)
            .ends_with("\n1 more errors were truncated"));
    }
}
