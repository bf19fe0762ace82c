//! DRA-X002: a suppression comment that names no rule.
use super::prelude::*;

declare_rule! {
    id: "DRA-X002", name: "unknown-suppression", severity: Warning, origin: Input,
    summary: "A `# kubectl-dra:` comment whose directive or code names nothing kubectl-dra knows",
    docs: "The directives are `ignore=` (the object), `ignore-line=` (the line, or the next line when the comment stands alone) and `ignore-file=`; the codes are rule ids, id prefixes such as `DRA-V2`, rule names or `all`, in any case, separated by commas or spaces. A misspelt code suppresses nothing, so it is reported instead of being ignored.",
    example: "# kubectl-dra: ignore=DRA-V9999\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n",
    check: Check::Loader,
}
