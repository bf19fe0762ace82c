//! The spanned document tree every check works on.
//!
//! A YAML or JSON document becomes a [`Node`]: a value plus the [`Span`] it
//! came from. Mapping keys keep their own span so a finding about a key (an
//! unknown field, an invalid attribute name) can underline the key itself.

use std::fmt;

use compact_str::CompactString;

pub use crate::key::{key, Key};

/// A range of characters in a source file, as character indices. Lines and
/// columns are computed on demand with a [`LineIndex`], so that a tree of
/// millions of nodes carries 8 bytes per span.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }
    pub fn point(p: u32) -> Self {
        Span { start: p, end: p }
    }
    pub fn len(&self) -> u32 {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Line starts of a text, to turn character indices into 1-based lines and
/// columns, and into byte offsets for renderers.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// (character index, byte offset) of each line start.
    starts: Vec<(u32, u32)>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 40 + 1);
        starts.push((0u32, 0u32));
        let newlines = memchr::memchr_iter(b'\n', bytes);
        if text.is_ascii() {
            // One byte per character: a line starts after each newline.
            starts.extend(newlines.map(|i| ((i + 1) as u32, (i + 1) as u32)));
        } else {
            let mut chars = 0u32;
            let mut counted = 0usize;
            for i in newlines {
                // Characters are the bytes that do not continue a UTF-8 sequence.
                chars += bytes[counted..=i]
                    .iter()
                    .filter(|&&b| b & 0xC0 != 0x80)
                    .count() as u32;
                counted = i + 1;
                starts.push((chars, (i + 1) as u32));
            }
        }
        LineIndex { starts }
    }

    pub fn line_of(&self, index: u32) -> usize {
        match self.starts.binary_search_by(|(c, _)| c.cmp(&index)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// How many lines start in the text (one more than its newlines).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 1-based line and column (in characters) of a character index.
    pub fn line_col(&self, index: u32) -> (u32, u32) {
        let i = self.line_of(index);
        (i as u32 + 1, index - self.starts[i].0 + 1)
    }

    /// The character index of a 1-based line and column.
    pub fn index_of(&self, line: u32, col: u32) -> Option<u32> {
        let (start, _) = *self.starts.get(line.checked_sub(1)? as usize)?;
        Some(start + col.saturating_sub(1))
    }

    /// The byte offset of a character index in `text`.
    pub fn byte_offset(&self, text: &str, index: u32) -> usize {
        let i = self.line_of(index);
        let (c0, b0) = self.starts[i];
        let rest = &text[(b0 as usize).min(text.len())..];
        let skip = (index - c0) as usize;
        b0 as usize + rest.char_indices().nth(skip).map_or(rest.len(), |(b, _)| b)
    }
}

/// How a scalar was written; decides whether `123` is a number or a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    Quoted,
    Block,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string scalar, decoded (escapes, folding). Short strings are inline.
    Str(CompactString),
    Seq(Box<[Node]>),
    Map(Box<[Entry]>),
}

/// Edits a list of a node as a `Vec`: a boxed slice is a vector at full
/// capacity, so neither direction copies the items. Lists are boxed, not
/// vectors, because a `Value` then fits in 24 bytes (issue 37).
pub fn edit<T, R>(list: &mut Box<[T]>, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    let mut v = std::mem::take(list).into_vec();
    let r = f(&mut v);
    *list = v.into_boxed_slice();
    r
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: Key,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    pub style: ScalarStyle,
}

/// The JSON-ish kind of a node, for type errors ("expected string, got map").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Int,
    Float,
    Str,
    Seq,
    Map,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Int => "integer",
            Kind::Float => "number",
            Kind::Str => "string",
            Kind::Seq => "list",
            Kind::Map => "object",
        })
    }
}

impl Node {
    pub fn new(value: Value, span: Span) -> Self {
        Node {
            value,
            span,
            style: ScalarStyle::Plain,
        }
    }

    pub fn kind(&self) -> Kind {
        match &self.value {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::Str(_) => Kind::Str,
            Value::Seq(_) => Kind::Seq,
            Value::Map(_) => Kind::Map,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match &mut self.value {
            Value::Map(entries) => entries
                .iter_mut()
                .find(|e| e.key == key)
                .map(|e| &mut e.value),
            _ => None,
        }
    }

    /// Removes a mapping entry, returning it.
    pub fn remove(&mut self, key: &str) -> Option<Entry> {
        match &mut self.value {
            Value::Map(entries) => {
                let i = entries.iter().position(|e| e.key == key)?;
                Some(edit(entries, |v| v.remove(i)))
            }
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self.value {
            Value::Int(i) => Some(i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(f as i64),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The text of a scalar whatever its type: `8Gi`, `8`, `true`.
    /// Quantities may be written as numbers (go-yaml has already turned
    /// `0x10` into 16 and `1e3` into 1000 by then, as here).
    pub fn scalar_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match &self.value {
            Value::Str(s) => Some(Cow::Borrowed(s.as_str())),
            Value::Int(i) => Some(Cow::Owned(i.to_string())),
            Value::Float(f) => Some(Cow::Owned(f.to_string())),
            Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
            _ => None,
        }
    }

    /// Iterative count of the nodes below and including this one.
    pub fn count_nodes(&self) -> usize {
        let mut stack = vec![self];
        let mut n = 0;
        while let Some(node) = stack.pop() {
            n += 1;
            match &node.value {
                Value::Seq(items) => stack.extend(items.iter()),
                Value::Map(entries) => stack.extend(entries.iter().map(|e| &e.value)),
                _ => {}
            }
        }
        n
    }

    /// Converts to JSON. Iterative in spirit: the loader already bounded the
    /// depth, so the recursion here cannot overflow the stack.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.to_string()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|e| (e.key.to_string(), e.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// Maps a 1-based (line, column) inside a string scalar's decoded text to a
/// one-character span in the file. Exact for plain and quoted one-line
/// scalars and for block scalars (`|`); approximate for folded text.
pub fn inner_span(
    text: &str,
    lines: &LineIndex,
    node: &Node,
    line: u32,
    column: u32,
) -> Option<Span> {
    let (start_line, start_col) = lines.line_col(node.span.start);
    let (file_line, file_col) = match node.style {
        ScalarStyle::Plain if line <= 1 => (start_line, start_col + column - 1),
        ScalarStyle::Quoted if line <= 1 => (start_line, start_col + column),
        // Block scalars (`|`, `>`) start at their first content line.
        ScalarStyle::Block => (start_line + line - 1, start_col + column - 1),
        _ => {
            let l = text.split('\n').nth((start_line + line - 2) as usize)?;
            let indent = (l.len() - l.trim_start().len()) as u32;
            (start_line + line - 1, indent + column)
        }
    };
    // Never past the scalar itself (an error at the end of an expression
    // that ends the file would otherwise point past the file).
    let index = lines.index_of(file_line, file_col)?.min(node.span.end);
    // Past the end of the line or of the scalar (an error at the end of
    // the expression): a point.
    let end = if index < node.span.end && lines.line_col(index + 1).0 == file_line {
        index + 1
    } else {
        index
    };
    Some(Span::new(index, end))
}

/// Reads JSON (a cluster's answer) straight into a tree, without an
/// intermediate `serde_json::Value`; spans are empty, since no file backs it.
impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Node, E> {
                Ok(Node::new(Value::Null, Span::default()))
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Node, E> {
                self.visit_unit()
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Node, E> {
                Ok(Node::new(Value::Bool(b), Span::default()))
            }
            fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<Node, E> {
                Ok(Node::new(Value::Int(i), Span::default()))
            }
            fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Node, E> {
                Ok(Node::new(
                    i64::try_from(u).map_or(Value::Float(u as f64), Value::Int),
                    Span::default(),
                ))
            }
            fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<Node, E> {
                Ok(Node::new(Value::Float(f), Span::default()))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Node, E> {
                let mut n = Node::new(Value::Str(s.into()), Span::default());
                n.style = ScalarStyle::Quoted;
                Ok(n)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut items = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
                while let Some(n) = a.next_element::<Node>()? {
                    items.push(n);
                }
                Ok(Node::new(Value::Seq(items.into()), Span::default()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut entries = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
                while let Some((key, value)) = a.next_entry::<std::borrow::Cow<'de, str>, Node>()? {
                    entries.push(Entry {
                        key: self::key(key.as_ref()),
                        key_span: Span::default(),
                        value,
                    });
                }
                Ok(Node::new(Value::Map(entries.into()), Span::default()))
            }
        }
        d.deserialize_any(V)
    }
}

impl Node {
    /// Sets `key` to `value` at the end of a map (no-op on other nodes)
    /// unless the key is already there.
    pub fn insert_back(&mut self, key: &str, value: Node) {
        if let Value::Map(entries) = &mut self.value {
            if !entries.iter().any(|e| e.key == key) {
                edit(entries, |v| {
                    v.push(Entry {
                        key: self::key(key),
                        key_span: Span::default(),
                        value,
                    })
                });
            }
        }
    }

    /// Sets `key` to `value` at the front of a map (no-op on other nodes)
    /// unless the key is already there.
    pub fn insert_front(&mut self, key: &str, value: Node) {
        if let Value::Map(entries) = &mut self.value {
            if !entries.iter().any(|e| e.key == key) {
                edit(entries, |v| {
                    v.insert(
                        0,
                        Entry {
                            key: self::key(key),
                            key_span: Span::default(),
                            value,
                        },
                    )
                });
            }
        }
    }

    pub fn string(s: &str) -> Node {
        let mut n = Node::new(Value::Str(s.into()), Span::default());
        n.style = ScalarStyle::Quoted;
        n
    }

    /// Block-style YAML that reads back to the same tree: strings are plain
    /// where YAML 1.1 reads them back as the same string, else double-quoted
    /// (JSON escapes are valid YAML), so no value changes type.
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        self.write_yaml(&mut out, 0, false);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }

    fn write_yaml(&self, out: &mut String, indent: usize, in_seq: bool) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
        match &self.value {
            Value::Map(es) if !es.is_empty() => {
                for (i, e) in es.iter().enumerate() {
                    if i > 0 || !in_seq {
                        pad(out, indent);
                    }
                    out.push_str(&yaml_string(e.key.as_str()));
                    out.push(':');
                    e.value.write_child(out, indent + 2);
                }
            }
            Value::Seq(items) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 || !in_seq {
                        pad(out, indent);
                    }
                    out.push_str("- ");
                    match &item.value {
                        Value::Map(es) if !es.is_empty() => item.write_yaml(out, indent + 2, true),
                        Value::Seq(s) if !s.is_empty() => item.write_yaml(out, indent + 2, true),
                        _ => {
                            out.push_str(&item.scalar_yaml());
                            out.push('\n');
                        }
                    }
                }
            }
            _ => {
                out.push_str(&self.scalar_yaml());
                out.push('\n');
            }
        }
    }

    fn write_child(&self, out: &mut String, indent: usize) {
        match &self.value {
            Value::Map(es) if !es.is_empty() => {
                out.push('\n');
                self.write_yaml(out, indent, false);
            }
            // Sequences under a key sit at the key's indentation, as kubectl prints them.
            Value::Seq(s) if !s.is_empty() => {
                out.push('\n');
                self.write_yaml(out, indent - 2, false);
            }
            _ => {
                out.push(' ');
                out.push_str(&self.scalar_yaml());
                out.push('\n');
            }
        }
    }

    fn scalar_yaml(&self) -> String {
        match &self.value {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) if f.is_finite() => {
                let s = f.to_string();
                if s.contains(['.', 'e', 'E']) {
                    s
                } else {
                    format!("{s}.0")
                }
            }
            Value::Float(_) => "null".into(),
            Value::Str(s) => yaml_string(s),
            Value::Map(_) => "{}".into(),
            Value::Seq(_) => "[]".into(),
        }
    }
}

/// A string as YAML: plain when a YAML 1.1 reader (Kubernetes' own, and
/// kubectl's) reads it back as this same string, double-quoted otherwise.
/// Conservative: anything that could be a bool (`y`, `on`, `No`), null, a
/// number, a date or an indicator is quoted.
fn yaml_string(s: &str) -> String {
    let quoted = || serde_json::to_string(s).unwrap_or_default();
    let Some(first) = s.chars().next() else {
        return quoted();
    };
    let special = matches!(
        s.to_ascii_lowercase().as_str(),
        "y" | "yes" | "n" | "no" | "true" | "false" | "on" | "off" | "null" | "~" | "<<"
    );
    let risky_start = first.is_ascii_digit()
        || "-?:,[]{}#&*!|>'\"%@`+. ".contains(first)
        || s.ends_with([' ', ':']);
    let risky_inside = s.contains(": ")
        || s.contains(" #")
        || s.chars()
            .any(|c| c.is_control() || !(c.is_ascii_graphic() || c == ' '));
    if special || risky_start || risky_inside {
        quoted()
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod json_tests {
    use super::*;

    #[test]
    fn json_reads_into_a_tree_and_yaml_reads_back_the_same() {
        let text = r#"{"apiVersion":"v1","kind":"X","metadata":{"name":"a","labels":{}},
            "spec":{"n":3,"big":18446744073709551615,"f":1.5,"g":2.0,"t":true,"z":null,
            "s":"yes","e":"","q":"a: \"b\"\n#c","l":[1,[2,3],{"k":"v","w":[]},[]],"m":[{"a":{"b":[{"c":1}]}}]}}"#;
        let node: Node = serde_json::from_str(text).unwrap();
        let json = node.to_json();
        let yaml = node.to_yaml();
        let loaded = crate::yaml::load(&yaml, crate::yaml::Limits::default());
        assert!(loaded.errors.is_empty(), "{yaml}\n{:?}", loaded.errors);
        assert_eq!(loaded.documents[0].root.to_json(), json, "{yaml}");
    }

    #[test]
    fn yaml_quotes_only_what_yaml_would_misread() {
        for plain in [
            "apiVersion",
            "resource.k8s.io/v1",
            "gpu-0",
            "a100",
            "node_1",
            "x.y/z",
        ] {
            assert_eq!(yaml_string(plain), plain);
        }
        for quoted in [
            "",
            "y",
            "on",
            "No",
            "null",
            "~",
            "1",
            "1.5",
            "0x1f",
            "2024-01-01",
            "-x",
            "a: b",
            "a #b",
            "é",
            "tab\there",
            ":x",
            "x:",
            "*ref",
            " lead",
            "+1",
            ".inf",
        ] {
            assert!(yaml_string(quoted).starts_with('"'), "{quoted}");
        }
    }
}

#[cfg(test)]
mod line_index_tests {
    use super::LineIndex;

    #[test]
    fn lines_and_columns_count_characters_not_bytes() {
        for text in ["", "a", "ab\ncd\n", "é\nxé\n\nz", "日本\n語\n", "a\n\n\nb"] {
            let index = LineIndex::new(text);
            let (mut line, mut col) = (1, 1);
            for (i, c) in text.chars().enumerate() {
                assert_eq!(index.line_col(i as u32), (line, col), "{text:?} at {i}");
                let byte = text.char_indices().nth(i).map(|(b, _)| b).unwrap();
                assert_eq!(index.byte_offset(text, i as u32), byte, "{text:?} at {i}");
                if c == '\n' {
                    (line, col) = (line + 1, 1);
                } else {
                    col += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CEL error one past the end of an expression that ends the file is
    /// a point at the end, not a character past it (found by fuzzing
    /// lint_bytes on 30ea1a2).
    #[test]
    fn an_error_at_the_end_of_an_expression_stays_in_the_file() {
        let text = "expression: device.";
        let node = Node {
            value: Value::Str("device.".into()),
            span: Span::new(12, 19),
            style: ScalarStyle::Plain,
        };
        let lines = LineIndex::new(text);
        // cel-go: `<input>:1:8` (one past the last character).
        assert_eq!(
            inner_span(text, &lines, &node, 1, 8),
            Some(Span::new(19, 19))
        );
        // Inside the expression: one character.
        assert_eq!(
            inner_span(text, &lines, &node, 1, 7),
            Some(Span::new(18, 19))
        );
        // With more text after it, the end of the expression is still a point.
        let text = "expression: device.\nnext: 1\n";
        let lines = LineIndex::new(text);
        assert_eq!(
            inner_span(text, &lines, &node, 1, 8),
            Some(Span::new(19, 19))
        );
    }
}
