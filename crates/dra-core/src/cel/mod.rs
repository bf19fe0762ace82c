//! DRA CEL selectors as Kubernetes compiles and evaluates them.
//!
//! - [`parse`]: syntax, with positions (the `cel` crate's parser).
//! - [`check`]: types and worst-case cost, which the crate lacks.
//! - [`eval`]: evaluation with the scheduler's semantics and cost limit.
//! - [`functions`]: the Kubernetes library functions.
//! - [`value`]: runtime values and the `device` variable, built once per device.

pub mod check;
mod cost;
mod depth;
pub(crate) mod eval;
pub(crate) mod functions;
pub(crate) mod go_fmt;
pub(crate) mod go_strconv;
pub mod lookups;
mod netip;
pub mod parse;
mod snippet;
pub use snippet::error_snippet;
mod pattern;
mod plan;
mod qualify;
pub mod semver;
mod strings_format;
pub mod terms;
pub mod time;
pub mod types;
pub mod url;
pub mod value;

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::ast::IdedExpr;

pub use check::{CompileError, CompileErrorKind};
pub use parse::{parse, parse_with, short_message, CelError, ParserOptions, SyntaxErrors};
pub use value::{Device, Value};

use crate::gates::{FeatureGates, Gate, Version};

/// What the 1.37 allocator adds to a "no such key" runtime error
/// (dynamic-resource-allocation cel/errors.go EnhanceRuntimeError).
pub const NO_SUCH_KEY_HINT: &str = ". consider using CEL optional chaining (.? followed by \
     orValue()) or guarding the check with has() for optional fields";

/// The key a cel-go "no such key: KEY" error names (after any context the
/// allocator put before it, without the hint it may add after).
pub fn missing_key(error: &str) -> Option<&str> {
    let (_, key) = error.rsplit_once("no such key: ")?;
    Some(key.strip_suffix(NO_SUCH_KEY_HINT).unwrap_or(key).trim())
}

/// What a "too complex" finding says after the apiserver's words: the
/// estimate, or that it has no bound (cel-go's unknown sizes, 2^64).
pub fn cost_exceeded(cost: f64) -> String {
    if cost.is_finite() {
        format!("too complex, exceeds cost limit: estimated cost {cost:.0} > 1000000")
    } else {
        "too complex, exceeds cost limit: the estimated cost has no bound (a string or list \
         whose size the estimator cannot know reaches a function charged by its length)"
            .into()
    }
}

/// Limit of the apiserver's estimated cost (`CELSelectorExpressionMaxCost`).
pub const MAX_ESTIMATED_COST: f64 = 1_000_000.0;
/// Longest expression the apiserver compiles.
pub const MAX_EXPRESSION_LEN: usize = 10 * 1024;

/// The comprehension macros of two variables (ext.TwoVarComprehensions)
/// and `exists_one`'s spelling, which the parser leaves as calls: the
/// checker and the evaluator both recognise them by these names.
pub(crate) fn is_two_var_macro(name: &str) -> bool {
    matches!(
        name,
        "all"
            | "exists"
            | "existsOne"
            | "exists_one"
            | "transformList"
            | "transformMap"
            | "transformMapEntry"
    )
}

/// What a Kubernetes version and its gates declare for new expressions.
#[derive(Clone, Debug)]
pub struct Env {
    /// `device.allowMultipleAllocations` (DRAConsumableCapacity).
    pub allow_multiple_allocations: bool,
    /// `includes()` on list-type attributes (DRAListTypeAttributes).
    pub list_type_attributes: bool,
    /// cel-go's ext.Lists (`slice`, `flatten`, `distinct`, `sort`,
    /// `reverse`, `lists.range`): in the base environment from 1.34, so for
    /// new expressions from Kubernetes 1.35; stored expressions always.
    pub ext_lists: bool,
    /// Attribute values typed `dyn` (they may be lists: comprehensions,
    /// `format("%s")` accept them) rather than `any`. compile.go's
    /// attributeTypeV136ListTypeAttributes against attributeTypeV131.
    pub attributes_dyn: bool,
}

impl Env {
    pub fn new(gates: &FeatureGates) -> Self {
        let list_types = gates.enabled(Gate::DRAListTypeAttributes);
        Env {
            allow_multiple_allocations: gates.enabled(Gate::DRAConsumableCapacity),
            list_type_attributes: list_types,
            ext_lists: gates.version >= Version::V1_35,
            attributes_dyn: list_types && gates.version >= Version::V1_36,
        }
    }

    /// The environment of stored expressions (what the scheduler evaluates):
    /// every field and library declared, FeatureEnabled ignored. The device
    /// type is the last one declared: from 1.37 the list-typed one whatever
    /// the gates; in 1.36 the compiler picked its attribute type by the
    /// DRAListTypeAttributes gate; before, attributes were `any`.
    pub fn stored(gates: &FeatureGates) -> Self {
        Env {
            allow_multiple_allocations: true,
            list_type_attributes: true,
            ext_lists: true,
            attributes_dyn: gates.version >= Version::V1_37
                || (gates.version >= Version::V1_36 && gates.enabled(Gate::DRAListTypeAttributes)),
        }
    }

    /// The stored environment of the newest release (tests, examples).
    pub fn stored_latest() -> Self {
        Self::stored(&FeatureGates::defaults(Version::LATEST))
    }
}

/// Whether a device's list-type attribute values reach CEL as lists:
/// compile.go getAttributeValue converts them whatever the gates from 1.37;
/// in 1.36 only with DRAListTypeAttributes on (else evaluating any selector
/// on the device fails: "unsupported attribute value").
pub fn list_values_converted(gates: &FeatureGates) -> bool {
    gates.version >= Version::V1_37 || gates.enabled(Gate::DRAListTypeAttributes)
}

/// Type names written as qualified identifiers, and the variable their
/// first part names (which a comprehension variable may shadow). `net.IP`
/// and `net.CIDR`: the Kubernetes IP and CIDR libraries declare their
/// type's name as a variable of type `type` (library/ip.go and cidr.go
/// CompileOptions), so `type(ip(s)) == net.IP`; the quantity, semver, URL
/// and format libraries declare none. `google.protobuf.Duration` and
/// `google.protobuf.Timestamp`: the types of durations and timestamps,
/// which every cel-go type registry resolves by name.
pub(crate) fn library_type_ident<'e>(
    operand: &'e cel::common::ast::IdedExpr,
    field: &str,
) -> Option<(&'static str, &'e str)> {
    use cel::common::ast::Expr;
    let mut parts = vec![field];
    let mut at = operand;
    let root = loop {
        match &at.expr {
            Expr::Select(s) if !s.test => {
                parts.push(&s.field);
                at = &s.operand;
            }
            Expr::Ident(root) => break root.as_str(),
            _ => return None,
        }
    };
    parts.push(root);
    parts.reverse();
    let name = match parts.as_slice() {
        ["net", "IP"] => "net.IP",
        ["net", "CIDR"] => "net.CIDR",
        ["google", "protobuf", "Duration"] => "google.protobuf.Duration",
        ["google", "protobuf", "Timestamp"] => "google.protobuf.Timestamp",
        _ => return None,
    };
    Some((name, root))
}

/// A compiled selector.
#[derive(Debug)]
pub struct Program {
    expr: IdedExpr,
    /// String literals as runtime values, by expression id (no allocation per evaluation).
    literals: Vec<Option<Value>>,
    /// Constant `matches` patterns, compiled once, by the pattern literal's id.
    patterns: Vec<Option<pattern::Pattern>>,
    /// Worst-case cost as the apiserver estimates it.
    pub estimated_cost: f64,
}

/// Why an evaluation failed, in cel-go's words (`no such key: model`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(pub String);

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// 1-based line and column (in characters) of a byte offset of the expression.
fn line_col(source: &str, byte: u32) -> (u32, u32) {
    let before = source.get(..byte as usize).unwrap_or(source);
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    (line, col)
}

impl Program {
    /// Compiles an expression as the apiserver compiles a new one.
    pub fn compile(source: &str, env: &Env) -> Result<Program, CompileError> {
        Self::compile_as(source, env, Root::Selector)
    }

    /// Compiles a derived-attribute expression (a scalar or list result).
    pub fn compile_derived(source: &str, env: &Env) -> Result<Program, CompileError> {
        Self::compile_as(source, env, Root::Derived)
    }

    /// Compiles an expression whatever type it gives ([`Program::evaluate`]):
    /// how the CEL conformance suite runs its expressions against this engine.
    pub fn compile_any(source: &str, env: &Env) -> Result<Program, CompileError> {
        Self::compile_as(source, env, Root::Any)
    }

    fn compile_as(source: &str, env: &Env, root: Root) -> Result<Program, CompileError> {
        if source.len() > MAX_EXPRESSION_LEN {
            return Err(CompileError::new(
                CompileErrorKind::Syntax,
                format!("expression is longer than {MAX_EXPRESSION_LEN} bytes"),
                None,
            ));
        }
        let parsed = parse::parse_ast(source);
        let (expr, info) = match &*parsed {
            Ok((expr, info)) => (expr, info),
            Err(errors) => {
                // Syntax errors carry their display head; `position` is
                // for the snippet and for pointing into the manifest.
                let mut all = errors
                    .errors
                    .iter()
                    .map(|e| CompileError::new(CompileErrorKind::Syntax, e.head(), e.position));
                let mut first = all.next().expect("a failed parse has an error");
                first.more = all.collect();
                first.unlisted = errors.unlisted;
                return Err(first);
            }
        };
        // Within the parser's limits a tree is still some hundreds of
        // levels deep (200 nested macros), and the checks below walk it
        // recursively: a deep one is compiled on a thread with the parser's
        // large stack, so that no caller's stack decides.
        if ast_depth(expr, DEEP_TREE) > DEEP_TREE {
            let deep = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .name("cel-compile".into())
                    .stack_size(parse::PARSER_STACK)
                    .spawn_scoped(scope, || Self::build(source, env, root, expr, info))
                    .ok()
                    .and_then(|h| h.join().ok())
            });
            if let Some(built) = deep {
                return built;
            }
        }
        Self::build(source, env, root, expr, info)
    }

    /// The checks and plan of a parsed expression.
    fn build(
        source: &str,
        env: &Env,
        root: Root,
        expr: &IdedExpr,
        info: &cel::common::ast::SourceInfo,
    ) -> Result<Program, CompileError> {
        let offsets = |id: u64| {
            info.offset_for(id)
                .map(|(start, _)| line_col(source, start))
        };
        let mut checker = check::Checker::new(env, &offsets);
        let checked = match root {
            Root::Selector => checker.check_root(expr)?,
            Root::Derived => checker.check_derived_root(expr)?,
            Root::Any => checker.check_any(expr)?,
        };
        if let Some(why) = plan::failed_constant_conversion(expr) {
            return Err(CompileError::new(
                CompileErrorKind::Instantiation,
                format!("program instantiation failed: {why}"),
                None,
            ));
        }
        let mut literals = Vec::new();
        collect_literals(expr, &mut literals);
        let mut patterns = Vec::new();
        collect_patterns(expr, &mut patterns);
        Ok(Program {
            expr: expr.clone(),
            literals,
            patterns,
            estimated_cost: checked.cost,
        })
    }

    /// Evaluates the selector on a device as the scheduler does: `true` or
    /// `false`, or the runtime error that aborts the scheduling attempt.
    pub fn matches(&self, device: &Arc<Device>) -> Result<bool, EvalError> {
        match self.evaluate(device) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(other) => Err(EvalError(format!(
                "CEL result of type {} could not be converted to bool",
                other.type_name()
            ))),
            Err(e) => Err(e),
        }
    }

    /// The expression's value on a device, or the error that ends it.
    pub fn evaluate(&self, device: &Arc<Device>) -> Result<Value, EvalError> {
        if let Some(why) = &device.attribute_error {
            return Err(EvalError(why.clone()));
        }
        let mut ev = eval::Eval::new(device, &self.literals, &self.patterns);
        ev.eval(&self.expr).map_err(EvalError)
    }
}

/// Trees deeper than this are compiled on a large stack.
const DEEP_TREE: usize = 96;

/// How deep the tree is, counted up to just past `stop`.
fn ast_depth(root: &IdedExpr, stop: usize) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(root, 1usize)];
    while let Some((e, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        if deepest > stop {
            break;
        }
        stack.extend(children(e).into_iter().map(|c| (c, depth + 1)));
    }
    deepest
}

/// What result type a compiled expression must have.
#[derive(Clone, Copy)]
enum Root {
    /// A selector: bool (or dyn).
    Selector,
    /// A derived attribute's value.
    Derived,
    /// Anything.
    Any,
}

/// The keys and values of map and struct literal entries.
fn entry_children(entries: &[cel::common::ast::IdedEntryExpr]) -> Vec<&IdedExpr> {
    use cel::common::ast::EntryExpr;
    entries
        .iter()
        .flat_map(|entry| match &entry.expr {
            EntryExpr::MapEntry(me) => vec![&me.key, &me.value],
            EntryExpr::StructField(f) => vec![&f.value],
        })
        .collect()
}

/// The direct subexpressions of an expression, in source order: the one walk
/// every visitor of the AST shares.
pub(crate) fn children(e: &IdedExpr) -> Vec<&IdedExpr> {
    use cel::common::ast::Expr;
    match &e.expr {
        Expr::Call(c) => c
            .target
            .as_deref()
            .into_iter()
            .chain(c.args.iter())
            .collect(),
        Expr::Select(s) => vec![&s.operand],
        Expr::List(l) => l.elements.iter().collect(),
        Expr::Map(m) => entry_children(&m.entries),
        Expr::Struct(st) => entry_children(&st.entries),
        Expr::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
        _ => Vec::new(),
    }
}

fn collect_literals(e: &IdedExpr, out: &mut Vec<Option<Value>>) {
    use cel::common::ast::{Expr, LiteralValue};
    let mut put = |v: Value| {
        let i = e.id as usize;
        if i < 1 << 20 {
            if out.len() <= i {
                out.resize(i + 1, None);
            }
            out[i] = Some(v);
        }
    };
    match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => put(Value::String(s.inner().into())),
        // A list of constants: built once, free at run time (cel-go plans it
        // as a constant).
        Expr::List(_) => {
            if let Some(v) = plan::constant_list(e) {
                put(v);
            }
        }
        // quantity("40Gi") and semver("1.2.3") of a literal: parsed once.
        Expr::Call(c)
            if c.target.is_none()
                && c.args.len() == 1
                && matches!(c.func_name.as_str(), "quantity" | "semver") =>
        {
            if let Expr::Literal(LiteralValue::String(s)) = &c.args[0].expr {
                if let Ok(v) =
                    functions::call(&c.func_name, None, None, &[Value::String(s.inner().into())])
                {
                    put(v);
                }
            }
        }
        _ => {}
    }
    for child in children(e) {
        collect_literals(child, out);
    }
}

/// The pattern of each `x.matches("literal")`, compiled once by the
/// program (cel-go's `OptimizeRegex`), by the literal's expression id.
fn collect_patterns(e: &IdedExpr, out: &mut Vec<Option<pattern::Pattern>>) {
    use cel::common::ast::{Expr, LiteralValue};
    if let Expr::Call(c) = &e.expr {
        if let (true, Some(pattern)) = (
            c.func_name == "matches" && c.target.is_some(),
            c.args.first(),
        ) {
            let i = pattern.id as usize;
            if let (Expr::Literal(LiteralValue::String(s)), true) = (&pattern.expr, i < 1 << 20) {
                if let Some(re) = pattern::Pattern::new(s.inner()) {
                    if out.len() <= i {
                        out.resize_with(i + 1, || None);
                    }
                    out[i] = Some(re);
                }
            }
        }
    }
    for child in children(e) {
        collect_patterns(child, out);
    }
}

/// Compiles each distinct expression text once.
#[derive(Default)]
pub struct Cache {
    programs: HashMap<String, Arc<Result<Program, CompileError>>>,
}

impl Cache {
    pub fn get(&mut self, source: &str, env: &Env) -> Arc<Result<Program, CompileError>> {
        if let Some(p) = self.programs.get(source) {
            return p.clone();
        }
        let p = Arc::new(Program::compile(source, env));
        self.programs.insert(source.to_owned(), p.clone());
        p
    }
}

#[cfg(test)]
mod tests {
    /// The key of a missing-key error, with the allocator's context before
    /// it and the 1.37 hint after it (cel/errors.go EnhanceRuntimeError).
    #[test]
    fn missing_key_reads_both_releases_words() {
        let old = "claim a/b: selector #0: CEL runtime error: no such key: model";
        let new = format!(
            "claim a/b: selector #0 on device d/p/x: CEL runtime error: no such key: model{NO_SUCH_KEY_HINT}"
        );
        assert_eq!(super::missing_key(old), Some("model"));
        assert_eq!(super::missing_key(&new), Some("model"));
        assert_eq!(super::missing_key("index out of bounds: 3"), None);
    }

    use super::*;
    use crate::gates::Version;

    /// Runs the CEL conformance cases in-process (the CLI harness runs them
    /// through `kubectl-dra match`); quick feedback for the library.
    #[test]
    fn conformance_cases_in_process() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/conformance/cel"
        );
        // The gaps the CLI harness knows of (testdata/conformance/KNOWN_GAPS).
        let gaps = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/conformance/KNOWN_GAPS"
        ))
        .unwrap_or_default();
        let known = |file: &str| {
            let case = format!("cel/{}:", file.trim_end_matches(".yaml"));
            gaps.lines().any(|l| l.starts_with(&case))
        };
        let mut failures = Vec::new();
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if known(&e.file_name().to_string_lossy()) {
                continue;
            }
            let text = std::fs::read_to_string(e.path()).unwrap();
            let loaded = crate::yaml::load(&text, crate::yaml::Limits::default());
            let case = &loaded.documents[0].root;
            n += 1;
            let version: Version = case
                .get("kubernetesVersion")
                .and_then(|v| v.as_str())
                .unwrap_or("1.37")
                .parse()
                .unwrap();
            let mut gates = FeatureGates::defaults(version);
            for g in case
                .get("featureGates")
                .and_then(|g| g.as_map())
                .unwrap_or_default()
            {
                gates.set(&g.key, g.value.as_bool().unwrap()).unwrap();
            }
            let expr = case.get("expression").unwrap().as_str().unwrap();
            let dev = case.get("device").unwrap();
            let driver = dev.get("driver").unwrap().as_str().unwrap();
            let device = Arc::new(Device::from_node(
                driver,
                dev,
                list_values_converted(&gates),
            ));
            let expect = case.get("expect").unwrap();
            let got = match Program::compile(expr, &Env::new(&gates)) {
                Err(e) => format!("compileError: {}", e.message),
                Ok(p) => match p.matches(&device) {
                    Ok(b) => format!("result: {b}"),
                    Err(e) => format!("runtimeError: {}", e.0),
                },
            };
            let ok = if let Some(r) = expect.get("result") {
                got == format!("result: {}", r.as_bool().unwrap())
            } else if let Some(c) = expect.get("compileError") {
                got.starts_with("compileError") && got.contains(c.as_str().unwrap())
            } else {
                let r = expect.get("runtimeError").unwrap().as_str().unwrap();
                got.starts_with("runtimeError") && got.contains(r)
            };
            if !ok {
                failures.push(format!(
                    "{}: {expr}\n   want {:?}\n   got  {got}",
                    e.path().file_name().unwrap().to_string_lossy(),
                    expect.to_json()
                ));
            }
        }
        assert!(n >= 42);
        assert!(
            failures.is_empty(),
            "{} of {n} CEL cases disagree:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

#[cfg(test)]
mod cost_tests {
    use super::*;

    /// Reference costs from the Kubernetes DRA CEL tests (spec/cel.md §5;
    /// every case of their compile_test.go runs in tests/cel_upstream.rs).
    #[test]
    fn estimated_costs_follow_the_reference() {
        let env = Env {
            allow_multiple_allocations: true,
            list_type_attributes: true,
            ext_lists: true,
            attributes_dyn: true,
        };
        let cost = |e: &str| Program::compile(e, &env).unwrap().estimated_cost;
        let cases = [
            (r#"device.driver == "dra.example.com""#, 4.0),
            (r#"device.attributes["d"].name > 0"#, 5.0),
            (
                r#"device.attributes["d"].name.isGreaterThan(semver("0.0.1"))"#,
                6.0,
            ),
            (
                r#"device.capacity["d"].name.isGreaterThan(quantity("1Ki"))"#,
                6.0,
            ),
            (
                r#"device.attributes.exists_one(x, x == "dra.example.com")"#,
                164.0,
            ),
            (r#"cel.bind(dra, device.attributes["d"], dra.name)"#, 15.0),
            // cel-go charges equality, string ordering, affixes, contains and
            // matches by length alone (checker/cost.go functionCost).
            (r#"device.attributes["d"].s.startsWith("abc")"#, 5.0),
            (r#"device.driver.contains("gpu")"#, 2.0 + 7.0),
            (r#"device.driver.matches("^gpu")"#, 2.0 + 7.0),
        ];
        let got: Vec<(f64, f64)> = cases.iter().map(|(e, want)| (cost(e), *want)).collect();
        for ((e, _), (g, w)) in cases.iter().zip(&got) {
            assert_eq!(g, w, "{e}: estimated {g}, Kubernetes {w}");
        }
        // A conditional costs its condition and the dearer branch, and its
        // size is the larger branch's (checker/cost.go, Conditional).
        let condition = r#"device.driver == "dra.example.com""#;
        let branch = r#"device.attributes.exists_one(x, x == "d")"#;
        assert_eq!(
            cost(&format!("{condition} ? {branch} : false")),
            cost(condition) + cost(branch)
        );
        assert_eq!(
            cost(&format!("{condition} ? false : {branch}")),
            cost(condition) + cost(branch)
        );
        assert_eq!(
            cost(&format!("({condition} ? [1, 2, 3] : [1]).all(v, v > 0)")),
            4.0 + cost("[1, 2, 3].all(v, v > 0)")
        );
        // Sizes as cel-go's estimator knows them: by the DRA size
        // estimator's paths (attribute names 32, values 64, domains 63),
        // by a literal's entries, by what a map/filter step adds; anything
        // else unknown, so a length-charged call on it has no bound.
        let d = r#"device.attributes["d"]"#;
        assert_eq!(
            cost(&format!(r#"{d}.exists(k, k.contains("x"))"#)),
            3.0 + 32.0 * 9.0 + 1.0
        );
        // costSelect charges a selection only on a map or struct: the map
        // literal 30, its field 1, the equality 1; dyn() 1 (maybeUnwrapDynCall),
        // a field of the dyn value nothing; a field of an optional nothing.
        assert_eq!(cost(r#"{"a": 1}.a == 1"#), 32.0);
        assert_eq!(cost(r#"dyn({"a": 1}).a == 1"#), 32.0);
        assert_eq!(
            cost(r#"optional.of({"a": 1}).a.hasValue()"#),
            cost(r#"optional.of({"a": 1}).hasValue()"#)
        );
        // indexOf on a list: one per element (library/cost.go), the list
        // literal 10, the equality 1.
        assert_eq!(cost("[1, 2, 3].indexOf(2) == 1"), 10.0 + 3.0 + 1.0);
        for bounded in [
            format!(r#"{d}.exists(k, {d}[k].contains("a"))"#),
            r#"["ab", "c"].exists(x, x.contains("a"))"#.to_string(),
            r#"device.attributes.map(m, m).exists(x, x.contains("a"))"#.to_string(),
            r#"device.attributes.all(m, n, n.exists(k, k.contains("a")))"#.to_string(),
            format!(r#"cel.bind(a, {d}, a.name.contains("a"))"#),
            r#"[1, 2, 3].indexOf(2) == 1"#.to_string(),
        ] {
            assert!(
                cost(&bounded) < MAX_ESTIMATED_COST,
                "{bounded}: {}",
                cost(&bounded)
            );
        }
        for unbounded in [
            format!(r#"{d}.names.exists(x, x.contains("a"))"#),
            r#"{"a": "xyz"}.a.contains("x")"#.to_string(),
            r#""a,b".split(",").exists(x, x.contains("a"))"#.to_string(),
            format!(r#"{d}.?name.orValue("").contains("a")"#),
            r#"["a", "b"].indexOf("a") == 0"#.to_string(),
        ] {
            assert!(
                cost(&unbounded).is_infinite(),
                "{unbounded}: {}",
                cost(&unbounded)
            );
        }
        let seven = "[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, [1,2,3,4,5,6,7,8,9,10].all(z, [1,2,3,4,5,6,7,8,9,10].all(z2, [1,2,3,4,5,6,7,8,9,10].all(z3, [1,2,3,4,5,6,7,8,9,10].all(z4, [1,2,3,4,5,6,7,8,9,10].all(z5, z5 > 0)))))))";
        assert!(cost(seven) > MAX_ESTIMATED_COST);
    }
}

#[cfg(test)]
mod release_tests {
    use super::*;
    use crate::gates::Version;

    /// A new expression compiles against the base environment of the
    /// release before (DefaultCompatibilityVersion); ext.Lists joined it
    /// in 1.34 (apiserver/pkg/cel/environment/base.go), so Kubernetes 1.34
    /// refuses `reverse()` and 1.35 accepts it; the scheduler's stored
    /// environment always has it.
    #[test]
    fn ext_lists_from_1_35_for_new_expressions() {
        let expr = "[5, 1].reverse()[0] == 1 && [1, 2].slice(0, 1).size() == 1";
        for (v, ok) in [
            (Version::V1_34, false),
            (Version::V1_35, true),
            (Version::V1_37, true),
        ] {
            let env = Env::new(&FeatureGates::defaults(v));
            match Program::compile(expr, &env) {
                Ok(_) => assert!(ok, "{v}"),
                Err(e) => {
                    assert!(!ok, "{v}: {}", e.message);
                    assert!(
                        e.message.contains("undeclared reference to 'reverse'"),
                        "{}",
                        e.message
                    );
                }
            }
        }
        assert!(Program::compile(expr, &Env::stored_latest()).is_ok());
    }
    /// DRAListTypeAttributes (KEP-5491) per release, from compile.go at
    /// each release: in 1.36 the gate decides both the attribute type and
    /// whether list values reach CEL; from 1.37 (dynamic-resource-allocation
    /// 5afedd9, f34bcd0) stored expressions and the values ignore it, new
    /// expressions still see `any` with the gate off.
    #[test]
    fn list_type_attributes_per_release() {
        let text =
            "name: d\nattributes:\n  model: {string: a100}\n  tags: {strings: [ecc, fast]}\n";
        let loaded = crate::yaml::load(text, crate::yaml::Limits::default());
        let node = &loaded.documents[0].root;
        let gates = |v: Version, on: bool| {
            let mut g = FeatureGates::defaults(v);
            g.set("DRAListTypeAttributes", on).unwrap();
            g
        };
        let scalar = r#"device.attributes["d.example.com"].model == "a100""#;
        for (v, on, converted) in [
            (Version::V1_36, false, false),
            (Version::V1_36, true, true),
            (Version::V1_37, false, true),
        ] {
            let g = gates(v, on);
            assert_eq!(list_values_converted(&g), converted, "{v} {on}");
            let device = Arc::new(Device::from_node("d.example.com", node, converted));
            let p = Program::compile(scalar, &Env::stored(&g)).unwrap();
            match p.matches(&device) {
                Ok(m) => assert!(converted && m, "{v} {on}"),
                Err(e) => {
                    assert!(!converted, "{v} {on}: {}", e.0);
                    assert_eq!(e.0, "attribute tags: unsupported attribute value");
                }
            }
        }
        let range = r#"device.attributes["d.example.com"].tags.exists(t, t == "ecc")"#;
        let format = r#""%s".format([device.attributes["d.example.com"].model]) == "a100""#;
        for (v, on, new_ok, stored_ok) in [
            (Version::V1_36, false, false, false),
            (Version::V1_36, true, true, true),
            (Version::V1_37, false, false, true),
            (Version::V1_37, true, true, true),
        ] {
            let g = gates(v, on);
            for e in [range, format] {
                let new = Program::compile(e, &Env::new(&g));
                assert_eq!(new.is_ok(), new_ok, "{v} {on} new {e}: {:?}", new.err());
                let stored = Program::compile(e, &Env::stored(&g));
                assert_eq!(stored.is_ok(), stored_ok, "{v} {on} stored {e}");
            }
        }
        let e = Program::compile(range, &Env::new(&gates(Version::V1_37, false))).unwrap_err();
        assert!(
            e.message
                .starts_with("expression of type 'any' cannot be range of a comprehension"),
            "{}",
            e.message
        );
    }
}
