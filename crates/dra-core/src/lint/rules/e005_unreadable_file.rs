//! DRA-E005: a file that cannot be read as text.
use super::prelude::*;

declare_rule! {
    id: "DRA-E005", name: "unreadable-file", severity: Error, origin: Input,
    summary: "A file cannot be read, is not UTF-8 text, or is over the size limit",
    docs: "Manifests are UTF-8 text. Binary files, other encodings, files over 64 MiB and files that cannot be opened are reported and skipped; the other files are still linted.",
    example: "(a gzip archive named slices.yaml)",
    check: Check::Loader,
}
