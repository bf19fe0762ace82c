//! What reaches a terminal: text from manifests and servers (object names,
//! device names, error bodies) may carry control characters and escape
//! sequences that move the cursor, rewrite the window title or hide text.
//! Only colour (SGR: `ESC [ digits/; m`), newlines and tabs pass; every other
//! control character is shown escaped (`\x1b`, `\r`, `\u{9b}`).

use std::borrow::Cow;
use std::io::IsTerminal;

use crate::cli::ColorChoice;

/// Whether to colour text output: `--color`, `NO_COLOR`, and a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// `s` in an SGR colour when `on`.
pub fn paint(s: &str, sgr: &str, on: bool) -> String {
    if on {
        format!("\x1b[{sgr}m{s}\x1b[0m")
    } else {
        s.to_owned()
    }
}

/// The text with every control character but newline, tab and SGR colour
/// sequences escaped.
pub fn safe(text: &str) -> Cow<'_, str> {
    let needs = text
        .chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{9b}');
    if !needs {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            if let Some(len) = sgr_len(rest) {
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        }
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let n = c as u32;
                if n < 0x80 {
                    out.push_str(&format!("\\x{n:02x}"));
                } else {
                    out.push_str(&format!("\\u{{{n:x}}}"));
                }
            }
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_passes_other_controls_are_escaped() {
        assert_eq!(safe("plain\n\tok"), "plain\n\tok");
        assert_eq!(safe("\x1b[1;31mred\x1b[0m"), "\x1b[1;31mred\x1b[0m");
        // Title rewrite (OSC), cursor up, carriage return, C1 CSI.
        assert_eq!(safe("a\x1b]0;pwned\x07b"), "a\\x1b]0;pwned\\x07b");
        assert_eq!(safe("x\x1b[2Ay"), "x\\x1b[2Ay");
        assert_eq!(safe("over\rwrite"), "over\\rwrite");
        assert_eq!(safe("c1\u{9b}31m"), "c1\\u{9b}31m");
    }
}
