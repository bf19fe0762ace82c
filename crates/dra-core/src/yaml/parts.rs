//! Streams cut into parts at document starts, the parts loaded on all
//! cores (and a stream given piece by piece, `load_chunk`), with what makes
//! a part read as it would in one pass over the whole stream.

use super::*;

/// A piece of a stream that ends where a document starts (or where the
/// stream ends), loaded with its spans `char_base` characters in: what
/// [`load`] would give for those documents, their indices from 0. `None`
/// where one pass over the whole stream could read it differently (a syntax
/// error, the alias budget, or a directive that saphyr counts in bytes) or
/// where it has an error at all: the caller then loads the whole stream.
pub fn load_chunk(text: &str, char_base: u32, limits: Limits) -> Option<Chunk> {
    let part = load_in_parts(text, limits, SPLIT_MIN_BYTES, Path::Fast, char_base)?;
    // Messages name lines counted in the text given (a duplicate key's
    // first line): any error sends the file to one pass.
    if !part.loaded.errors.is_empty() {
        return None;
    }
    Some(Chunk {
        loaded: part.loaded,
        documents_seen: part.documents_seen,
        alias_nodes: part.alias_nodes,
    })
}

/// What [`load_chunk`] loaded.
pub struct Chunk {
    pub loaded: Loaded,
    /// Documents the chunk ended: the next chunk's indices start after them.
    pub documents_seen: usize,
    /// Nodes aliases added, towards the stream's budget.
    pub alias_nodes: usize,
}

/// `text` split into parts at document starts and the parts loaded on all
/// cores, spans `char_base` characters in. `None` where one pass could
/// read it differently (see [`load_chunk`]); the alias budget is the
/// caller's to check, as it counts per stream.
pub(super) fn load_in_parts(
    text: &str,
    limits: Limits,
    min_part: usize,
    path: Path,
    char_base: u32,
) -> Option<Part> {
    // saphyr counts positions after a `%` directive line with non-ASCII
    // text in bytes; parts would clamp them where one pass does not.
    if shifted(text) {
        return None;
    }
    let starts = part_starts(text, min_part);
    let mut ranges = Vec::with_capacity(starts.len());
    let mut base = char_base;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        ranges.push((start, end, base));
        let chars = text[start..end].chars().count();
        base = base.saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
    }
    use rayon::prelude::*;
    let parts: Vec<Part> = if ranges.len() < 2 {
        vec![load_part(text, 0, text.len(), char_base, limits, path)]
    } else {
        ranges
            .par_iter()
            .map(|&(start, end, base)| load_part(text, start, end, base, limits, path))
            .collect()
    };
    if parts.iter().any(|p| {
        p.loaded
            .errors
            .iter()
            .any(|e| matches!(e.kind, LoadErrorKind::Syntax | LoadErrorKind::AliasBudget))
    }) {
        return None;
    }
    let mut out = Part::default();
    let last = parts.len() - 1;
    for (i, mut part) in parts.into_iter().enumerate() {
        if i < last {
            let end = ranges[i + 1].2;
            reach_next_marker(&mut part, end);
        }
        out.append(part);
    }
    Some(out)
}

/// Where the last document of `text` starts, if it is not the first: a
/// stream can be cut there (see [`load_chunk`]).
pub fn last_document_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    while let Some(i) = memchr::memmem::rfind(&bytes[..end], b"\n---") {
        let line = i + 1;
        let ends_token = bytes
            .get(line + 3)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        if ends_token {
            return Some(line);
        }
        end = i;
    }
    None
}

/// Byte offsets where parts of about `min_part` bytes (or an equal share of
/// the stream per core, if larger) begin: 0, then lines that start a document.
pub(super) fn part_starts(text: &str, min_part: usize) -> Vec<usize> {
    if text.len() < min_part.saturating_mul(2) {
        return vec![0];
    }
    let per_core = text.len() / (rayon::current_num_threads().max(1) * 2);
    starts_every(text, min_part.max(per_core).max(1))
}

/// 0, then the first document start at least `step` bytes after the last.
pub(super) fn starts_every(text: &str, step: usize) -> Vec<usize> {
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

pub(super) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

/// The pieces a part the fast path cannot read is retried in.
pub(super) const SUB_PART: usize = 256 << 10;

/// `full[start..end]` loaded piece by piece (see [`load_part`]); `None` when
/// a piece has an error that one pass over the part could see differently.
pub(super) fn load_pieces(
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
    let mut out = Part::default();
    let mut base = char_base;
    for (i, &a) in starts.iter().enumerate() {
        let b = starts.get(i + 1).copied().unwrap_or(text.len());
        let mut piece = load_part(full, start + a, start + b, base, limits, Path::Fast);
        if piece
            .loaded
            .errors
            .iter()
            .any(|e| matches!(e.kind, LoadErrorKind::Syntax | LoadErrorKind::AliasBudget))
        {
            return None;
        }
        let next =
            base.saturating_add(u32::try_from(text[a..b].chars().count()).unwrap_or(u32::MAX));
        if i + 1 < starts.len() {
            reach_next_marker(&mut piece, next);
        }
        out.append(piece);
        base = next;
    }
    Some(out)
}

/// A part ends where the next begins, at a `---` line. A document left
/// empty there ends at that marker in one pass (saphyr places the empty
/// node on the next token, the `---`), where the part alone ends it at
/// the end of input: stretch it over the marker (`end`: where the next
/// part begins, in characters).
pub(super) fn reach_next_marker(part: &mut Part, end: u32) {
    end_at_marker(&mut part.loaded, end);
}

/// [`reach_next_marker`] for documents loaded apart from the rest of their
/// stream (`model::StreamedFile`'s chunks).
pub fn end_at_marker(loaded: &mut Loaded, end: u32) {
    if let Some(d) = loaded.documents.last_mut() {
        let span = d.root.span;
        if d.root.is_null() && span.start == end && span.end == end {
            d.root.span.end = end.saturating_add(3);
        }
    }
}

/// What one part of a stream loaded to.
#[derive(Default)]
pub(super) struct Part {
    pub(super) loaded: Loaded,
    /// Documents the part ended (its document indices start at 0).
    pub(super) documents_seen: usize,
    pub(super) alias_nodes: usize,
}

impl Part {
    /// Adds the part that follows: its document indices continue this one's.
    fn append(&mut self, next: Part) {
        let base = self.documents_seen;
        self.loaded
            .documents
            .extend(next.loaded.documents.into_iter().map(|mut d| {
                d.index += base;
                d
            }));
        self.loaded
            .errors
            .extend(next.loaded.errors.into_iter().map(|mut e| {
                e.document += base;
                e
            }));
        self.loaded.shared.extend(next.loaded.shared);
        self.documents_seen += next.documents_seen;
        self.alias_nodes += next.alias_nodes;
    }
}
