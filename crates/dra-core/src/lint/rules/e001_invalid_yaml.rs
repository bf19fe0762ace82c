//! DRA-E001: the file is not valid YAML or JSON.
use super::prelude::*;

declare_rule! {
    id: "DRA-E001", name: "invalid-yaml", severity: Error, origin: Input,
    summary: "The file is not valid YAML or JSON",
    docs: "kubectl cannot decode the file, so nothing in it reaches the apiserver. kubectl-dra reports the position of the first syntax error; documents before it are still checked. A mapping key that is a list, a map, null (`~:`, an empty `? `) or a number go-yaml reads as a uint64 (`18446744073709551615:`, `0xFFFFFFFFFFFFFFFF:`) is YAML but has no JSON form: kubectl's conversion (sigs.k8s.io/yaml) refuses that document, and so does lint (quote the key: `\"~\":`); the other documents are checked. An explicit tag go-yaml refuses for its value (`!!int abc`, `!!binary` that is not base64) fails the document the same way; a core tag otherwise makes the text that kind whatever its quotes (`!!int \"5\"` is 5), and any other tag keeps the text a string (`!foo 5` is \"5\"). Keys that are numbers or booleans become their text as sigs.k8s.io/yaml writes it (`010:` is `\"8\"`, `on:` is `\"true\"`, `1.5e6:` is `\"1.5e+06\"`).",
    example: "spec:\n  devices: [\n",
    check: Check::Loader,
}
