//! Scalars with an explicit tag, as go-yaml v2 decodes them into the
//! `interface{}` tree sigs.k8s.io/yaml turns into JSON (`decoder.scalar`
//! and `resolve`, go.yaml.in/yaml/v2 v2.4, the same as the fork vendored in
//! sigs.k8s.io/yaml v1.4).
//!
//! A tag makes go-yaml resolve the text whatever its style (`!!int "5"` is
//! the number 5) and then insist that it resolved to the tagged kind
//! (`!!int abc` fails the whole document: "cannot decode !!str `abc` as a
//! !!int"); `!!float` takes an integer too. A tag go-yaml cannot resolve
//! (`!foo`, the non-specific `!`) leaves the text a string even when plain
//! (`!foo 5` is "5"), and `!!binary` is base64 it decodes.

use super::scalar::{is_uint64, resolve_plain};
use crate::tree::{ScalarStyle, Text, Value};
use base64::Engine;

/// The value of a scalar tagged `!!<suffix>` (a core tag) or with any other
/// tag (`core` is `None`), or go-yaml's error for it.
pub fn tagged(core: Option<&str>, text: &str, style: ScalarStyle) -> Result<Value, String> {
    let kind = match core {
        Some(k @ ("bool" | "int" | "float" | "null" | "timestamp")) => k,
        Some("str") | None => return Ok(Value::Str(Text::new(text, style))),
        Some("binary") => return binary(text, style),
        // Not among resolvableTag's: the text as it is.
        Some(_) => return Ok(Value::Str(Text::new(text, style))),
    };
    let value = resolve_plain(text);
    let resolved = match &value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        // A uint64 (a JSON number this tree holds as a float) is an int.
        Value::Float(_) if is_uint64(text) => "int",
        Value::Float(_) => "float",
        _ if is_timestamp(text) => "timestamp",
        _ => "str",
    };
    match (kind, resolved) {
        // It looks like a timestamp, but go-yaml keeps the text
        // ("for backward compatibility", decoder.scalar).
        ("timestamp", "timestamp") => Ok(Value::Str(Text::new(text, style))),
        (k, r) if k == r => Ok(value),
        ("float", "int") => match value {
            Value::Int(i) => Ok(Value::Float(i as f64)),
            _ => Err(mismatch(resolved, text, kind)),
        },
        _ => Err(mismatch(resolved, text, kind)),
    }
}

fn mismatch(resolved: &str, text: &str, tag: &str) -> String {
    format!("cannot decode !!{resolved} `{text}` as a !!{tag}: kubectl cannot read this document")
}

/// `!!binary`: standard base64, line breaks ignored (Go's decoder skips
/// `\r` and `\n`), decoded to a string.
fn binary(text: &str, style: ScalarStyle) -> Result<Value, String> {
    let compact: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    match base64::engine::general_purpose::STANDARD.decode(compact.as_bytes()) {
        Ok(bytes) => Ok(Value::Str(Text::new(
            &String::from_utf8_lossy(&bytes),
            style,
        ))),
        Err(_) => Err(
            "!!binary value contains invalid base64 data: kubectl cannot read this document".into(),
        ),
    }
}

/// go-yaml's `parseTimestamp`: four digits and `-`, then one of
/// "2006-1-2T15:4:5.999999999Z07:00" (`T` or `t`), "2006-1-2 15:4:5.999999999"
/// or "2006-1-2", as Go's `time.Parse` reads them (one- or two-digit
/// fields, the day within its month).
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut at = 5;
    let num = |at: &mut usize| -> Option<u32> {
        let start = *at;
        while *at < b.len() && *at - start < 2 && b[*at].is_ascii_digit() {
            *at += 1;
        }
        (start < *at).then(|| s[start..*at].parse().ok())?
    };
    let year: u32 = s[..4].parse().unwrap_or(0);
    let Some(month) = num(&mut at).filter(|m| (1..=12).contains(m)) else {
        return false;
    };
    if b.get(at) != Some(&b'-') {
        return false;
    }
    at += 1;
    let Some(day) = num(&mut at) else {
        return false;
    };
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day == 0 || day > days {
        return false;
    }
    if at == b.len() {
        return true;
    }
    let zoned = match b[at] {
        b'T' | b't' => true,
        b' ' => false,
        _ => return false,
    };
    at += 1;
    for (i, max) in [23, 59, 59].into_iter().enumerate() {
        if i > 0 {
            if b.get(at) != Some(&b':') {
                return false;
            }
            at += 1;
        }
        if num(&mut at).filter(|v| *v <= max).is_none() {
            return false;
        }
    }
    if matches!(b.get(at), Some(b'.' | b',')) && b.get(at + 1).is_some_and(u8::is_ascii_digit) {
        at += 1;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
    }
    if !zoned {
        return at == b.len();
    }
    match &b[at..] {
        [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(core: Option<&str>, text: &str) -> Result<Value, String> {
        tagged(core, text, ScalarStyle::Plain)
    }

    #[test]
    fn a_core_tag_resolves_the_text_whatever_its_style_and_insists() {
        assert_eq!(
            tagged(Some("int"), "5", ScalarStyle::Quoted),
            Ok(Value::Int(5))
        );
        assert_eq!(v(Some("bool"), "yes"), Ok(Value::Bool(true)));
        assert_eq!(v(Some("float"), "5"), Ok(Value::Float(5.0)));
        assert_eq!(v(Some("null"), "~"), Ok(Value::Null));
        assert!(matches!(
            v(Some("int"), "18446744073709551615"),
            Ok(Value::Float(_))
        ));
        // resolve's deferred check: "cannot decode !!str `abc` as a !!int".
        assert!(v(Some("int"), "abc")
            .unwrap_err()
            .starts_with("cannot decode !!str `abc` as a !!int"));
        assert!(v(Some("bool"), "1")
            .unwrap_err()
            .starts_with("cannot decode !!int `1` as a !!bool"));
        assert!(v(Some("int"), "1.5")
            .unwrap_err()
            .starts_with("cannot decode !!float"));
        // A uint64 is no int64 that !!float converts.
        assert!(v(Some("float"), "18446744073709551615").is_err());
    }

    #[test]
    fn other_tags_keep_the_text_and_binary_is_decoded() {
        assert_eq!(
            v(Some("str"), "5"),
            Ok(Value::Str(Text::new("5", ScalarStyle::Plain)))
        );
        assert_eq!(
            v(None, "5"),
            Ok(Value::Str(Text::new("5", ScalarStyle::Plain)))
        );
        assert_eq!(
            v(Some("seq"), "5"),
            Ok(Value::Str(Text::new("5", ScalarStyle::Plain)))
        );
        assert_eq!(
            v(Some("binary"), "aGVs\nbG8="),
            Ok(Value::Str(Text::new("hello", ScalarStyle::Plain)))
        );
        assert!(v(Some("binary"), "not base64!").is_err());
    }

    #[test]
    fn timestamps_as_parse_timestamp_reads_them() {
        for ok in [
            "2001-12-14",
            "2001-1-2",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14T21:59:43Z",
            "2001-12-14 21:59:43.10",
            "2000-02-29",
        ] {
            assert!(is_timestamp(ok), "{ok}");
            assert_eq!(
                v(Some("timestamp"), ok),
                Ok(Value::Str(Text::new(ok, ScalarStyle::Plain)))
            );
        }
        for bad in [
            "2001-13-01",
            "2001-02-29",
            "01-12-14",
            "2001-12-14 21:59:43 -5",
            "2001-12-14T21:59:43",
            "2001-12-14x",
        ] {
            assert!(!is_timestamp(bad), "{bad}");
        }
        assert!(v(Some("timestamp"), "soon").is_err());
    }
}
