//! Which of a body's decoding faults kube-apiserver reports.
//!
//! The apiserver decodes a request with sigs.k8s.io/json (encoding/json's
//! decoder): a value of the wrong type is remembered (`saveError` keeps the
//! first) and decoding goes on past it, while an error from a type's own
//! `UnmarshalJSON` (`resource.Quantity`, `metav1.Time`) is returned at once
//! and wins over the remembered one (`unmarshal` returns `d.value`'s error
//! before `d.savedError`). The request fails with that one error.
//!
//! kubectl sends a manifest as JSON marshalled from its unstructured map,
//! so every object's keys arrive sorted by their bytes: "first" is first
//! in that order, lists in their own.

use super::ShapeFinding;
use std::cmp::Ordering;

/// The index in `findings` of the decoding fault the apiserver reports,
/// if there is one.
pub fn first_fault(findings: &[ShapeFinding]) -> Option<usize> {
    let earliest = |ends: bool| {
        findings
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_decode_fault() && f.ends_decoding() == ends)
            .min_by(|a, b| json_order(a.1.path(), b.1.path()))
            .map(|(i, _)| i)
    };
    earliest(true).or_else(|| earliest(false))
}

/// One step of a field path: an object's key or a list's index.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Step<'a> {
    Index(usize),
    Key(&'a [u8]),
}

/// Compares two field paths (`spec.devices[0].capacity[memory].value`) in
/// the order kubectl's JSON writes them: keys by their bytes, indexes by
/// number.
pub fn json_order(a: &str, b: &str) -> Ordering {
    steps(a).cmp(steps(b))
}

/// The steps of a path. A key in brackets (a map's key) runs to the `]`
/// that ends the path or comes before a `.` or `[`: keys may hold dots
/// (`gpu.example.com/model`).
fn steps(path: &str) -> impl Iterator<Item = Step<'_>> + '_ {
    let bytes = path.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        if bytes[at] == b'.' {
            at += 1;
        }
        if bytes.get(at) == Some(&b'[') {
            let start = at + 1;
            let end = (start..bytes.len())
                .find(|&i| {
                    bytes[i] == b']' && matches!(bytes.get(i + 1), None | Some(b'.') | Some(b'['))
                })
                .unwrap_or(bytes.len());
            at = end + 1;
            let inner = &bytes[start..end.max(start)];
            let index = std::str::from_utf8(inner)
                .ok()
                .filter(|s| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()))
                .and_then(|s| s.parse().ok());
            return Some(index.map_or(Step::Key(inner), Step::Index));
        }
        let start = at;
        while at < bytes.len() && bytes[at] != b'.' && bytes[at] != b'[' {
            at += 1;
        }
        Some(Step::Key(&bytes[start..at]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Span;

    fn wrong(path: &str, ends_decoding: bool) -> ShapeFinding {
        ShapeFinding::WrongType {
            path: path.into(),
            span: Span::default(),
            expected: "string",
            got: "integer".into(),
            ends_decoding,
        }
    }

    fn quantity(path: &str) -> ShapeFinding {
        ShapeFinding::BadQuantity {
            path: path.into(),
            span: Span::default(),
            message: String::new(),
        }
    }

    #[test]
    fn keys_sort_by_bytes_and_indexes_by_number() {
        assert_eq!(json_order("spec.devices", "spec.pool"), Ordering::Less);
        // `nodeName` < `pool`, whatever order the file wrote them in.
        assert_eq!(
            json_order("spec.pool.name", "spec.nodeName"),
            Ordering::Greater
        );
        assert_eq!(
            json_order("spec.devices[10].name", "spec.devices[9].name"),
            Ordering::Greater
        );
        // Upper case sorts before lower case (bytes).
        assert_eq!(json_order("spec.Zeta", "spec.alpha"), Ordering::Less);
        assert_eq!(
            json_order(
                "spec.devices[0].attributes[gpu.example.com/model].string",
                "spec.devices[0].attributes[gpu.example.com/arch].string"
            ),
            Ordering::Greater
        );
        assert_eq!(json_order("spec", "spec.devices"), Ordering::Less);
    }

    #[test]
    fn the_first_type_mismatch_in_sorted_order_is_reported() {
        // encoding/json's saveError keeps the first mismatch.
        let f = [
            wrong("spec.pool.generation", false),
            wrong("spec.devices[0].name", false),
            wrong("metadata.name", false),
        ];
        assert_eq!(first_fault(&f), Some(2));
    }

    #[test]
    fn an_unmarshaler_error_wins_over_an_earlier_mismatch() {
        // d.value's error is returned before d.savedError.
        let f = [
            wrong("spec.devices[0].name", false),
            quantity("spec.sharedCounters[0].counters[memory].value"),
            quantity("spec.devices[1].capacity[memory].value"),
            wrong("spec.devices[0].capacity[mem].value", true),
        ];
        assert_eq!(first_fault(&f), Some(3));
        assert_eq!(first_fault(&f[..3]), Some(2));
        assert_eq!(first_fault(&f[..1]), Some(0));
        assert_eq!(first_fault(&[]), None);
    }
}
