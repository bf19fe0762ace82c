//! Offsets in a document as LSP positions: 0-based lines, and columns in
//! the encoding the client and server agreed on (UTF-16 code units unless
//! the client offers UTF-8).

use lsp_types::{Position, Range};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Line starts (byte offsets) of one text.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text).map(|i| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text, and back to a
    /// character boundary).
    pub fn position(&self, byte: usize, enc: Encoding) -> Position {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line = match self.starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let prefix = &self.text[self.starts[line]..byte];
        let col = match enc {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.encode_utf16().count(),
        };
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of a character index (lint's spans count characters).
    pub fn byte_of_char(&self, index: u32) -> usize {
        if self.text.is_ascii() {
            return (index as usize).min(self.text.len());
        }
        self.text
            .char_indices()
            .nth(index as usize)
            .map_or(self.text.len(), |(b, _)| b)
    }

    pub fn range_of_chars(&self, start: u32, end: u32, enc: Encoding) -> Range {
        Range::new(
            self.position(self.byte_of_char(start), enc),
            self.position(self.byte_of_char(end.max(start)), enc),
        )
    }

    pub fn range_of_bytes(&self, start: usize, end: usize, enc: Encoding) -> Range {
        Range::new(
            self.position(start, enc),
            self.position(end.max(start), enc),
        )
    }

    /// The range of the whole text.
    pub fn all(&self, enc: Encoding) -> Range {
        Range::new(Position::new(0, 0), self.position(self.text.len(), enc))
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(i, _)| i)
}

/// Whether two ranges overlap or touch (a cursor at a finding's end is on it).
pub fn touches(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_or_bytes() {
        let text = "a: é\nb: 😀x\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x, Encoding::Utf16), Position::new(1, 5));
        assert_eq!(lines.position(x, Encoding::Utf8), Position::new(1, 7));
        // Character index of 'x': "a: é\n" is 5 characters, "b: 😀" 4 more.
        assert_eq!(lines.byte_of_char(9), x);
        // Past the end and inside a character are clamped.
        assert_eq!(lines.position(1000, Encoding::Utf16), Position::new(2, 0));
        assert_eq!(lines.position(4, Encoding::Utf16), Position::new(0, 3));
    }
}
