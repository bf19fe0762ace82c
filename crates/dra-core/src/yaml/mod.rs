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
mod scalar;

pub use scalar::resolve_plain;

use std::collections::HashMap;

use saphyr_parser::{Event, Marker, Parser, ScalarStyle as PStyle, Span as PSpan, Tag};

use compact_str::CompactString;

use crate::tree::{Entry, Node, ScalarStyle, Span, Value};

/// Bounds that keep hostile input from exhausting the stack or memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest nesting of collections accepted in one document.
    pub max_depth: usize,
    /// Nodes that alias expansion may add to one file.
    pub max_alias_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 256,
            max_alias_nodes: 100_000,
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
    /// A mapping key that is itself a list or mapping.
    ComplexKey,
    /// An alias to an anchor that was never defined.
    UnknownAnchor,
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
}

fn pos(m: &Marker) -> u32 {
    u32::try_from(m.index()).unwrap_or(u32::MAX)
}

/// The 1-based line of a character index (for messages; error path only).
fn line_of(text: &str, index: u32) -> usize {
    text.chars()
        .take(index as usize)
        .filter(|c| *c == '\n')
        .count()
        + 1
}

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
        seen: Option<std::collections::HashSet<CompactString>>,
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
    let starts = part_starts(text, min_part);
    if starts.len() < 2 {
        return load_part(text, 0, text.len(), 0, limits, path).loaded;
    }
    let mut ranges = Vec::with_capacity(starts.len());
    let mut char_base = 0u32;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        ranges.push((start, end, char_base));
        let chars = text[start..end].chars().count();
        char_base = char_base.saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
    }
    use rayon::prelude::*;
    let parts: Vec<Part> = ranges
        .par_iter()
        .map(|&(start, end, base)| load_part(text, start, end, base, limits, path))
        .collect();
    let alias_nodes: usize = parts.iter().map(|p| p.alias_nodes).sum();
    let redo = alias_nodes > limits.max_alias_nodes
        || parts.iter().any(|p| {
            p.loaded
                .errors
                .iter()
                .any(|e| matches!(e.kind, LoadErrorKind::Syntax | LoadErrorKind::AliasBudget))
        });
    if redo {
        return load_part(text, 0, text.len(), 0, limits, path).loaded;
    }
    let mut out = Loaded::default();
    let mut doc_base = 0usize;
    for part in parts {
        out.documents
            .extend(part.loaded.documents.into_iter().map(|mut d| {
                d.index += doc_base;
                d
            }));
        out.errors
            .extend(part.loaded.errors.into_iter().map(|mut e| {
                e.document += doc_base;
                e
            }));
        doc_base += part.documents_seen;
    }
    out
}

/// Byte offsets where parts of about `min_part` bytes (or an equal share of
/// the stream per core, if larger) begin: 0, then lines that start a document.
fn part_starts(text: &str, min_part: usize) -> Vec<usize> {
    if text.len() < min_part.saturating_mul(2) {
        return vec![0];
    }
    let per_core = text.len() / (rayon::current_num_threads().max(1) * 2);
    starts_every(text, min_part.max(per_core).max(1))
}

/// 0, then the first document start at least `step` bytes after the last.
fn starts_every(text: &str, step: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let bytes = text.as_bytes();
    let mut from = step;
    while from < bytes.len() {
        let Some(i) = find(&bytes[from..], b"\n---") else {
            break;
        };
        let line = from + i + 1;
        let marker_ends_token = bytes
            .get(line + 3)
            .is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        if marker_ends_token {
            starts.push(line);
            from = line + step;
        } else {
            from = line + 3;
        }
    }
    starts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

/// The pieces a part the fast path cannot read is retried in.
const SUB_PART: usize = 256 << 10;

/// `full[start..end]` loaded piece by piece (see [`load_part`]); `None` when
/// a piece has an error that one pass over the part could see differently.
fn load_pieces(
    full: &str,
    start: usize,
    end: usize,
    char_base: u32,
    limits: Limits,
) -> Option<Part> {
    let text = &full[start..end];
    let starts = starts_every(text, SUB_PART);
    if starts.len() < 2 {
        return None;
    }
    let mut out = Part {
        loaded: Loaded::default(),
        documents_seen: 0,
        alias_nodes: 0,
    };
    let mut base = char_base;
    for (i, &a) in starts.iter().enumerate() {
        let b = starts.get(i + 1).copied().unwrap_or(text.len());
        let piece = load_part(full, start + a, start + b, base, limits, Path::Fast);
        if piece
            .loaded
            .errors
            .iter()
            .any(|e| matches!(e.kind, LoadErrorKind::Syntax | LoadErrorKind::AliasBudget))
        {
            return None;
        }
        let doc_base = out.documents_seen;
        out.loaded
            .documents
            .extend(piece.loaded.documents.into_iter().map(|mut d| {
                d.index += doc_base;
                d
            }));
        out.loaded
            .errors
            .extend(piece.loaded.errors.into_iter().map(|mut e| {
                e.document += doc_base;
                e
            }));
        out.documents_seen += piece.documents_seen;
        out.alias_nodes += piece.alias_nodes;
        base = base.saturating_add(u32::try_from(text[a..b].chars().count()).unwrap_or(u32::MAX));
    }
    Some(out)
}

/// What one part of a stream loaded to.
struct Part {
    loaded: Loaded,
    /// Documents the part ended (its document indices start at 0).
    documents_seen: usize,
    alias_nodes: usize,
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
    // saphyr counts some positions in bytes (a `%` directive line with
    // non-ASCII text shifts every later mark): no span may leave the part.
    let part_end =
        char_base.saturating_add(u32::try_from(text.chars().count()).unwrap_or(u32::MAX));
    let at = |m: &Marker| pos(m).saturating_add(char_base).min(part_end);
    let span = |s: &PSpan| Span::new(at(&s.start), at(&s.end));
    let mut out = Loaded::default();
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
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
                out.errors.push(LoadError {
                    kind: LoadErrorKind::Syntax,
                    message: format!("invalid YAML: {}", e.info()),
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
                Some((scalar(&text, style, tag.as_deref(), sp), anchor))
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
                    mut items,
                    start,
                    anchor,
                }) => {
                    // Most collections are small; growth slack would double the tree.
                    items.shrink_to_fit();
                    let end = items.last().map_or(sp.end, |n| n.span.end.max(sp.end));
                    Some((
                        Node::new(Value::Seq(items), Span::new(start.start, end)),
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
                    let mut entries = merge_keys(entries);
                    entries.shrink_to_fit();
                    let end = entries
                        .last()
                        .map_or(sp.end, |e| e.value.span.end.max(sp.end));
                    Some((
                        Node::new(Value::Map(entries), Span::new(start.start, end)),
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
                        let text = match node.value {
                            Value::Str(s) => s,
                            Value::Null => CompactString::default(),
                            // sigs.k8s.io/yaml turns non-string keys into their text.
                            other => match (Node {
                                value: other,
                                span,
                                style: node.style,
                            })
                            .scalar_text()
                            {
                                Some(t) => CompactString::from(t.as_ref()),
                                None => CompactString::default(),
                            },
                        };
                        *key = Some((text, span));
                    }
                }
                Some((k, key_span)) => {
                    let maybe_dup = seen.as_ref().is_none_or(|s| s.contains(&k));
                    if k != "<<" && maybe_dup {
                        if let Some(prev) = entries.iter().find(|e| e.key == k) {
                            out.errors.push(LoadError {
                                kind: LoadErrorKind::DuplicateKey,
                                message: format!(
                                    "mapping key \"{k}\" already defined at line {}",
                                    line_of(full, prev.key_span.start)
                                ),
                                span: key_span,
                                document: doc_index,
                            });
                            entries.retain(|e| e.key != k);
                        }
                    }
                    match seen {
                        Some(s) => {
                            s.insert(k.clone());
                        }
                        None if entries.len() + 1 >= KEY_SET_AFTER => {
                            let mut s: std::collections::HashSet<CompactString> =
                                entries.iter().map(|e| e.key.clone()).collect();
                            s.insert(k.clone());
                            *seen = Some(s);
                        }
                        None => {}
                    }
                    entries.push(Entry {
                        key: k,
                        key_span,
                        value: node,
                    });
                }
            },
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
                        merged.append(items);
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
            for e in es.drain(..) {
                if !own.iter().any(|o| o.key == e.key) {
                    own.push(e);
                }
            }
        }
    }
    own
}

fn core_tag(tag: Option<&Tag>) -> Option<&str> {
    let tag = tag?;
    if tag.handle == "tag:yaml.org,2002:" || tag.handle == "!!" {
        Some(tag.suffix.as_str())
    } else {
        None
    }
}

fn scalar(text: &str, style: PStyle, tag: Option<&Tag>, sp: Span) -> Node {
    let style = match style {
        PStyle::Plain => ScalarStyle::Plain,
        PStyle::SingleQuoted | PStyle::DoubleQuoted => ScalarStyle::Quoted,
        _ => ScalarStyle::Block,
    };
    let value = match core_tag(tag) {
        Some("str") => Value::Str(text.into()),
        Some(_) | None if style != ScalarStyle::Plain => Value::Str(text.into()),
        _ => resolve_plain(text),
    };
    Node {
        value,
        span: sp,
        style,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Node {
        let mut l = load(text, Limits::default());
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        l.documents.remove(0).root
    }

    #[test]
    fn a_document_the_fast_path_cannot_read_costs_only_its_piece() {
        // Over a MiB of block-style slices with one flow-style document and
        // a multi-byte character in the middle: the same documents, spans
        // and indices as saphyr alone reads.
        let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
            nodes: 300,
            gpus_per_node: 2,
            partitions_per_gpu: 3,
        });
        let mid = fleet.len() / 2 + fleet[fleet.len() / 2..].find("\n---\n").unwrap() + 1;
        let text = format!(
            "{}---\n{{kind: Flow, metadata: {{name: \"\u{e9}t\u{e9}\"}}}}\n{}",
            &fleet[..mid],
            &fleet[mid..]
        );
        assert!(text.len() > 4 * SUB_PART, "{}", text.len());
        assert!(block::load(&text, 0, Limits::default()).is_none());
        let pieces = load_pieces(&text, 0, text.len(), 0, Limits::default()).unwrap();
        assert!(
            pieces.loaded.errors.is_empty(),
            "{:?}",
            pieces.loaded.errors
        );
        let general = load_general(&text, Limits::default());
        assert_eq!(pieces.loaded, general);
        assert_eq!(load_split(&text, Limits::default(), 64 << 10), general);
    }

    #[test]
    fn large_streams_are_split_at_document_markers_only() {
        let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
            nodes: 40,
            gpus_per_node: 2,
            partitions_per_gpu: 1,
        });
        let starts = part_starts(&fleet, 4096);
        assert!(starts.len() > 2, "{starts:?}");
        for &s in &starts[1..] {
            assert!(fleet[s..].starts_with("---"), "part at {s}");
            assert_eq!(&fleet[s - 1..s], "\n");
        }
        // `----` and `---x` start no document.
        let text = format!("a: 1\n{}\n----\n---x: 1\n", "b: 2\n".repeat(10));
        assert_eq!(part_starts(&text, 4), vec![0]);
        let split = load_split(&fleet, Limits::default(), 4096);
        assert_eq!(split, load_split(&fleet, Limits::default(), usize::MAX));
        assert_eq!(split.documents.last().map(|d| d.index), Some(80));
    }

    #[test]
    fn a_syntax_error_in_one_part_stops_the_stream_as_one_pass_does() {
        let good = "a: 1\n---\n".repeat(200);
        let text = format!("{good}b: [\n---\n{good}");
        let split = load_split(&text, Limits::default(), 64);
        assert_eq!(split, load_split(&text, Limits::default(), usize::MAX));
        assert_eq!(split.errors.len(), 1);
        assert_eq!(split.documents.len(), 200);
    }

    #[test]
    fn the_alias_budget_counts_the_whole_file_when_split() {
        let doc = "a: &x [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*x, *x, *x]\n---\n";
        let text = doc.repeat(40);
        let limits = Limits {
            max_depth: 256,
            max_alias_nodes: 1000,
        };
        let split = load_split(&text, limits, 64);
        assert_eq!(split, load_split(&text, limits, usize::MAX));
        assert!(split
            .errors
            .iter()
            .any(|e| e.kind == LoadErrorKind::AliasBudget));
    }

    #[test]
    fn spans_point_at_keys_and_values() {
        let text = "a:\n  b: [1, x]\n";
        let lc = crate::tree::LineIndex::new(text);
        let n = one(text);
        let a = n.entry("a").unwrap();
        assert_eq!(lc.line_col(a.key_span.start), (1, 1));
        let b = a.value.entry("b").unwrap();
        assert_eq!(lc.line_col(b.key_span.start), (2, 3));
        let items = b.value.as_seq().unwrap();
        assert_eq!(lc.line_col(items[1].span.start), (2, 10));
        assert_eq!(items[0].value, Value::Int(1));
        assert_eq!(items[1].as_str(), Some("x"));
    }

    #[test]
    fn yaml11_scalars() {
        assert_eq!(resolve_plain("yes"), Value::Bool(true));
        assert_eq!(resolve_plain("Off"), Value::Bool(false));
        assert_eq!(resolve_plain("8Gi"), Value::Str("8Gi".into()));
        assert_eq!(resolve_plain("010"), Value::Int(8));
        assert_eq!(resolve_plain("1.5"), Value::Float(1.5));
        assert_eq!(resolve_plain("1e3"), Value::Float(1000.0));
        assert_eq!(resolve_plain("-"), Value::Str("-".into()));
        // go-yaml v2's resolve: strconv.ParseInt(plain, 0, 64) takes every
        // base prefix in either case; a float ParseFloat cannot hold stays
        // a string.
        assert_eq!(resolve_plain("0o17"), Value::Int(15));
        assert_eq!(resolve_plain("0X1f"), Value::Int(31));
        assert_eq!(resolve_plain("-0B101"), Value::Int(-5));
        assert_eq!(
            resolve_plain("1e999999999"),
            Value::Str("1e999999999".into())
        );
        assert_eq!(resolve_plain("1e-999999999"), Value::Float(0.0));
        assert_eq!(
            resolve_plain("99999999999999999999999999"),
            Value::Float(1e26)
        );
        let huge = "9".repeat(400);
        assert_eq!(resolve_plain(&huge), Value::Str(huge.as_str().into()));
        assert_eq!(resolve_plain("1.2.3"), Value::Str("1.2.3".into()));
        assert_eq!(one("'8'").value, Value::Str("8".into()));
    }

    #[test]
    fn merge_keys_are_expanded() {
        let n = one("base: &b {x: 1, z: 2}\nobj:\n  <<: *b\n  z: 3\n");
        let obj = n.get("obj").unwrap();
        assert_eq!(obj.get("x").unwrap().value, Value::Int(1));
        assert_eq!(obj.get("z").unwrap().value, Value::Int(3));
        // As sigs.k8s.io/yaml: a plain `y` key is the boolean true, keyed "true".
        assert!(one("y: 1\n").get("true").is_some());
        assert!(obj.get("<<").is_none());
    }

    #[test]
    fn alias_bomb_is_refused() {
        let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let prev = (b'a' + i - 1) as char;
            let cur = (b'a' + i) as char;
            s.push_str(&format!("{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        let l = load(&s, Limits::default());
        assert_eq!(l.errors[0].kind, LoadErrorKind::AliasBudget);
        assert!(l.documents.is_empty());
    }

    #[test]
    fn deep_nesting_is_refused_without_overflow() {
        let s = "- ".repeat(100_000) + "x\n";
        let l = load(&s, Limits::default());
        assert_eq!(l.errors[0].kind, LoadErrorKind::TooDeep);
        let s = "[".repeat(10_000);
        let l = load(&s, Limits::default());
        assert!(!l.errors.is_empty());
    }

    #[test]
    fn duplicate_keys_and_multi_docs() {
        let text = "a: 1\na: 2\n---\nb: 1\n";
        let l = load(text, Limits::default());
        assert_eq!(l.errors.len(), 1);
        assert_eq!(l.errors[0].kind, LoadErrorKind::DuplicateKey);
        assert_eq!(
            crate::tree::LineIndex::new(text)
                .line_col(l.errors[0].span.start)
                .0,
            2
        );
        assert_eq!(l.documents.len(), 2);
        assert_eq!(l.documents[1].index, 1);
    }

    #[test]
    fn syntax_error_keeps_earlier_documents() {
        let l = load("a: 1\n---\nb: [\n", Limits::default());
        assert_eq!(l.documents.len(), 1);
        assert_eq!(l.errors[0].kind, LoadErrorKind::Syntax);
    }
}
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
