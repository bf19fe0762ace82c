//! A compile error as cel-go reports it: every error of the expression.

/// What a compile error is about, for the lint rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompileErrorKind {
    Syntax,
    /// Undeclared names, unknown fields, overload and result-type mismatches.
    Type,
    /// A field or function the target version or its gates do not declare.
    Gated,
    /// Type-checked, but the program cannot be built: a constant
    /// conversion that fails when cel-go folds it (`plan`).
    Instantiation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub kind: CompileErrorKind,
    /// cel-go wording, e.g. `undeclared reference to 'foo' (in container '')`.
    pub message: String,
    /// 1-based line and column in the expression, when known.
    pub position: Option<(u32, u32)>,
    /// The expression's other errors, in cel-go's order (by position):
    /// cel-go's checker goes on after an error and reports them all.
    pub more: Vec<CompileError>,
    /// Errors cel-go counted past the 100 it keeps (a parse that stopped at
    /// its syntax-error limit): the display says how many.
    pub unlisted: usize,
    /// Found by one of the environment's AST validators (homogeneous
    /// literals, literal regexes, durations, timestamps, format strings),
    /// which cel-go runs only on an expression that type-checks.
    pub(crate) validator: bool,
    /// The result type is wrong ("must evaluate to bool ..."): compile.go
    /// reports it on its own, not as a compilation failure.
    pub(crate) result_type: bool,
}

impl CompileError {
    pub(crate) fn new(
        kind: CompileErrorKind,
        message: String,
        position: Option<(u32, u32)>,
    ) -> Self {
        CompileError {
            kind,
            message,
            position,
            more: Vec::new(),
            unlisted: 0,
            validator: false,
            result_type: false,
        }
    }

    /// Every error of the expression, this one first.
    pub fn all(&self) -> impl Iterator<Item = &CompileError> {
        std::iter::once(self).chain(&self.more)
    }

    /// The error's detail as the DRA compiler gives it (cel/compile.go
    /// CompileCELExpression): "compilation failed: " and cel-go's display of
    /// every error; a wrong result type or a program that cannot be built
    /// in their own words. The apiserver's field error and the allocator's
    /// "CEL compile error: ..." carry it.
    pub fn detail(&self, source: &str) -> String {
        if self.result_type || self.kind == CompileErrorKind::Instantiation {
            return self.message.clone();
        }
        format!("compilation failed: {}", self.display(source))
    }

    /// cel-go's `Errors.ToDisplayString()` of the expression's errors, what
    /// the apiserver reports after "compilation failed: ": each error as
    /// `ERROR: <input>:L:C: message` with its source snippet, by position.
    pub fn display(&self, source: &str) -> String {
        let heads = self.all().map(|e| {
            let head = match (e.kind, e.position) {
                (CompileErrorKind::Syntax, _) | (_, None) => e.message.clone(),
                (_, Some((l, c))) => format!("ERROR: <input>:{l}:{c}: {}", e.message),
            };
            (head, e.position)
        });
        crate::cel::snippet::display_errors(heads, self.unlisted, source)
    }
}

#[cfg(test)]
mod tests {
    use crate::cel::{Env, Program};
    use crate::gates::{FeatureGates, Version};

    fn errors(expr: &str) -> Vec<String> {
        let env = Env::new(&FeatureGates::defaults(Version::V1_37));
        let Err(e) = Program::compile(expr, &env) else {
            panic!("{expr} compiles")
        };
        e.all().map(|e| e.message.clone()).collect()
    }

    /// cel-go's checker goes on past an error (the failed node is typed
    /// ErrorType, assignable to anything: checker/types.go isDynOrError), so
    /// the apiserver reports every error, sorted by position (Errors.
    /// ToDisplayString); an error node in an overload is named `*error*`.
    #[test]
    fn every_error_is_reported_by_position() {
        let undeclared = |n: &str| format!("undeclared reference to '{n}' (in container '')");
        assert_eq!(errors("a + b"), [undeclared("a"), undeclared("b")]);
        assert_eq!(
            errors("[a, b].all(x, c)"),
            [undeclared("a"), undeclared("b"), undeclared("c")]
        );
        assert_eq!(
            errors("size(q) + r.s() > 1"),
            [undeclared("q"), undeclared("r"), undeclared("s")]
        );
        assert_eq!(
            errors("math.greatest(1, 2) == 2"),
            [undeclared("math"), undeclared("greatest")]
        );
        assert_eq!(
            errors("device.name == 1 && frobnicate()"),
            [
                "undefined field 'name'".to_owned(),
                undeclared("frobnicate")
            ]
        );
        assert_eq!(
            errors("a.startsWith(1)"),
            [
                undeclared("a"),
                "found no matching overload for 'startsWith' applied to '*error*.(int)'".to_owned()
            ]
        );
        assert_eq!(
            errors("1 && \"x\""),
            [
                "expected type 'bool' but found 'int'".to_owned(),
                "expected type 'bool' but found 'string'".to_owned()
            ]
        );
        // A selection from an error adds none.
        assert_eq!(errors("x.y.z == 1"), [undeclared("x")]);
    }

    /// The AST validators (homogeneous literals, literal regexes and
    /// durations, format strings) run only on an expression that
    /// type-checks (cel/env.go Check): beside a checker error theirs are
    /// not reported; alone they are.
    #[test]
    fn validator_errors_only_when_the_expression_type_checks() {
        let undeclared = |n: &str| format!("undeclared reference to '{n}' (in container '')");
        assert_eq!(
            errors("[1, \"a\"].size() == 2"),
            ["expected type 'int' but found 'string'"]
        );
        assert_eq!(errors("[1, \"a\"].size() == 2 && b"), [undeclared("b")]);
        // An attribute value is declared `any` (DRAListTypeAttributes off):
        // beside a string it is no longer the same type.
        assert_eq!(
            errors("device.attributes[\"d\"].model in [\"a\", device.attributes[\"d\"].model]"),
            ["expected type 'string' but found 'any'"]
        );
        assert_eq!(errors("\"x\".matches(\"[\")"), ["invalid matches argument"]);
        assert_eq!(errors("\"x\".matches(\"[\") || y"), [undeclared("y")]);
        assert_eq!(errors("\"%d\".format([\"a\"]) == q"), [undeclared("q")]);
    }

    /// compile.go's detail: a compilation failure carries cel-go's display;
    /// a wrong result type and a program that cannot be built their own words.
    #[test]
    fn detail_as_the_dra_compiler_words_it() {
        let env = Env::new(&FeatureGates::defaults(Version::V1_37));
        let detail = |expr: &str| match Program::compile(expr, &env) {
            Err(e) => e.detail(expr),
            Ok(_) => panic!("{expr} compiles"),
        };
        assert_eq!(
            detail("a"),
            "compilation failed: ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a\n | ^"
        );
        assert_eq!(
            detail("1"),
            "must evaluate to bool or the unknown type, not int"
        );
        assert!(detail("int(\"x\") == 1").starts_with("program instantiation failed: "));
    }

    /// cel-go's checker keeps 100 errors (common.NewErrors:
    /// maxErrorsToReport) and its display counts the rest.
    #[test]
    fn past_100_errors_the_rest_are_counted() {
        let env = Env::new(&FeatureGates::defaults(Version::V1_37));
        let expr = (0..150)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>()
            .join(" + ");
        let Err(e) = Program::compile(&expr, &env) else {
            panic!("undeclared names compile")
        };
        let shown = e.display(&expr);
        assert_eq!(shown.matches("ERROR: <input>:").count(), 100);
        assert!(shown.contains("undeclared reference to 'v99'"));
        assert!(!shown.contains("'v100'"));
        assert!(
            shown.ends_with("\n50 more errors were truncated"),
            "{shown}"
        );
    }

    /// The apiserver's text: each error with its snippet, one after another.
    #[test]
    fn displays_as_cel_go() {
        let env = Env::new(&FeatureGates::defaults(Version::V1_37));
        let Err(e) = Program::compile("a + b", &env) else {
            panic!("a + b compiles")
        };
        assert_eq!(
            e.display("a + b"),
            "ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a + b\n | ^\n\
             ERROR: <input>:1:5: undeclared reference to 'b' (in container '')\n | a + b\n | ....^"
        );
    }

    /// dynamic-resource-allocation cel/compile.go CompileCELExpression: a
    /// selector gives `bool` or exactly the attribute type (release-1.34 and
    /// release-1.35: `any`; release-1.36: also `dyn` with
    /// DRAListTypeAttributes; 3d036712930c, 1.37: the environment's
    /// attribute type). A `?:` gives the most general of its branches
    /// (cel-go mostGeneral): an attribute's `any` beside `false` is `any`;
    /// `optional.of` and `orValue` keep it too.
    #[test]
    fn the_result_is_bool_or_the_attribute_type() {
        let result = |expr: &str, v: Version, lists: bool| {
            let mut gates = FeatureGates::defaults(v);
            if lists {
                gates.set("DRAListTypeAttributes", true).unwrap();
            }
            match Program::compile(expr, &Env::new(&gates)) {
                Ok(_) => String::new(),
                Err(e) => e.message,
            }
        };
        let not_dyn = "must evaluate to bool or the unknown type, not dyn";
        let attr = "device.attributes[\"d.example.com\"].ok";
        for v in [
            Version::V1_34,
            Version::V1_35,
            Version::V1_36,
            Version::V1_37,
        ] {
            assert_eq!(result("dyn(true)", v, false), not_dyn, "{v:?}");
            assert_eq!(result("[][0]", v, false), not_dyn, "{v:?}");
            assert_eq!(result(attr, v, false), "", "{v:?}");
            assert_eq!(result(&format!("1 > 0 ? {attr} : false"), v, false), "");
            assert_eq!(result(&format!("1 > 0 ? false : {attr}"), v, false), "");
            assert_eq!(
                result(&format!("1 > 0 ? {attr} : dyn(false)"), v, false),
                not_dyn
            );
            // A type parameter takes an argument's type as written.
            for e in [
                format!("optional.of({attr}).value()"),
                format!("optional.of(true).orValue({attr})"),
                format!("optional.none().orValue({attr})"),
            ] {
                assert_eq!(result(&e, v, false), "", "{e} {v:?}");
            }
            assert_eq!(result("optional.of(dyn(true)).value()", v, false), not_dyn);
        }
        for v in [Version::V1_36, Version::V1_37] {
            assert_eq!(result("dyn(true)", v, true), "", "{v:?}");
            assert_eq!(result(attr, v, true), "", "{v:?}");
        }
    }
}
