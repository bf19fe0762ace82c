//! DRA-S002: a value of the wrong JSON type.
use super::prelude::*;

declare_rule! {
    id: "DRA-S002", name: "wrong-value-type", severity: Error, origin: Decode,
    summary: "A value has the wrong type (e.g. a string where a number belongs), or a quantity or time does not parse",
    docs: "The apiserver cannot decode the object and answers 400 Bad Request before any validation, so lint reports nothing else of that object (no validation error, no dropped field; linter-only findings of other objects may still name it). The apiserver answers with one decoding error, and lint reports that one: the first value whose own decoder fails (a quantity or a time), else the first value of the wrong type, first in the JSON kubectl sends (every object's keys sorted); a note lists the object's other values that do not decode. An int32 field (a `containerPort`, a ResourcePoolStatusRequest's `limit`) does not take a number past its range, and an IntOrString (a probe's `port`, a Deployment's `maxUnavailable`) takes a string or such an int32, nothing else. Note that YAML reads unquoted `yes`, `no`, `on`, `off` as booleans and `1.2` as a number: quote such strings. Times (`metav1.Time`: `creationTimestamp`, a taint's `timeAdded`, a status's `allocationTimestamp` and conditions' `lastTransitionTime`) must be RFC 3339 as Go's `time.Parse(time.RFC3339, ...)` reads them (`2026-01-01T00:00:00Z`): a date alone, a space for the `T`, or a number does not decode.",
    example: "exactly:\n  deviceClassName: gpu.example.com\n  count: two\n",
    check: Check::Loader,
    fix: &crate::fix::builders::QUOTE,
}
