//! A fast path for the plain block style that Kubernetes manifests are
//! nearly always written in: block mappings and sequences, plain and
//! single-line quoted scalars, comments, `---` between documents.
//!
//! saphyr is a general YAML 1.2 parser and runs at about 30 MB/s here; a
//! fleet of ResourceSlices is tens of megabytes of the simplest YAML. This
//! path builds the same [`Node`] tree, with the same spans, as the saphyr
//! path does. It accepts only what it is sure of: anything else (anchors,
//! tags, block or multi-line scalars, flow collections other than `[]` and
//! `{}`, escapes, tabs, non-ASCII text, duplicate or merge keys, errors)
//! makes it give up, and the part is loaded by saphyr instead. A proptest
//! and the corpus compare the two paths.
//!
//! For readers of an inventory ([`Limits::share`]) it also reads each
//! short block value once per part: the same lines under a key read to the
//! same tree once spans are dropped ([`Memoized`]; a proptest compares the
//! shared load with the plain one).

use compact_str::CompactString;

use super::{resolve_plain, scalar::resolve_typed, Document, Limits};
use crate::share::Sharing;
use crate::tree::{Entry, Key, Node, ScalarStyle, Span, Text, Value};
use foldhash::fast::FixedState;
use hashbrown::HashTable;
use std::borrow::Cow;
use std::hash::BuildHasher;

/// Deepest nesting this path builds; deeper input goes to saphyr, which
/// reports [`Limits::max_depth`].
const MAX_DEPTH: usize = 100;

/// Documents of `text`, or `None` when the text is not in the plain block
/// subset. Spans are offset by `char_base`; the second value is the number
/// of documents ended, as the saphyr path counts them.
pub(super) fn load(text: &str, char_base: u32, limits: Limits) -> Option<(Vec<Document>, usize)> {
    let bytes = text.as_bytes();
    // One byte is one character below 0x80; tabs and CR change whitespace rules.
    if !in_subset(bytes) {
        return None;
    }
    let mut p = Block {
        t: bytes,
        s: text,
        next_line: 0,
        cur: None,
        bad_line: false,
        base: char_base,
        depth: 0,
        max_depth: limits.max_depth.min(MAX_DEPTH),
        entries: Vec::new(),
        items: Vec::new(),
        sharing: limits.share.then(Sharing::reused),
        memo: HashTable::new(),
        peak: 0,
        tries: foldhash::HashMap::default(),
    };
    p.advance();
    let mut docs = Vec::new();
    while let Some(line) = p.cur {
        if line.doc_start {
            p.advance();
        }
        let root = match p.cur {
            Some(line) if !line.doc_start => {
                let root = p.node(line.content, line.indent)?;
                if p.cur.is_some_and(|l| !l.doc_start) {
                    return None;
                }
                root
            }
            // An empty document: a null at the next token (`---` or the end).
            Some(l) => Node::new(Value::Null, Span::new(p.at(l.content), p.at(l.content + 3))),
            None => Node::new(Value::Null, Span::point(p.at(bytes.len()))),
        };
        docs.push(Document {
            index: docs.len(),
            root,
        });
    }
    if let Some(sharing) = p.sharing.take() {
        sharing.give_back();
    }
    if p.bad_line {
        return None;
    }
    let seen = docs.len();
    Some((docs, seen))
}

/// Whether every byte is ASCII and no control character but `\n`. Folded
/// without an early exit, a block at a time, so that it compiles to vector
/// instructions: the byte-at-a-time `any` was 7% of a 20,000-node explain.
fn in_subset(bytes: &[u8]) -> bool {
    bytes.chunks(4096).all(|block| {
        !block.iter().fold(false, |bad, &b| {
            bad | (b >= 0x80) | ((b < 0x20) & (b != b'\n'))
        })
    })
}

/// A line with a token on it: not blank, not only a comment.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Byte offset of the first non-space character.
    content: usize,
    /// Byte offset of the line break (or the end of the text).
    end: usize,
    indent: usize,
    /// A `---` line starting a document.
    doc_start: bool,
}

struct Block<'a> {
    t: &'a [u8],
    s: &'a str,
    /// Byte offset where the scan for the next significant line resumes.
    next_line: usize,
    /// The current significant line, not yet consumed; `None` at the end.
    cur: Option<Line>,
    /// A line outside the subset was met (`--- x`, `...`, a directive).
    bad_line: bool,
    base: u32,
    depth: usize,
    max_depth: usize,
    /// The entries and items of the collections being built, innermost
    /// last: a collection takes its own off the top when it ends, in one
    /// allocation of the exact size. Growing each collection's vector as it
    /// went reallocated (and shrank) most of them, scattering the tree;
    /// built this way, a collection's children lie before it in memory in
    /// parse order, which is how the allocator and the rules walk them.
    entries: Vec<Entry>,
    items: Vec<Node>,
    /// With [`Limits::share`]: the lists built so far, each once.
    sharing: Option<Sharing>,
    /// With [`Limits::share`]: the block values read so far, by their text.
    memo: HashTable<Memoized>,
    /// The deepest nesting reached so far (a memoized value's height).
    peak: usize,
    /// Per key and column: how often its value was looked up and found.
    tries: foldhash::HashMap<(Key, usize), Tries>,
}

/// Lookups of a key's block values, and how many were found.
#[derive(Default)]
struct Tries {
    looked: u32,
    found: u32,
}

/// Values of a key looked up before the share of them found decides
/// whether its values are looked up at all (found in under one of 8: not).
const MEMO_TRIAL: u32 = 32;

/// Most lines a block value may have to be remembered: longer ones repeat
/// rarely, and each key with a block value scans this far ahead.
const MEMO_LINES: usize = 16;

/// A block value already read in this part (share mode): where its text
/// lies, how it was reached, and what it read to. With spans dropped, the
/// same text under a key at the same column reads to the same tree, so it
/// is read once per part (issue 37: a fleet's devices repeat their
/// capacity, counters and attribute values line for line).
struct Memoized {
    hash: u64,
    /// Its lines, `t[start..end]`.
    start: usize,
    end: usize,
    /// The column of the key it is the value of.
    col: usize,
    /// An indentless sequence (at the key's own column).
    indentless: bool,
    /// The nesting it adds.
    height: usize,
    node: Node,
}

/// Characters that cannot start a plain scalar or key here.
fn indicator(b: u8) -> bool {
    matches!(
        b,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

impl<'a> Block<'a> {
    /// Moves to the next line with a token on it (lines are scanned as the
    /// parser goes, so no line table is held).
    fn advance(&mut self) {
        let t = self.t;
        self.cur = self.line_from(self.next_line);
        let Some(line) = self.cur else {
            self.next_line = t.len();
            return;
        };
        self.next_line = line.end + 1;
        let start = line.content - line.indent;
        if line.doc_start && t[start + 3..line.end].iter().any(|&b| b != b' ')
            || line.indent == 0 && (t[start] == b'%' || t[start..line.end].starts_with(b"..."))
        {
            // `--- content`, `----`, directives and document-end markers.
            self.bad_line = true;
            self.cur = None;
        }
    }

    fn at(&self, byte: usize) -> u32 {
        self.base
            .saturating_add(u32::try_from(byte).unwrap_or(u32::MAX))
    }

    /// Where the next token starts: where saphyr ends a block collection.
    fn next_token(&self) -> u32 {
        match self.cur {
            Some(l) => self.at(l.content),
            None => self.at(self.t.len()),
        }
    }

    /// Where a block collection ends, as the saphyr path spans it: at its
    /// last value or at the next token, whichever is later.
    fn collection_end(&self, last_value_end: Option<u32>) -> u32 {
        last_value_end.unwrap_or(0).max(self.next_token())
    }

    fn is_dash(&self, p: usize, end: usize) -> bool {
        self.t[p] == b'-' && (p + 1 == end || self.t[p + 1] == b' ')
    }

    /// A block collection starting at byte `p` (column `col`) of the current line.
    fn node(&mut self, p: usize, col: usize) -> Option<Node> {
        let Line { end, .. } = self.cur?;
        if self.is_dash(p, end) {
            self.seq(p, col, false)
        } else if self.key(p, end).is_some() {
            self.map(p, col)
        } else {
            None
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        self.peak = self.peak.max(self.depth);
        (self.depth < self.max_depth).then_some(())
    }

    /// The block value of `key` at column `col` whose first line is
    /// `next`: read, or in share mode the tree of the same text read
    /// before ([`Memoized`]). A key whose values rarely repeat (a device's
    /// `attributes`, with its UUID) stops being looked up after a few
    /// values: its lines are then read once, not scanned and hashed first.
    fn block_value(&mut self, key: Key, next: Line, col: usize, indentless: bool) -> Option<Node> {
        let read = |b: &mut Self| {
            if indentless {
                b.seq(next.content, col, true)
            } else {
                b.node(next.content, next.indent)
            }
        };
        if self.sharing.is_none() {
            return read(self);
        }
        let tries = self.tries.entry((key, col)).or_default();
        if tries.looked >= MEMO_TRIAL && tries.found * 8 < tries.looked {
            return read(self);
        }
        tries.looked += 1;
        let Some(end) = self.extent(next, col, indentless) else {
            return read(self);
        };
        let start = next.content - next.indent;
        let text = &self.t[start..end];
        let hash = FixedState::default().hash_one((col, indentless, text));
        let t = self.t;
        let found = self.memo.find(hash, |m| {
            m.col == col && m.indentless == indentless && &t[m.start..m.end] == text
        });
        if let Some(m) = found {
            if self.depth + m.height < self.max_depth {
                let node = m.node.clone();
                if let Some(tries) = self.tries.get_mut(&(key, col)) {
                    tries.found += 1;
                }
                self.next_line = end + 1;
                self.advance();
                return Some(node);
            }
        }
        let (depth, peak) = (self.depth, self.peak);
        self.peak = depth;
        let node = read(self)?;
        let height = self.peak - depth;
        self.peak = self.peak.max(peak);
        // Remembered only when it was read to the end of its lines: a read
        // that stopped short fails the key's mapping anyway.
        if self.cur.is_none_or(|l| l.content > end) {
            let mut kept = node.clone();
            kept.span = Span::default();
            self.memo.insert_unique(
                hash,
                Memoized {
                    hash,
                    start,
                    end,
                    col,
                    indentless,
                    height,
                    node: kept,
                },
                |m| m.hash,
            );
        }
        Some(node)
    }

    /// Where the lines of a block value starting at line `first` end (the
    /// byte of the last line's break), or `None` past [`MEMO_LINES`]: its
    /// lines are those indented past `col` (and, for an indentless
    /// sequence, the items at `col`), blank and comment lines between them.
    fn extent(&self, first: Line, col: usize, indentless: bool) -> Option<usize> {
        let t = self.t;
        let mut end = first.end;
        let mut from = (first.end + 1).min(t.len());
        for _ in 1..MEMO_LINES {
            let Some(line) = self.line_from(from) else {
                return Some(end);
            };
            let inside = line.indent > col
                || indentless && line.indent == col && self.is_dash(line.content, line.end);
            if !inside {
                return Some(end);
            }
            end = line.end;
            from = (line.end + 1).min(t.len());
        }
        None
    }

    /// The next line with a token on it from byte `from` (`None` at the
    /// end): what [`Block::advance`] moves to, and what
    /// [`Block::extent`] looks ahead through.
    fn line_from(&self, mut from: usize) -> Option<Line> {
        let t = self.t;
        while from < t.len() {
            let end = memchr::memchr(b'\n', &t[from..]).map_or(t.len(), |i| from + i);
            let indent = t[from..end].iter().take_while(|&&b| b == b' ').count();
            let content = from + indent;
            if content == end || t[content] == b'#' {
                from = end + 1;
                continue;
            }
            return Some(Line {
                content,
                end,
                indent,
                doc_start: indent == 0 && t[from..end].starts_with(b"---"),
            });
        }
        None
    }

    /// A block mapping whose first key is at byte `p`, column `col`.
    fn map(&mut self, mut p: usize, col: usize) -> Option<Node> {
        self.enter()?;
        let start = self.at(p);
        let mark = self.entries.len();
        // The keys, once the mapping is large (see KEY_SET_AFTER).
        let mut seen: Option<std::collections::HashSet<crate::tree::Key>> = None;
        loop {
            let line = self.cur?;
            let (key, key_span, colon) = self.key(p, line.end)?;
            let key = crate::tree::key(&key);
            let dup = match &seen {
                Some(s) => s.contains(&key),
                None => self.entries[mark..].iter().any(|e| e.key == key),
            };
            if key == "<<" || dup {
                return None;
            }
            match &mut seen {
                Some(s) => {
                    s.insert(key);
                }
                None if self.entries.len() - mark + 1 >= super::KEY_SET_AFTER => {
                    let mut s: std::collections::HashSet<crate::tree::Key> =
                        self.entries[mark..].iter().map(|e| e.key).collect();
                    s.insert(key);
                    seen = Some(s);
                }
                None => {}
            }
            let rest = self.skip_spaces(colon + 1, line.end);
            let value = if rest < line.end && self.t[rest] != b'#' {
                let v = self.scalar(rest, line.end)?;
                self.advance();
                v
            } else {
                self.advance();
                match self.cur {
                    Some(next) if !next.doc_start && next.indent > col => {
                        self.block_value(key, next, col, false)?
                    }
                    Some(next)
                        if !next.doc_start
                            && next.indent == col
                            && self.is_dash(next.content, next.end) =>
                    {
                        self.block_value(key, next, col, true)?
                    }
                    _ => Node::new(Value::Null, Span::point(self.at(colon))),
                }
            };
            self.entries.push(Entry {
                key,
                key_span,
                value,
            });
            match self.cur {
                Some(next) if !next.doc_start && next.indent == col => {
                    if self.is_dash(next.content, next.end) {
                        return None;
                    }
                    p = next.content;
                }
                Some(next) if !next.doc_start && next.indent > col => return None,
                _ => break,
            }
        }
        self.depth -= 1;
        let end = self.collection_end(self.entries[mark..].last().map(|e| e.value.span.end));
        let entries = match &mut self.sharing {
            Some(sharing) => sharing.entries(&mut self.entries, mark),
            None => self.entries.drain(mark..).collect(),
        };
        Some(Node::new(Value::Map(entries), Span::new(start, end)))
    }

    /// A block sequence whose first `-` is at byte `p`, column `col`.
    /// `indentless`: at the column of the mapping key that holds it.
    fn seq(&mut self, mut p: usize, col: usize, indentless: bool) -> Option<Node> {
        self.enter()?;
        let mut start = None;
        let mark = self.items.len();
        loop {
            let line = self.cur?;
            let content = self.skip_spaces(p + 1, line.end);
            let item = if content == line.end || self.t[content] == b'#' {
                if indentless && self.items.len() == mark {
                    return None;
                }
                self.advance();
                if self.cur.is_some_and(|n| !n.doc_start && n.indent > col) {
                    return None;
                }
                // saphyr places an empty item where its scanner stopped:
                // the end of the line, past spaces and a comment.
                Node::new(Value::Null, Span::point(self.at(line.end)))
            } else {
                let item_col = col + (content - p);
                if self.is_dash(content, line.end) {
                    self.seq(content, item_col, false)?
                } else if self.key(content, line.end).is_some() {
                    self.map(content, item_col)?
                } else {
                    let v = self.scalar(content, line.end)?;
                    self.advance();
                    v
                }
            };
            if start.is_none() {
                start = Some(if indentless {
                    self.at(content)
                } else {
                    self.at(p)
                });
            }
            self.items.push(item);
            match self.cur {
                Some(next) if !next.doc_start && next.indent == col => {
                    if self.is_dash(next.content, next.end) {
                        p = next.content;
                    } else if indentless {
                        break;
                    } else {
                        return None;
                    }
                }
                Some(next) if !next.doc_start && next.indent > col => return None,
                _ => break,
            }
        }
        self.depth -= 1;
        let end = self.collection_end(self.items[mark..].last().map(|n| n.span.end));
        let start = start.unwrap_or_else(|| self.at(p));
        let items = match &mut self.sharing {
            Some(sharing) => sharing.items(&mut self.items, mark),
            None => self.items.drain(mark..).collect(),
        };
        Some(Node::new(Value::Seq(items), Span::new(start, end)))
    }

    fn skip_spaces(&self, mut p: usize, end: usize) -> usize {
        while p < end && self.t[p] == b' ' {
            p += 1;
        }
        p
    }

    /// The key of a `key: ...` entry at `p`: its text, span and the byte
    /// offset of its `:`. `None` when the line holds no simple key there.
    fn key(&self, p: usize, end: usize) -> Option<(Cow<'a, str>, Span, usize)> {
        let t = self.t;
        match t[p] {
            q @ (b'"' | b'\'') => {
                let (text, close) = self.quoted(p, end, q)?;
                let colon = close + 1;
                if colon < end && t[colon] == b':' && (colon + 1 == end || t[colon + 1] == b' ') {
                    Some((
                        Cow::Owned(text.into()),
                        Span::new(self.at(p), self.at(colon)),
                        colon,
                    ))
                } else {
                    None
                }
            }
            b if indicator(b) => None,
            _ => {
                let mut q = p;
                while q < end {
                    match t[q] {
                        b':' if q + 1 == end || t[q + 1] == b' ' => break,
                        b'#' if t[q - 1] == b' ' => return None,
                        _ => q += 1,
                    }
                }
                if q == end || t[q - 1] == b' ' || q - p > 1000 {
                    return None;
                }
                let text = &self.s[p..q];
                if resolve_typed(text).is_some() {
                    return None;
                }
                Some((Cow::Borrowed(text), Span::new(self.at(p), self.at(q)), q))
            }
        }
    }

    /// A quoted scalar opening at `p` on one line: its decoded text and the
    /// offset of the closing quote.
    fn quoted(&self, p: usize, end: usize, quote: u8) -> Option<(CompactString, usize)> {
        let t = self.t;
        let mut q = p + 1;
        let mut text = CompactString::default();
        let mut from = q;
        loop {
            if q >= end {
                return None;
            }
            match t[q] {
                b'\\' if quote == b'"' => return None,
                b'\'' if quote == b'\'' && t.get(q + 1) == Some(&b'\'') && q + 1 < end => {
                    text.push_str(&self.s[from..=q]);
                    q += 2;
                    from = q;
                }
                b if b == quote => {
                    text.push_str(&self.s[from..q]);
                    return Some((text, q));
                }
                _ => q += 1,
            }
        }
    }

    /// A value on the rest of a line from `p`: a plain or quoted scalar, or
    /// an empty flow collection. Only a comment may follow it.
    fn scalar(&self, p: usize, end: usize) -> Option<Node> {
        let t = self.t;
        match t[p] {
            q @ (b'"' | b'\'') => {
                let (text, close) = self.quoted(p, end, q)?;
                let after = self.skip_spaces(close + 1, end);
                if after < end && (t[after] != b'#' || after == close + 1) {
                    return None;
                }
                // saphyr ends a quoted scalar after the blanks and comment
                // that follow it on its line.
                Some(Node::new(
                    Value::Str(Text::new(&text, ScalarStyle::Quoted)),
                    Span::new(self.at(p), self.at(end)),
                ))
            }
            open @ (b'[' | b'{') => {
                let close = if open == b'[' { b']' } else { b'}' };
                if t.get(p + 1) != Some(&close) {
                    return None;
                }
                let after = self.skip_spaces(p + 2, end);
                if after < end && (t[after] != b'#' || after == p + 2) {
                    return None;
                }
                let value = if open == b'[' {
                    Value::Seq(Default::default())
                } else {
                    Value::Map(Default::default())
                };
                // As with quoted scalars, the blanks and comment after the
                // closing bracket belong to it.
                Some(Node::new(value, Span::new(self.at(p), self.at(end))))
            }
            b if indicator(b) => None,
            _ => {
                let mut q = p;
                while q < end {
                    match t[q] {
                        b':' if q + 1 == end || t[q + 1] == b' ' => return None,
                        b'#' if t[q - 1] == b' ' => break,
                        _ => q += 1,
                    }
                }
                while t[q - 1] == b' ' {
                    q -= 1;
                }
                let text = &self.s[p..q];
                Some(Node::new(
                    resolve_plain(text),
                    Span::new(self.at(p), self.at(q)),
                ))
            }
        }
    }
}
