//! The element types of a list or map literal: the checker's join, and the
//! homogeneous-literal validator's comparison (cel-go `checker.joinTypes`
//! and `cel/validator.go` homogeneousAggregateLiteralValidator).

use cel::common::ast::IdedExpr;

use super::{Checker, Type};

/// The types of one literal's elements (or keys, or values) so far.
#[derive(Default)]
pub(super) struct LiteralTypes {
    /// The first element's type, with the free parameters that later
    /// elements bound (cel-go compares every element with the first one's
    /// type after substitution).
    reference: Option<Type>,
    /// An element did not agree with the first: the checker's join is
    /// `dyn` from then on (joinTypes' dyn for aggregate literals).
    mixed: bool,
}

impl LiteralTypes {
    /// The literal's element type: `[]` and `{}` leave it free.
    pub(super) fn joined(self) -> Type {
        match self.reference {
            _ if self.mixed => Type::Dyn,
            Some(t) => t,
            None => Type::Free,
        }
    }
}

impl Checker<'_> {
    /// Joins one element's type. The validator compares types exactly
    /// (IsEquivalentType): `dyn` and an attribute value's declared `any`
    /// agree only with themselves, so `[1, dyn(2)]` is an error. A list
    /// reports its first mismatch (the validator breaks), a map every
    /// mismatching key and value against the first entry's. Literals inside
    /// a `format` call are exempt (the strings library adds `format` to
    /// HomogeneousAggregateLiteralExemptFunctions).
    pub(super) fn join_element(
        &mut self,
        e: &IdedExpr,
        types: &mut LiteralTypes,
        ty: Type,
        list: bool,
    ) {
        let Some(reference) = &types.reference else {
            types.reference = Some(ty);
            return;
        };
        if list && types.mixed {
            return;
        }
        match reference.unify(&ty) {
            Some(bound) if !types.mixed => types.reference = Some(bound),
            Some(_) => {}
            None => {
                types.mixed = true;
                if self.in_format == 0 {
                    let message = format!(
                        "expected type '{}' but found '{}'",
                        reference.name(),
                        ty.name()
                    );
                    self.validator_error(e, message);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cel::{Env, Program};
    use crate::gates::{FeatureGates, Version};

    /// Each error's position and message, or nothing when it compiles.
    fn errors(expr: &str, gates: &FeatureGates) -> Vec<String> {
        match Program::compile(expr, &Env::new(gates)) {
            Ok(_) => Vec::new(),
            Err(e) => e
                .all()
                .map(|e| format!("{:?} {}", e.position, e.message))
                .collect(),
        }
    }

    /// cel-go v0.26.0 `cel/validator.go` homogeneousAggregateLiteralValidator
    /// (in the apiserver's base environment since 1.29): every element is
    /// compared with the first one's type, after the checker's substitution
    /// (`Type.IsEquivalentType`): `dyn` equals only `dyn`, a type parameter
    /// is what the join bound it to (`[]` beside `[1]` is a `list(int)`). A
    /// list reports its first mismatch, a map each mismatching key and value.
    #[test]
    fn literals_are_compared_as_the_validator_compares_them() {
        let gates = FeatureGates::defaults(Version::V1_37);
        let errs = |e: &str| errors(e, &gates);
        for ok in [
            "[[], [1]].size() == 2",
            "[[1], []].size() == 2",
            "[{}, {\"a\": 1}].size() == 2",
            "[[], []].size() == 2",
            "[optional.none(), optional.of(1)].size() == 2",
            "[[1].map(x, x), [2]].size() == 2",
            "[[1].filter(x, x > 0), [2]].size() == 2",
            "[{1: \"a\"}.transformMap(k, v, v + \"b\"), {2: \"c\"}].size() == 2",
            "[dyn(1), dyn(\"a\")].size() == 2",
            "\"%d %s\".format([1, dyn(\"a\")]) == \"1 a\"",
            "[url(\"https://x/?a=b\").getQuery(), {\"a\": [\"b\"]}].size() == 2",
            "[] == [1] && {} == {\"a\": 1}",
        ] {
            assert_eq!(errs(ok), Vec::<String>::new(), "{ok}");
        }
        assert_eq!(
            errs("[1, dyn(2)].size() == 2"),
            ["Some((1, 8)) expected type 'int' but found 'dyn'"]
        );
        assert_eq!(
            errs("[dyn(1), 2].size() == 2"),
            ["Some((1, 10)) expected type 'dyn' but found 'int'"]
        );
        // The first element's parameter is bound by the second.
        assert_eq!(
            errs("[[], [1], [\"a\"]].size() == 3"),
            ["Some((1, 11)) expected type 'list(int)' but found 'list(string)'"]
        );
        // One error per list, every mismatching entry of a map.
        assert_eq!(
            errs("[1, \"a\", 2.0].size() == 3"),
            ["Some((1, 5)) expected type 'int' but found 'string'"]
        );
        assert_eq!(
            errs("{\"a\": 1, \"b\": \"x\", 3: 2.0}.size() == 3"),
            [
                "Some((1, 15)) expected type 'int' but found 'string'",
                "Some((1, 20)) expected type 'string' but found 'int'",
                "Some((1, 23)) expected type 'int' but found 'double'",
            ]
        );
        // With DRAListTypeAttributes an attribute value is `dyn`, which a
        // constant beside it is not.
        let mut list_gates = gates.clone();
        list_gates
            .set("DRAListTypeAttributes", true)
            .expect("a 1.37 gate");
        assert_eq!(
            errors(
                "[device.attributes[\"d\"].model, \"a\"].size() == 2",
                &list_gates
            ),
            ["Some((1, 32)) expected type 'dyn' but found 'string'"]
        );
    }
}
