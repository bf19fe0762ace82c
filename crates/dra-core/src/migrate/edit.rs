//! Minimal edits of YAML source text: byte ranges replaced, every other byte
//! left as it was (comments, key order, quoting, blank lines, documents).
//! The helpers know the two YAML styles manifests use: block mappings, whose
//! entries are whole lines at one column (with the first key of a sequence
//! item on the `- ` line), and flow mappings (`{a: 1, b: 2}`).

use crate::tree::{Entry, LineIndex, Node, Span};

/// Replace `start..end` (bytes) with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Applies edits that do not overlap; `None` when two do. New lines follow
/// the file's line endings (CRLF files get CRLF).
pub fn apply(text: &str, edits: &[Edit]) -> Option<String> {
    let crlf = text.contains("\r\n");
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in sorted {
        if e.start < at || e.end < e.start || e.end > text.len() {
            return None;
        }
        out.push_str(&text[at..e.start]);
        if crlf && e.text.contains('\n') {
            out.push_str(&e.text.replace("\r\n", "\n").replace('\n', "\r\n"));
        } else {
            out.push_str(&e.text);
        }
        at = e.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Whether an edit changes text inside one of `shared` (byte ranges of
/// nodes an alias repeats): applied, it would change every object that
/// shares the node, not only the one it is meant for.
pub fn touches_shared(edits: &[Edit], shared: &[(usize, usize)]) -> bool {
    edits.iter().any(|e| {
        shared.iter().any(|&(a, b)| {
            if e.start == e.end {
                a < e.start && e.start < b
            } else {
                e.start < b && a < e.end
            }
        })
    })
}

/// The text, with character spans turned into bytes and line helpers.
pub struct Source<'a> {
    pub text: &'a str,
    lines: LineIndex,
}

/// Where a block mapping entry's text is.
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    /// First byte: the line of the first full-line comment directly above
    /// the key at its column, else the key's line; the key itself when it
    /// sits on a sequence item's `- ` line.
    pub start: usize,
    /// After the newline of the last non-blank line of the value.
    pub end: usize,
    /// The key's first byte, and its column.
    pub key: usize,
    pub col: usize,
    /// The key follows `- ` on its line.
    pub on_dash_line: bool,
}

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Self {
        Source {
            text,
            lines: LineIndex::new(text),
        }
    }

    /// The byte offset of a character index.
    pub fn byte(&self, index: u32) -> usize {
        self.lines.byte_offset(self.text, index)
    }

    pub fn bytes(&self, span: Span) -> (usize, usize) {
        (self.byte(span.start), self.byte(span.end))
    }

    /// Byte ranges of character spans.
    pub fn byte_ranges(&self, spans: &[Span]) -> Vec<(usize, usize)> {
        spans.iter().map(|s| self.bytes(*s)).collect()
    }

    fn line_start(&self, b: usize) -> usize {
        self.text[..b].rfind('\n').map_or(0, |i| i + 1)
    }

    /// After the newline ending the line of `b` (or the end of the text).
    fn line_end(&self, b: usize) -> usize {
        self.text[b..]
            .find('\n')
            .map_or(self.text.len(), |i| b + i + 1)
    }

    /// Whether the collection starting at this node's span is in flow style.
    pub fn is_flow(&self, node: &Node) -> bool {
        let b = self.byte(node.span.start);
        matches!(self.text.as_bytes().get(b), Some(b'{' | b'['))
    }

    /// The extent of a block mapping entry.
    pub fn extent(&self, entry: &Entry) -> Extent {
        let text = self.text;
        let key = self.byte(entry.key_span.start);
        let ls = self.line_start(key);
        let col = text[ls..key].chars().count();
        let on_dash_line = !text[ls..key].trim().is_empty();
        let mut start = if on_dash_line { key } else { ls };
        if !on_dash_line {
            // Full-line comments directly above, at the key's column.
            while start > 0 {
                let prev = self.line_start(start - 1);
                let line = &text[prev..start];
                let trimmed = line.trim_start_matches(' ');
                if trimmed.starts_with('#') && line.len() - trimmed.len() == col {
                    start = prev;
                } else {
                    break;
                }
            }
        }
        // An indentless sequence (`key:` then `- item` at the key's column).
        let seq_value =
            matches!(entry.value.value, crate::tree::Value::Seq(_)) && !self.is_flow(&entry.value);
        let mut end = self.line_end(key);
        let mut at = end;
        while at < text.len() {
            let next = self.line_end(at);
            let line = text[at..next].trim_end_matches('\n');
            let trimmed = line.trim_start_matches(' ');
            let indent = line.len() - trimmed.len();
            if trimmed.trim().is_empty() {
                at = next;
                continue;
            }
            let item = trimmed == "-" || trimmed.starts_with("- ");
            if indent > col || (seq_value && indent == col && item) {
                at = next;
                end = next;
                continue;
            }
            break;
        }
        Extent {
            start,
            end,
            key,
            col,
            on_dash_line,
        }
    }

    /// The entry's text from its key to the end of its value, for flow
    /// mappings.
    pub fn flow_entry(&self, entry: &Entry) -> (usize, usize) {
        (
            self.byte(entry.key_span.start),
            self.byte(entry.value.span.end),
        )
    }
}

/// `text`'s lines with `by` more spaces before each non-blank one.
pub fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    let mut out = String::with_capacity(text.len() + 8 * by);
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// `text`'s lines with up to `by` leading spaces removed from each.
pub fn dedent(text: &str, by: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        out.push_str(&line[spaces.min(by)..]);
    }
    out
}

/// Ends `s` with a newline.
pub fn with_newline(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_refuse_overlap() {
        let e = |start, end, text: &str| Edit {
            start,
            end,
            text: text.into(),
        };
        assert_eq!(
            apply("abcdef", &[e(4, 5, "E"), e(0, 1, "A")]).unwrap(),
            "AbcdEf"
        );
        assert!(apply("abcdef", &[e(0, 3, ""), e(2, 4, "")]).is_none());
        // A CRLF file gets CRLF in what is inserted.
        assert_eq!(
            apply("a\r\nb\r\n", &[e(3, 3, "x:\n  y\n")]).unwrap(),
            "a\r\nx:\r\n  y\r\nb\r\n"
        );
        assert_eq!(indent("a\n\n  b\n", 2), "  a\n\n    b\n");
        assert_eq!(dedent("    a\n  b\nc", 2), "  a\nb\nc");
    }
}
