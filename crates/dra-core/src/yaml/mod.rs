//! YAML (and JSON, a subset of it) to spanned [`Node`] trees.
//!
//! Built on `saphyr-parser`'s event stream, with an explicit stack instead of
//! recursion, because the parser itself has no block-nesting limit and a
//! recursive builder overflows on hostile input. This module adds what the
//! parser leaves to its users: a depth limit, an alias-expansion budget
//! (billion laughs), `<<` merge keys as kubectl's decoder applies them,
//! duplicate-key detection, and YAML 1.1 scalar resolution as
//! `sigs.k8s.io/yaml` (go-yaml v2) performs it, so `yes` is a boolean here too.

mod block;
mod parts;

pub use parts::{end_at_marker, last_document_start, load_chunk, Chunk};
use parts::{load_in_parts, load_pieces, part_starts, Part, SUB_PART};
mod scalar;
mod tagged;

pub use scalar::resolve_plain;

use std::collections::HashMap;

use saphyr_parser::{Event, Marker, Parser, ScalarStyle as PStyle, Span as PSpan, Tag};

use compact_str::CompactString;

use crate::tree::{Entry, LineIndex, Node, ScalarStyle, Span, Text, Value};

/// Bounds that keep hostile input from exhausting the stack or memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest nesting of collections accepted in one document.
    pub max_depth: usize,
    /// Nodes that alias expansion may add to one file.
    pub max_alias_nodes: usize,
    /// Load for a reader that never points into the documents: each node
    /// but a document's root has an empty span, and equal lists are one
    /// list ([`crate::share`]; issue 37). `lint` keeps its spans.
    pub share: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 256,
            max_alias_nodes: 100_000,
            share: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The YAML syntax is broken; nothing after this point was read.
    Syntax,
    /// Collections nested deeper than [`Limits::max_depth`].
    TooDeep,
    /// Aliases would expand to more than [`Limits::max_alias_nodes`] nodes.
    AliasBudget,
    /// The same key twice in one mapping.
    DuplicateKey,
    /// A mapping key that is itself a list or mapping, or null: JSON has no
    /// place for it, and the document is not read.
    ComplexKey,
    /// An alias to an anchor that was never defined.
    UnknownAnchor,
    /// A scalar whose explicit tag go-yaml refuses for its text (`!!int
    /// abc`, `!!binary` that is not base64): kubectl cannot read the
    /// document.
    BadTag,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    pub kind: LoadErrorKind,
    pub message: String,
    pub span: Span,
    /// 0-based index of the document in which it happened.
    pub document: usize,
}

#[derive(Debug, PartialEq)]
pub struct Document {
    /// 0-based index among the file's documents.
    pub index: usize,
    pub root: Node,
}

#[derive(Debug, Default, PartialEq)]
pub struct Loaded {
    pub documents: Vec<Document>,
    pub errors: Vec<LoadError>,
    /// Where the anchored nodes an alias repeats are written: editing text
    /// there changes every object that shares them.
    pub shared: Vec<Span>,
}

fn pos(m: &Marker) -> u32 {
    u32::try_from(m.index()).unwrap_or(u32::MAX)
}

/// Whether a line starts with `%` and holds non-ASCII text: saphyr may
/// then count later indices in bytes (see [`load_part`]).
fn shifted(text: &str) -> bool {
    !text.is_ascii() && text.lines().any(|l| l.starts_with('%') && !l.is_ascii())
}

/// The character index where each line starts, lines broken as saphyr
/// breaks them (LF, CR LF, or a CR alone).
fn line_starts(text: &str) -> Vec<u32> {
    let mut starts = vec![0u32];
    let mut chars = text.chars().peekable();
    let mut i = 0u32;
    while let Some(c) = chars.next() {
        i = i.saturating_add(1);
        match c {
            '\n' => starts.push(i),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => starts.push(i),
            _ => {}
        }
    }
    starts
}

/// The 1-based line of a character index (for messages; error path only).
enum Frame {
    Seq {
        items: Vec<Node>,
        start: Span,
        anchor: usize,
    },
    Map {
        entries: Vec<Entry>,
        key: Option<(CompactString, Span)>,
        start: Span,
        anchor: usize,
        /// The keys, once the mapping is large: duplicate detection stays
        /// linear in the number of keys (a 200,000-key map took 35 s).
        seen: Option<HashMap<crate::tree::Key, usize>>,
    },
}

/// Keys a mapping holds before its duplicate check switches to a set.
pub(crate) const KEY_SET_AFTER: usize = 32;

/// Streams at least this large are split at document markers and the parts
/// parsed on all cores; smaller ones are not worth a thread.
pub const SPLIT_MIN_BYTES: usize = 1 << 20;

/// Loads every document of a YAML stream. Never panics; problems become
/// [`LoadError`]s and the documents that could be read are returned.
pub fn load(text: &str, limits: Limits) -> Loaded {
    load_split(text, limits, SPLIT_MIN_BYTES)
}

/// [`load`], splitting streams of at least `min_part` bytes into parts that
/// start at a `---` line and parsing the parts in parallel.
///
/// Documents never share anchors, so a part parses as it would in the
/// whole stream. Where that could differ, the whole stream is parsed again
/// in one pass: a syntax error (the one pass stops there) and the alias
/// budget (it counts per file).
pub fn load_split(text: &str, limits: Limits, min_part: usize) -> Loaded {
    load_with(text, limits, min_part, Path::Fast)
}

/// [`load`] through saphyr only, never the block fast path: what the fast
/// path is compared with in tests.
pub fn load_general(text: &str, limits: Limits) -> Loaded {
    load_with(text, limits, usize::MAX, Path::General)
}

/// Whether `text` is in the plain block style the fast path loads itself
/// (tests use it to see that the fast path is exercised).
pub fn is_plain_block(text: &str) -> bool {
    block::load(text, 0, Limits::default()).is_some()
}

/// Which parser a part goes through.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Path {
    /// The block fast path where it applies, saphyr elsewhere.
    Fast,
    /// saphyr only.
    General,
}

fn load_with(text: &str, limits: Limits, min_part: usize, path: Path) -> Loaded {
    // One part is the one pass itself: never loaded twice.
    if shifted(text) || part_starts(text, min_part).len() < 2 {
        return load_part(text, 0, text.len(), 0, limits, path).loaded;
    }
    match load_in_parts(text, limits, min_part, path, 0) {
        Some(part) if part.alias_nodes <= limits.max_alias_nodes => part.loaded,
        _ => load_part(text, 0, text.len(), 0, limits, path).loaded,
    }
}

/// Loads `full[start..end]`, with spans offset by `char_base` characters so
/// that they point into `full`.
fn load_part(
    full: &str,
    start: usize,
    end: usize,
    char_base: u32,
    limits: Limits,
    path: Path,
) -> Part {
    let text = &full[start..end];
    if path == Path::Fast {
        if let Some((documents, documents_seen)) = block::load(text, char_base, limits) {
            return Part {
                loaded: Loaded {
                    documents,
                    errors: Vec::new(),
                    shared: Vec::new(),
                },
                documents_seen,
                alias_nodes: 0,
            };
        }
        // One document the fast path cannot read (a flow mapping, an
        // anchor) should not send a whole part to saphyr: try again in
        // smaller pieces, and only those that need it go there.
        if text.len() >= 2 * SUB_PART {
            if let Some(part) = load_pieces(full, start, end, char_base, limits) {
                return part;
            }
        }
    }
    // saphyr counts a directive's name and parameters in bytes, so a `%`
    // line with non-ASCII text shifts every later index; its lines and
    // columns stay right (a column restarts on each line, and no node sits
    // on a directive line): there, positions are taken from them. No span
    // may leave the part either way.
    let part_chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
    let part_end = char_base.saturating_add(part_chars);
    let lines = shifted(text).then(|| line_starts(text));
    let at = |m: &Marker| {
        let local = match &lines {
            Some(starts) => m
                .line()
                .checked_sub(1)
                .and_then(|l| starts.get(l))
                .map_or(part_chars, |s| {
                    s.saturating_add(u32::try_from(m.col()).unwrap_or(u32::MAX))
                }),
            None => pos(m),
        };
        local.saturating_add(char_base).min(part_end)
    };
    let span = |s: &PSpan| Span::new(at(&s.start), at(&s.end));
    let mut out = Loaded::default();
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut line_index: Option<LineIndex> = None;
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut alias_nodes = 0usize;
    let mut doc_index = 0usize;
    let mut root: Option<Node> = None;
    // While skipping a document we gave up on, the nesting still to close.
    let mut skip_depth: Option<usize> = None;
    let mut in_document = false;

    loop {
        let (event, ev_span) = match parser.next_event() {
            None => break,
            Some(Ok(ev)) => ev,
            Some(Err(e)) => {
                // The scanner can report a mark past the end of the input.
                let p = at(e.marker());
                // The scanner counts flow levels ([ and {) in a u8: deeper
                // flow nesting is a limit, not a syntax error.
                let too_deep = e.info() == "recursion limit exceeded";
                out.errors.push(LoadError {
                    kind: if too_deep {
                        LoadErrorKind::TooDeep
                    } else {
                        LoadErrorKind::Syntax
                    },
                    message: if too_deep {
                        "flow collections ([ ] and { }) nested deeper than 255 levels; document skipped".to_owned()
                    } else {
                        format!("invalid YAML: {}", e.info())
                    },
                    span: Span::point(p),
                    document: doc_index,
                });
                break;
            }
        };
        let sp = span(&ev_span);

        if let Some(depth) = skip_depth.as_mut() {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => *depth += 1,
                Event::SequenceEnd | Event::MappingEnd => *depth = depth.saturating_sub(1),
                Event::DocumentEnd => {
                    skip_depth = None;
                    in_document = false;
                    doc_index += 1;
                    stack.clear();
                    root = None;
                }
                _ => {}
            }
            continue;
        }

        let finished: Option<(Node, usize)> = match event {
            Event::StreamStart | Event::Nothing => None,
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                in_document = true;
                anchors.clear();
                None
            }
            Event::DocumentEnd => {
                if let Some(node) = root.take() {
                    out.documents.push(Document {
                        index: doc_index,
                        root: node,
                    });
                }
                in_document = false;
                doc_index += 1;
                None
            }
            Event::Scalar(text, style, anchor, tag) => {
                let is_key = matches!(stack.last(), Some(Frame::Map { key: None, .. }));
                // Resolved as a number: plain and untagged, or tagged !!int.
                let resolved = match tag.as_deref() {
                    None => style == PStyle::Plain,
                    t => core_tag(t) == Some("int"),
                };
                if is_key && resolved && scalar::is_uint64(&text) {
                    out.errors.push(LoadError {
                        kind: LoadErrorKind::ComplexKey,
                        message: "a mapping key go-yaml reads as a uint64: kubectl cannot convert it to JSON (unsupported map key of type: uint64); quote it".into(),
                        span: sp,
                        document: doc_index,
                    });
                }
                let (node, refused) = scalar(&text, style, tag.as_deref(), sp);
                if let Some(message) = refused {
                    out.errors.push(LoadError {
                        kind: LoadErrorKind::BadTag,
                        message,
                        span: sp,
                        document: doc_index,
                    });
                }
                Some((node, anchor))
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some(node) => {
                    let n = node.count_nodes();
                    alias_nodes += n;
                    if alias_nodes > limits.max_alias_nodes {
                        out.errors.push(LoadError {
                            kind: LoadErrorKind::AliasBudget,
                            message: format!(
                                "aliases expand to more than {} nodes (an alias bomb?); document skipped",
                                limits.max_alias_nodes
                            ),
                            span: sp,
                            document: doc_index,
                        });
                        skip_depth = Some(stack.len());
                        stack.clear();
                        root = None;
                        continue;
                    }
                    if out.shared.last() != Some(&node.span) {
                        out.shared.push(node.span);
                    }
                    Some((node.clone(), 0))
                }
                None => {
                    out.errors.push(LoadError {
                        kind: LoadErrorKind::UnknownAnchor,
                        message: "alias to an unknown anchor".into(),
                        span: sp,
                        document: doc_index,
                    });
                    Some((Node::new(Value::Null, sp), 0))
                }
            },
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= limits.max_depth {
                    out.errors.push(LoadError {
                        kind: LoadErrorKind::TooDeep,
                        message: format!(
                            "nesting deeper than {} levels; document skipped",
                            limits.max_depth
                        ),
                        span: sp,
                        document: doc_index,
                    });
                    skip_depth = Some(stack.len() + 1);
                    stack.clear();
                    root = None;
                    continue;
                }
                if matches!(event, Event::SequenceStart(..)) {
                    stack.push(Frame::Seq {
                        items: Vec::new(),
                        start: sp,
                        anchor,
                    });
                } else {
                    stack.push(Frame::Map {
                        entries: Vec::new(),
                        key: None,
                        start: sp,
                        anchor,
                        seen: None,
                    });
                }
                None
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq {
                    items,
                    start,
                    anchor,
                }) => {
                    // Boxed: no growth slack (it would double the tree).
                    let end = items.last().map_or(sp.end, |n| n.span.end.max(sp.end));
                    Some((
                        Node::new(Value::Seq(items.into()), Span::new(start.start, end)),
                        anchor,
                    ))
                }
                _ => None,
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map {
                    entries,
                    start,
                    anchor,
                    ..
                }) => {
                    let entries = merge_keys(entries);
                    let end = entries
                        .last()
                        .map_or(sp.end, |e| e.value.span.end.max(sp.end));
                    Some((
                        Node::new(Value::Map(entries.into()), Span::new(start.start, end)),
                        anchor,
                    ))
                }
                _ => None,
            },
        };

        let Some((node, anchor)) = finished else {
            continue;
        };
        if anchor != 0 {
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            None => {
                if in_document {
                    root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, key, seen, ..
            }) => match key.take() {
                None => {
                    if matches!(node.value, Value::Seq(_) | Value::Map(_)) {
                        out.errors.push(LoadError {
                            kind: LoadErrorKind::ComplexKey,
                            message: "a mapping key must be a scalar".into(),
                            span: node.span,
                            document: doc_index,
                        });
                        *key = Some((CompactString::const_new("?"), node.span));
                    } else {
                        let span = node.span;
                        // sigs.k8s.io/yaml turns a key that is not a string
                        // into text (convertToJSONableObject), and refuses a
                        // null one: the document does not convert to JSON.
                        let text = match node.value {
                            Value::Str(s) => CompactString::from(s.as_str()),
                            Value::Null => {
                                out.errors.push(LoadError {
                                    kind: LoadErrorKind::ComplexKey,
                                    message: "a null mapping key: kubectl cannot convert it to JSON (unsupported map key of type <nil>); quote it".into(),
                                    span,
                                    document: doc_index,
                                });
                                CompactString::const_new("null")
                            }
                            Value::Float(f) => CompactString::from(scalar::go_float_key(f)),
                            other => match Node::new(other, span).scalar_text() {
                                Some(t) => CompactString::from(t.as_ref()),
                                None => CompactString::default(),
                            },
                        };
                        *key = Some((text, span));
                    }
                }
                Some((k, key_span)) => {
                    let k = crate::tree::key(&k);
                    // The earlier entry of a repeated key: by the key map
                    // once the mapping is large, else by a scan.
                    let prev = if k == "<<" {
                        None
                    } else {
                        match seen.as_ref() {
                            Some(s) => s.get(&k).copied(),
                            None => entries.iter().position(|e| e.key == k),
                        }
                    };
                    let entry = Entry {
                        key: k,
                        key_span,
                        value: node,
                    };
                    match prev {
                        Some(i) => {
                            // The line index is built once, on the first
                            // duplicate: 100,000 of them took 30 s counting
                            // lines from the start each time.
                            let lines = line_index.get_or_insert_with(|| LineIndex::new(full));
                            out.errors.push(LoadError {
                                kind: LoadErrorKind::DuplicateKey,
                                message: format!(
                                    "mapping key \"{}\" already defined at line {}; kubectl keeps this later value",
                                    entry.key,
                                    lines.line_col(entries[i].key_span.start).0
                                ),
                                span: key_span,
                                document: doc_index,
                            });
                            // The later value wins, in the first one's place.
                            entries[i] = entry;
                        }
                        None => {
                            match seen {
                                Some(s) => {
                                    s.insert(entry.key, entries.len());
                                }
                                None if entries.len() + 1 >= KEY_SET_AFTER => {
                                    let mut s: HashMap<crate::tree::Key, usize> = entries
                                        .iter()
                                        .enumerate()
                                        .map(|(i, e)| (e.key, i))
                                        .collect();
                                    s.insert(entry.key, entries.len());
                                    *seen = Some(s);
                                }
                                None => {}
                            }
                            entries.push(entry);
                        }
                    }
                }
            },
        }
    }
    if limits.share {
        let mut sharing = crate::share::Sharing::default();
        for d in &mut out.documents {
            sharing.share_below(&mut d.root);
        }
    }
    Part {
        loaded: out,
        documents_seen: doc_index,
        alias_nodes,
    }
}

/// Applies `<<` merge keys: the mapping's own keys win, then the merged
/// mappings in order (the first one listed wins among them).
fn merge_keys(entries: Vec<Entry>) -> Vec<Entry> {
    if !entries.iter().any(|e| e.key == "<<") {
        return entries;
    }
    let mut own: Vec<Entry> = Vec::with_capacity(entries.len());
    let mut merged: Vec<Node> = Vec::new();
    for e in entries {
        if e.key == "<<" {
            match e.value.value {
                Value::Map(_) => merged.push(e.value),
                Value::Seq(_) => {
                    let mut value = e.value;
                    if let Value::Seq(items) = &mut value.value {
                        merged.extend(std::mem::take(items).iter().cloned());
                    }
                }
                _ => own.push(e),
            }
        } else {
            own.push(e);
        }
    }
    for mut m in merged {
        if let Value::Map(es) = &mut m.value {
            for e in std::mem::take(es).iter().cloned() {
                if !own.iter().any(|o| o.key == e.key) {
                    own.push(e);
                }
            }
        }
    }
    own
}

/// A tag's suffix when it is one of YAML's core tags (`!!int`, or written
/// out as `!<tag:yaml.org,2002:int>`).
fn core_tag(tag: Option<&Tag>) -> Option<&str> {
    let tag = tag?;
    if tag.handle == "tag:yaml.org,2002:" || tag.handle == "!!" {
        Some(tag.suffix.as_str())
    } else if tag.handle.is_empty() {
        tag.suffix.strip_prefix("tag:yaml.org,2002:")
    } else {
        None
    }
}

/// A scalar as go-yaml v2 decodes it: a plain one untagged is resolved
/// (booleans, numbers, null), a quoted or block one untagged is a string,
/// and a tagged one as `tagged` says; with go-yaml's error when the tag
/// does not fit (the document then does not convert).
fn scalar(text: &str, style: PStyle, tag: Option<&Tag>, sp: Span) -> (Node, Option<String>) {
    let style = match style {
        PStyle::Plain => ScalarStyle::Plain,
        PStyle::SingleQuoted | PStyle::DoubleQuoted => ScalarStyle::Quoted,
        _ => ScalarStyle::Block,
    };
    let value = match tag {
        None if style == ScalarStyle::Plain => resolve_plain(text),
        None => Value::Str(Text::new(text, style)),
        Some(t) => match tagged::tagged(core_tag(Some(t)), text, style) {
            Ok(v) => v,
            Err(message) => {
                return (
                    Node::new(Value::Str(Text::new(text, style)), sp),
                    Some(message),
                )
            }
        },
    };
    (Node::new(value, sp), None)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod block_spans {
    #[test]
    fn block_scalar_span_starts_at_content() {
        let text = "a:\n  b: >-\n    line one\n    two\n";
        let l = super::load(text, super::Limits::default());
        let b = l.documents[0].root.get("a").unwrap().get("b").unwrap();
        assert_eq!(
            crate::tree::LineIndex::new(text).line_col(b.span.start),
            (3, 5),
            "{:?}",
            b.span
        );
    }
}
