//! DRA-X001: a suppression comment that suppresses nothing.
use super::prelude::*;

declare_rule! {
    id: "DRA-X001", name: "unused-suppression", severity: Warning, origin: Input,
    summary: "A `# kubectl-dra: ignore...` code that suppresses no finding in its scope",
    docs: "A suppression left behind after the problem was fixed, or written on the wrong object or line, hides the next real finding of that rule. Delete the code, or move it where the finding is. Codes of rules that `--select`/`--ignore` leave out are not reported.",
    example: "# kubectl-dra: ignore=DRA-V001\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n",
    check: Check::Loader,
}
