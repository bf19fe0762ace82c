//! What reaches a terminal (or a pipe, a CI log, a pager): text from
//! manifests and servers (file names, object names, device names, error
//! bodies) may carry control characters and escape sequences that move the
//! cursor, rewrite the window title, or hide text. Every output goes through
//! [`safe`]: newlines and tabs pass, colour (SGR: `ESC [ digits/; m`) passes
//! only when this run paints (`--color`, a terminal), and every other
//! control character is shown escaped (`\x1b`, `\r`, `\u009b`). Renderers
//! that paint escape the input they quote with [`strict`] first, so input
//! cannot bring its own colour either.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::ColorChoice;

/// Set once a renderer decided to paint: only then may SGR sequences pass.
static PAINTED: AtomicBool = AtomicBool::new(false);

/// Whether to colour text output: `--color`, `NO_COLOR`, and a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    let on = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        // `TERM=dumb` (Emacs shells, some CI runners) draws escapes raw.
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                && std::io::stdout().is_terminal()
        }
    };
    if on {
        PAINTED.store(true, Ordering::Relaxed);
    }
    on
}

/// Whether a renderer of this run paints.
pub fn painted() -> bool {
    PAINTED.load(Ordering::Relaxed)
}

/// `s` in an SGR colour when `on`; `s` itself is input-safe.
pub fn paint(s: &str, sgr: &str, on: bool) -> String {
    if on {
        format!("\x1b[{sgr}m{}\x1b[0m", strict(s))
    } else {
        s.to_owned()
    }
}

fn is_escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{9b}' || is_invisible_format(c)
}

/// Bidirectional controls (Trojan Source, CVE-2021-42574: U+202A-202E,
/// U+2066-2069, U+200E/200F, U+061C), zero-width characters (U+200B-200D,
/// U+2060-2064, U+FEFF) and the line and paragraph separators (U+2028/2029):
/// they reorder or hide what a terminal shows, so a name holding one could
/// read as another.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

fn push_escaped(out: &mut String, c: char) {
    let n = c as u32;
    match c {
        '\r' => out.push_str("\\r"),
        _ if n < 0x20 => out.push_str(&format!("\\x{n:02x}")),
        // DEL and C1 as JSON and YAML escapes: valid inside the quoted
        // strings of `-o json`/`-o yaml` output, where they can appear raw.
        _ => out.push_str(&format!("\\u{n:04x}")),
    }
}

/// The whole output of a command: every control character but newline and
/// tab escaped; SGR colour sequences kept when `allow_sgr` (this run
/// paints).
pub fn safe(text: &str, allow_sgr: bool) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' && allow_sgr {
            if let Some(len) = sgr_len(rest) {
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        }
        // A CR that ends a line (CRLF files) moves nothing visible.
        if c == '\r' && rest[1..].starts_with('\n') {
            out.push(c);
        } else if is_escaped(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// One line of input quoted in output made of lines (a message from the
/// cluster): line breaks escaped too (`\\n`), so that it cannot forge lines;
/// [`strict`] then escapes the rest.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace('\r', "\\r").replace('\n', "\\n"))
}

/// Input quoted in painted output: every control character but newline and
/// tab escaped, colour included.
///
/// ```
/// use kubectl_dra::render::terminal::strict;
/// // A name that would clear the screen is shown, not obeyed.
/// assert!(!strict("gpu\x1b[2J").contains('\x1b'));
/// assert_eq!(strict("gpu-0"), "gpu-0");
/// ```
pub fn strict(text: &str) -> Cow<'_, str> {
    safe(text, false)
}

/// Source text for a snippet, escaped as [`strict`] does, with the map from
/// byte offsets in `text` to offsets in the escaped text (so that spans
/// still underline what they did). Line breaks (`\n`, `\r\n`) are kept.
pub struct EscapedSource {
    pub text: String,
    /// (offset in the input, bytes added at it), ascending.
    added: Vec<(usize, usize)>,
}

impl EscapedSource {
    pub fn new(text: &str) -> Self {
        let mut out = String::with_capacity(text.len());
        let mut added = Vec::new();
        let mut total = 0;
        for (i, c) in text.char_indices() {
            let keep = !is_escaped(c) || (c == '\r' && text[i + 1..].starts_with('\n'));
            if keep {
                out.push(c);
                continue;
            }
            let before = out.len();
            push_escaped(&mut out, c);
            total += out.len() - before - c.len_utf8();
            added.push((i, total));
        }
        EscapedSource { text: out, added }
    }

    /// Where byte `offset` of the input is in the escaped text.
    pub fn offset(&self, offset: usize) -> usize {
        let before = self.added.partition_point(|&(at, _)| at < offset);
        offset + before.checked_sub(1).map_or(0, |i| self.added[i].1)
    }
}

/// The length of an SGR sequence at the start of `s` (`ESC [ [0-9;]* m`).
fn sgr_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() < 3 || b[0] != 0x1b || b[1] != b'[' {
        return None;
    }
    let body = b[2..]
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b';')
        .count();
    (b.get(2 + body) == Some(&b'm') && body <= 32).then_some(3 + body)
}

/// A writer that passes text on as [`safe`] (no colour) would: an answer
/// streamed to stdout (`-o json` of a whole fleet) is escaped as it goes,
/// without a copy of the whole answer. A character split between two
/// writes waits for its other bytes.
pub struct SafeWriter<W: std::io::Write> {
    inner: W,
    carry: Vec<u8>,
}

impl<W: std::io::Write> SafeWriter<W> {
    pub fn new(inner: W) -> Self {
        SafeWriter {
            inner,
            carry: Vec::new(),
        }
    }
}

impl<W: std::io::Write> std::io::Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Nothing waiting and whole characters: no copy.
        if self.carry.is_empty() {
            if let Ok(text) = std::str::from_utf8(buf) {
                self.inner.write_all(safe(text, false).as_bytes())?;
                return Ok(buf.len());
            }
        }
        self.carry.extend_from_slice(buf);
        let valid = match std::str::from_utf8(&self.carry) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(e) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
        };
        let text = std::str::from_utf8(&self.carry[..valid]).unwrap_or_default();
        self.inner.write_all(safe(text, false).as_bytes())?;
        self.carry.drain(..valid);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_passes_only_when_painting_other_controls_are_escaped() {
        assert_eq!(safe("plain\n\tok", true), "plain\n\tok");
        assert_eq!(safe("\x1b[1;31mred\x1b[0m", true), "\x1b[1;31mred\x1b[0m");
        // Not painting: no colour is ours, so none passes.
        assert_eq!(safe("\x1b[8mhidden", false), "\\x1b[8mhidden");
        // Title rewrite (OSC), cursor up, carriage return, C1 CSI, DEL.
        assert_eq!(safe("a\x1b]0;pwned\x07b", true), "a\\x1b]0;pwned\\x07b");
        assert_eq!(safe("x\x1b[2Ay", true), "x\\x1b[2Ay");
        assert_eq!(safe("over\rwrite", true), "over\\rwrite");
        assert_eq!(safe("crlf\r\nline", false), "crlf\r\nline");
        assert_eq!(safe("c1\u{9b}31m", true), "c1\\u009b31m");
        assert_eq!(safe("del\u{7f}", false), "del\\u007f");
        // Painted input cannot bring its own colour.
        assert_eq!(paint("\x1b[8mx", "1", true), "\x1b[1m\\x1b[8mx\x1b[0m");
    }

    /// Trojan Source: bidi overrides and isolates, zero-width characters.
    #[test]
    fn bidi_and_zero_width_characters_are_escaped() {
        assert_eq!(safe("gpu\u{202e}lanretni", false), "gpu\\u202elanretni");
        assert_eq!(safe("a\u{2066}b\u{2069}", false), "a\\u2066b\\u2069");
        assert_eq!(safe("a\u{200b}b\u{feff}", false), "a\\u200bb\\ufeff");
        assert_eq!(safe("plain ünïcode 日本", false), "plain ünïcode 日本");
        let json = serde_json::to_string("x\u{202e}y").unwrap();
        let back: String = serde_json::from_str(&safe(&json, false)).unwrap();
        assert_eq!(back, "x\u{202e}y");
    }

    /// A JSON string holding raw DEL or C1 stays valid JSON, same value.
    #[test]
    fn escapes_are_valid_inside_json_strings() {
        let json = serde_json::to_string("a\u{7f}b\u{9b}c").unwrap();
        let shown = safe(&json, false);
        assert_ne!(shown, json);
        let back: String = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, "a\u{7f}b\u{9b}c");
    }

    #[test]
    fn escaped_source_keeps_spans_on_their_text() {
        let text = "name: \x1b[8mx\r\nother: \u{9b}y\n";
        let e = EscapedSource::new(text);
        assert_eq!(e.text, "name: \\x1b[8mx\r\nother: \\u009by\n");
        for word in ["name", "x\r", "other", "y"] {
            let at = text.find(word).unwrap();
            assert_eq!(&e.text[e.offset(at)..e.offset(at) + word.len()], word);
        }
    }

    #[test]
    fn the_safe_writer_escapes_as_safe_does_across_split_writes() {
        use std::io::Write;
        let text = "plain \u{1b}[2J é \u{202e}x \u{9b}y\n";
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            let mut w = SafeWriter::new(Vec::new());
            w.write_all(&bytes[..cut]).unwrap();
            w.write_all(&bytes[cut..]).unwrap();
            assert_eq!(
                String::from_utf8(w.inner).unwrap(),
                safe(text, false),
                "cut at {cut}"
            );
        }
    }
}
