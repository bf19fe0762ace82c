//! DRA-S002: a value of the wrong JSON type.
use super::prelude::*;

declare_rule! {
    id: "DRA-S002", name: "wrong-value-type", severity: Error, origin: Decode,
    summary: "A value has the wrong type (e.g. a string where a number belongs), or a quantity does not parse",
    docs: "The apiserver cannot decode the object and answers 400 Bad Request before any validation. Note that YAML reads unquoted `yes`, `no`, `on`, `off` as booleans and `1.2` as a number: quote such strings.",
    example: "exactly:\n  deviceClassName: gpu.example.com\n  count: two\n",
    check: Check::Loader,
    fix: &crate::fix::builders::QUOTE,
}
