//! The spanned document tree every check works on.
//!
//! A YAML or JSON document becomes a [`Node`]: a value plus the [`Span`] it
//! came from. Mapping keys keep their own span so a finding about a key (an
//! unknown field, an invalid attribute name) can underline the key itself.

use std::fmt;

use compact_str::CompactString;

pub use crate::key::{key, Key};
pub use crate::lines::LineIndex;

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

/// How a scalar was written; decides whether `123` is a number or a string.
/// Only strings are written other than plain (a quoted or block scalar is a
/// string), so the style lives in [`Text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarStyle {
    Plain,
    Quoted,
    Block,
}

/// A string scalar, decoded (escapes, folding): its interned text and how
/// it was written. Interned because an inventory repeats its strings (models,
/// quantities, counter set names) across every device, and because an
/// 8-byte string with the style beside it keeps a [`Node`] at 32 bytes
/// (issue 37). Interned strings live as long as the process. Two texts
/// are equal when their strings are: the style is how, not what.
#[derive(Clone, Copy)]
pub struct Text {
    text: Key,
    style: ScalarStyle,
}

impl Text {
    pub fn new(s: &str, style: ScalarStyle) -> Self {
        Text {
            text: key(s),
            style,
        }
    }
    pub fn as_str(&self) -> &'static str {
        self.text.as_str()
    }
    pub fn style(&self) -> ScalarStyle {
        self.style
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.text == other.text
    }
}

impl Eq for Text {}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state)
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.text.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.text.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A plain string (what a program writes; the parser sets the style it read).
impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::new(s, ScalarStyle::Plain)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::new(&s, ScalarStyle::Plain)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::new(s, ScalarStyle::Plain)
    }
}

impl From<CompactString> for Text {
    fn from(s: CompactString) -> Self {
        Text::new(&s, ScalarStyle::Plain)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Text),
    Seq(List<Node>),
    Map(List<Entry>),
}

/// A list of a node: shared, so that an inventory's many identical
/// subtrees (`{value: 10Gi}`, a GPU's counters, a model's capacity) can be
/// one ([`crate::share`]), and a clone of a tree costs a count, not a copy
/// (issue 37). Not a vector, so that a `Value` fits in 24 bytes.
pub type List<T> = std::sync::Arc<[T]>;

/// Edits a list of a node as a `Vec` (a shared list is copied first).
pub fn edit<T: Clone, R>(list: &mut List<T>, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    let mut v = list.to_vec();
    let r = f(&mut v);
    *list = v.into();
    r
}

/// A list's items to change in place (a shared list is copied first).
pub fn items_mut<T: Clone>(list: &mut List<T>) -> &mut [T] {
    std::sync::Arc::make_mut(list)
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
}

// An inventory is mostly nodes and entries: their sizes are its memory (issue 37).
const _: () = assert!(std::mem::size_of::<Node>() == 32 && std::mem::size_of::<Entry>() == 48);

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
        Node { value, span }
    }

    /// How it was written: quoted and block scalars are strings; every
    /// other node is plain.
    pub fn style(&self) -> ScalarStyle {
        match &self.value {
            Value::Str(t) => t.style(),
            _ => ScalarStyle::Plain,
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
            Value::Map(entries) => items_mut(entries)
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
    let (file_line, file_col) = match node.style() {
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
                Ok(Node::new(
                    Value::Str(Text::new(s, ScalarStyle::Quoted)),
                    Span::default(),
                ))
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
        Node::new(
            Value::Str(Text::new(s, ScalarStyle::Quoted)),
            Span::default(),
        )
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
mod tests {
    use super::*;

    /// A CEL error one past the end of an expression that ends the file is
    /// a point at the end, not a character past it (found by fuzzing
    /// lint_bytes on 30ea1a2).
    #[test]
    fn an_error_at_the_end_of_an_expression_stays_in_the_file() {
        let text = "expression: device.";
        let node = Node::new(Value::Str("device.".into()), Span::new(12, 19));
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
