//! DRA-E001: the file is not valid YAML or JSON.
use super::prelude::*;

declare_rule! {
    id: "DRA-E001", name: "invalid-yaml", severity: Error, origin: Input,
    summary: "The file is not valid YAML or JSON",
    docs: "kubectl cannot decode the file, so nothing in it reaches the apiserver. kubectl-dra reports the position of the first syntax error; documents before it are still checked.",
    example: "spec:\n  devices: [\n",
    check: Check::Loader,
}
