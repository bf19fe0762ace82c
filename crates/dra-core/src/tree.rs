//! The spanned document tree every check works on.
//!
//! A YAML or JSON document becomes a [`Node`]: a value plus the [`Span`] it
//! came from. Mapping keys keep their own span so a finding about a key (an
//! unknown field, an invalid attribute name) can underline the key itself.

use std::fmt;

/// A position in a source file: 1-based line and column (in characters),
/// plus the 0-based character index, which renderers turn into a byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub index: u32,
    pub line: u32,
    pub col: u32,
}

/// A range of characters in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    pub fn new(start: Pos, end: Pos) -> Self {
        Span { start, end }
    }
    pub fn point(p: Pos) -> Self {
        Span { start: p, end: p }
    }
    pub fn len(&self) -> u32 {
        self.end.index.saturating_sub(self.start.index)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
    /// A string scalar. `raw` decoding already applied (escapes, folding).
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    /// The scalar as written (for numbers: `8Gi` vs `8`), empty for collections.
    pub raw: Box<str>,
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
            raw: Box::from(""),
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
                Some(entries.remove(i))
            }
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
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
    /// Quantities may be written as numbers, so quantity checks read this.
    pub fn scalar_text(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some(&self.raw),
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
            Value::Str(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.to_json()))
                    .collect(),
            ),
        }
    }
}

impl Drop for Node {
    // Deep trees (up to the loader's depth limit, or built by hand) must not
    // overflow the stack when freed: take the children out iteratively.
    fn drop(&mut self) {
        let mut stack: Vec<Node> = Vec::new();
        match &mut self.value {
            Value::Seq(items) if !items.is_empty() => stack.append(items),
            Value::Map(entries) if !entries.is_empty() => {
                stack.extend(entries.drain(..).map(|e| e.value))
            }
            _ => return,
        }
        while let Some(mut node) = stack.pop() {
            match &mut node.value {
                Value::Seq(items) => stack.append(items),
                Value::Map(entries) => stack.extend(entries.drain(..).map(|e| e.value)),
                _ => {}
            }
        }
    }
}

/// The character index of a 1-based line and column in `text`.
fn index_of(text: &str, line: u32, col: u32) -> Option<u32> {
    let mut idx: u32 = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i as u32 + 1 == line {
            let len = l.chars().count() as u32;
            return Some(idx + (col.saturating_sub(1)).min(len));
        }
        idx += l.chars().count() as u32 + 1;
    }
    None
}

/// Maps a 1-based (line, column) inside a string scalar's decoded text to a
/// one-character span in the file. Exact for plain and quoted one-line
/// scalars and for block scalars (`|`); approximate for folded text.
pub fn inner_span(text: &str, node: &Node, line: u32, column: u32) -> Option<Span> {
    let start = node.span.start;
    let (file_line, file_col) = match node.style {
        ScalarStyle::Plain if line <= 1 => (start.line, start.col + column - 1),
        ScalarStyle::Quoted if line <= 1 => (start.line, start.col + column),
        // Block scalars (`|`, `>`) start at their first content line.
        ScalarStyle::Block => (start.line + line - 1, start.col + column - 1),
        _ => {
            let l = text.split('\n').nth((start.line + line - 2) as usize)?;
            let indent = (l.len() - l.trim_start().len()) as u32;
            (start.line + line - 1, indent + column)
        }
    };
    let index = index_of(text, file_line, file_col)?;
    let p = Pos {
        index,
        line: file_line,
        col: file_col,
    };
    Some(Span::new(
        p,
        Pos {
            index: index + 1,
            col: file_col + 1,
            ..p
        },
    ))
}
