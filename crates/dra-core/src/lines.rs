//! Line starts of a text, to turn the character indices of spans into
//! 1-based lines and columns, and into byte offsets for renderers.
//!
//! An inventory of 20,000 nodes has 27 million lines, and its index lives as
//! long as its tree: a start per line (8 bytes) was a tenth of the memory of
//! `explain` (issue 37). So the index keeps each line's length in one byte
//! and the exact start of every 64th line; a lookup walks at most 64 lengths.

/// Lines per checkpoint.
const BLOCK: usize = 64;
/// A length byte of this value: the line is longer; see `LineIndex::long`.
const LONG: u8 = u8::MAX;

#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// The character index of every `BLOCK`-th line start.
    checkpoints: Vec<u32>,
    /// The byte offset of every `BLOCK`-th line start; empty when the text
    /// is ASCII (a character is a byte).
    byte_checkpoints: Vec<u32>,
    /// Each line's length in characters with its newline, but the last
    /// line's; `LONG` for a line of `LONG` characters or more.
    lengths: Vec<u8>,
    /// (line, length) of the lines marked `LONG`, in line order.
    long: Vec<(u32, u32)>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let ascii = text.is_ascii();
        let mut index = LineIndex {
            checkpoints: vec![0],
            byte_checkpoints: if ascii { Vec::new() } else { vec![0] },
            // Manifests average some 20 characters a line.
            lengths: Vec::with_capacity(bytes.len() / 16 + 1),
            long: Vec::new(),
        };
        let (mut chars, mut counted) = (0u32, 0usize);
        for i in memchr::memchr_iter(b'\n', bytes) {
            // Characters are the bytes that do not continue a UTF-8 sequence.
            let len = if ascii {
                (i + 1 - counted) as u32
            } else {
                bytes[counted..=i]
                    .iter()
                    .filter(|&&b| b & 0xC0 != 0x80)
                    .count() as u32
            };
            let line = index.lengths.len();
            match u8::try_from(len) {
                Ok(l) if l < LONG => index.lengths.push(l),
                _ => {
                    index.lengths.push(LONG);
                    index.long.push((line as u32, len));
                }
            }
            chars += len;
            counted = i + 1;
            if (line + 1).is_multiple_of(BLOCK) {
                index.checkpoints.push(chars);
                if !ascii {
                    index.byte_checkpoints.push(counted as u32);
                }
            }
        }
        index
    }

    /// The length in characters of line `line` (0-based, not the last).
    fn length(&self, line: usize) -> u32 {
        match self.lengths[line] {
            LONG => {
                let i = self
                    .long
                    .binary_search_by_key(&(line as u32), |&(l, _)| l)
                    .expect("every long line is recorded");
                self.long[i].1
            }
            l => u32::from(l),
        }
    }

    /// The 0-based line holding a character index, with that line's start.
    fn locate(&self, index: u32) -> (usize, u32) {
        let block = self.checkpoints.partition_point(|&c| c <= index) - 1;
        let (mut line, mut start) = (block * BLOCK, self.checkpoints[block]);
        while line < self.lengths.len() {
            let next = start + self.length(line);
            if next > index {
                break;
            }
            (line, start) = (line + 1, next);
        }
        (line, start)
    }

    /// The character index where a 0-based line starts.
    fn start_of(&self, line: usize) -> u32 {
        let block = line / BLOCK;
        let from = block * BLOCK;
        self.checkpoints[block] + (from..line).map(|l| self.length(l)).sum::<u32>()
    }

    pub fn line_of(&self, index: u32) -> usize {
        self.locate(index).0
    }

    /// How many lines start in the text (one more than its newlines).
    pub fn line_count(&self) -> usize {
        self.lengths.len() + 1
    }

    /// 1-based line and column (in characters) of a character index.
    pub fn line_col(&self, index: u32) -> (u32, u32) {
        let (line, start) = self.locate(index);
        (line as u32 + 1, index - start + 1)
    }

    /// The character index of a 1-based line and column.
    pub fn index_of(&self, line: u32, col: u32) -> Option<u32> {
        let line = line.checked_sub(1)? as usize;
        (line < self.line_count()).then(|| self.start_of(line) + col.saturating_sub(1))
    }

    /// The byte offset of a character index in `text`.
    pub fn byte_offset(&self, text: &str, index: u32) -> usize {
        let (line, start) = self.locate(index);
        let line_byte = if self.byte_checkpoints.is_empty() {
            start as usize
        } else {
            // From the block's first line, skip the lines before this one.
            let block = line / BLOCK;
            let from = self.byte_checkpoints[block] as usize;
            let skip = line - block * BLOCK;
            match skip {
                0 => from,
                _ => memchr::memchr_iter(b'\n', text.as_bytes().get(from..).unwrap_or_default())
                    .nth(skip - 1)
                    .map_or(text.len(), |i| from + i + 1),
            }
        };
        let rest = &text[line_byte.min(text.len())..];
        let skip = (index - start) as usize;
        line_byte + rest.char_indices().nth(skip).map_or(rest.len(), |(b, _)| b)
    }
}

/// The 1-based lines of character indices asked for mostly in order,
/// for a text whose lines are wanted a few times only (the first and last
/// line of each document of a chunk): newlines are counted from the last
/// answer on, where a [`LineIndex`] records every line first (2.6% of a
/// 20,000-node explain). A query behind the last counts back from it; a
/// non-ASCII text is indexed as before.
pub struct LineCounter<'a> {
    text: &'a [u8],
    /// Set for a non-ASCII text.
    index: Option<LineIndex>,
    /// Where the count stands: a byte (= character) offset and the 0-based
    /// line it is on.
    at: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    pub fn new(text: &'a str) -> Self {
        LineCounter {
            text: text.as_bytes(),
            index: (!text.is_ascii()).then(|| LineIndex::new(text)),
            at: 0,
            line: 0,
        }
    }

    /// The 1-based line of a character index, as [`LineIndex::line_col`]
    /// gives it (an index past the end is on the last line).
    pub fn line(&mut self, index: u32) -> u32 {
        if let Some(lines) = &self.index {
            return lines.line_col(index).0;
        }
        let to = (index as usize).min(self.text.len());
        let count =
            |bytes: &[u8]| u32::try_from(bytecount::count(bytes, b'\n')).unwrap_or(u32::MAX);
        if to >= self.at {
            self.line += count(&self.text[self.at..to]);
        } else {
            self.line -= count(&self.text[to..self.at]);
        }
        self.at = to;
        self.line + 1
    }

    /// How many lines start in the text (one more than its newlines).
    pub fn line_count(&mut self) -> usize {
        match &self.index {
            Some(lines) => lines.line_count(),
            None => self.line(u32::try_from(self.text.len()).unwrap_or(u32::MAX)) as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    /// Every character of `text`: its line, column and byte offset, and
    /// each line's start back from (line, 1), as a plain count gives them.
    fn check(text: &str) {
        let index = LineIndex::new(text);
        let (mut line, mut col) = (1, 1);
        let mut starts = vec![0u32];
        let total = text.chars().count() as u32;
        for (i, (byte, c)) in text.char_indices().enumerate() {
            let i = i as u32;
            assert_eq!(index.line_col(i), (line, col), "{text:?} at {i}");
            assert_eq!(index.line_of(i), line as usize - 1, "{text:?} at {i}");
            assert_eq!(index.byte_offset(text, i), byte, "{text:?} at {i}");
            if c == '\n' {
                (line, col) = (line + 1, 1);
                starts.push(i + 1);
            } else {
                col += 1;
            }
        }
        // One past the end: the last line, past its last character.
        assert_eq!(index.line_col(total), (line, col), "{text:?} at the end");
        assert_eq!(index.byte_offset(text, total), text.len());
        assert_eq!(index.line_count(), starts.len());
        for (l, &s) in starts.iter().enumerate() {
            assert_eq!(
                index.index_of(l as u32 + 1, 1),
                Some(s),
                "{text:?} line {l}"
            );
            assert_eq!(index.index_of(l as u32 + 1, 3), Some(s + 2));
        }
        assert_eq!(index.index_of(starts.len() as u32 + 1, 1), None);
        assert_eq!(index.index_of(0, 1), None);
    }

    #[test]
    fn lines_and_columns_count_characters_not_bytes() {
        for text in ["", "a", "ab\ncd\n", "é\nxé\n\nz", "日本\n語\n", "a\n\n\nb"] {
            check(text);
        }
    }

    /// Texts across checkpoints, with lines of 254, 255 and thousands of
    /// characters (stored apart), in ASCII and not.
    #[test]
    fn long_lines_and_many_lines_index_as_a_plain_count() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        for round in 0..40 {
            let mut text = String::new();
            for _ in 0..next(300) {
                let len = match next(6) {
                    0 => 254 + next(3) as usize,
                    1 => 1000 + next(70_000) as usize * usize::from(round >= 20),
                    _ => next(20) as usize,
                };
                let c = if round % 2 == 1 && next(4) == 0 {
                    'é'
                } else {
                    'x'
                };
                text.extend(std::iter::repeat_n(c, len));
                text.push('\n');
            }
            if next(2) == 0 {
                text.push_str("tail");
            }
            if text.len() < 20_000 {
                check(&text);
                continue;
            }
            // On the long texts, each line's start and the character before
            // it (a full check is quadratic).
            let index = LineIndex::new(&text);
            let (mut line, mut chars) = (0usize, 0u32);
            let mut at_start = true;
            for (byte, c) in text.char_indices() {
                if at_start {
                    assert_eq!(index.line_col(chars), (line as u32 + 1, 1), "round {round}");
                    assert_eq!(index.index_of(line as u32 + 1, 1), Some(chars));
                    assert_eq!(index.byte_offset(&text, chars), byte);
                    if chars > 0 {
                        assert_eq!(index.line_of(chars - 1), line - 1);
                    }
                }
                at_start = c == '\n';
                line += usize::from(at_start);
                chars += 1;
            }
            assert_eq!(index.line_count(), line + 1);
        }
    }

    /// A counter answers what an index answers, in order, backwards, past
    /// the end, on ASCII and non-ASCII text.
    #[test]
    fn a_counter_answers_as_the_index_does() {
        for text in [
            "",
            "a",
            "a\nbb\n",
            "\n\n\nx",
            "é\nü\nx\n",
            "k: v\n---\nk: w",
        ] {
            let index = LineIndex::new(text);
            let total = text.chars().count() as u32;
            let mut counter = super::LineCounter::new(text);
            let order: Vec<u32> = (0..=total + 2).chain((0..=total).rev()).collect();
            for i in order {
                assert_eq!(counter.line(i), index.line_col(i).0, "{text:?} at {i}");
            }
            assert_eq!(counter.line_count(), index.line_count(), "{text:?}");
        }
    }
}
