//! DRA-E002: a file beyond kubectl-dra's input limits.
use super::prelude::*;

declare_rule! {
    id: "DRA-E002", name: "input-over-limit", severity: Error, origin: Input,
    summary: "Input beyond the safety limits (nesting depth, alias expansion, file size)",
    docs: "Nesting deeper than 256 levels, aliases that expand to more than 100,000 nodes (an alias bomb), or a file over 64 MiB is refused so that a hostile file cannot exhaust memory or the stack. The rest of the input is still checked.",
    example: "a: &a [x, x]\nb: &b [*a, *a]\n# ... repeated until it expands to millions of nodes",
    check: Check::Loader,
}
