//! A plain scalar's type, as go-yaml v2 resolves it (YAML 1.1: `yes`/`on`
//! are booleans, `010` is octal, a float too large for float64 a string).

use crate::tree::Value;

/// Resolves a plain scalar the way go-yaml v2 does (YAML 1.1 booleans).
pub fn resolve_plain(text: &str) -> Value {
    resolve_typed(text).unwrap_or_else(|| Value::Str(text.into()))
}

/// [`resolve_plain`] but for a string, which is `None` (a key is checked
/// without making the string value it is not kept as).
pub fn resolve_typed(text: &str) -> Option<Value> {
    // Most scalars are names: a first character that starts no null,
    // boolean or number settles it without the comparisons below.
    match text.as_bytes().first() {
        None => return Some(Value::Null),
        Some(b) if b.is_ascii_alphabetic() && !b"nNyYtTfFoO".contains(b) => return None,
        _ => {}
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "y" | "Y" | "on" | "On" | "ON" => {
            return Some(Value::Bool(true))
        }
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "n" | "N" | "off" | "Off" | "OFF" => {
            return Some(Value::Bool(false))
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Some(Value::Float(f64::INFINITY))
        }
        "-.inf" | "-.Inf" | "-.INF" => return Some(Value::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Some(Value::Float(f64::NAN)),
        _ => {}
    }
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return None;
    }
    // A scalar starting with `.` is handed to strconv.ParseFloat as it is
    // (resolve's '.' hint), which takes underscores only between digits, as
    // Go literals do: `.5_0` is 0.5, `._5` and `.5_` are strings. Other
    // numbers have every underscore removed first.
    if first == b'.' {
        return crate::cel::go_strconv::parse_float(text).map(Value::Float);
    }
    let plain: std::borrow::Cow<'_, str> = if text.contains('_') {
        text.chars()
            .filter(|&c| c != '_')
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    let (neg, digits) = match plain.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, plain.strip_prefix('+').unwrap_or(plain.as_ref())),
    };
    let radix_int = |s: &str, radix: u32| i64::from_str_radix(s, radix).ok();
    // strconv.ParseInt(plain, 0, 64): the prefixes 0x, 0o, 0b in either case.
    let prefix = digits.get(..2).map(str::to_ascii_lowercase);
    let int = if prefix.as_deref() == Some("0x") {
        radix_int(&digits[2..], 16)
    } else if prefix.as_deref() == Some("0o") {
        radix_int(&digits[2..], 8)
    } else if prefix.as_deref() == Some("0b") {
        radix_int(&digits[2..], 2)
    } else if digits.len() > 1
        && digits.starts_with('0')
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        radix_int(digits, 8)
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Past int64 (and uint64, which this tree has no room for) the
        // digits are a float, or a string when ParseFloat overflows.
        digits.parse::<i64>().ok()
    } else {
        None
    };
    if let Some(i) = int {
        return Some(Value::Int(if neg { -i } else { i }));
    }
    // strconv.ParseUint(plain, 0, 64) next (no sign allowed): a prefixed
    // or octal number past int64 is a uint64, a JSON number this tree
    // holds as a float (decimal ones are floats below in any case).
    if !plain.starts_with(['-', '+']) {
        let unsigned = match prefix.as_deref() {
            Some("0x") => u64::from_str_radix(&digits[2..], 16).ok(),
            Some("0o") => u64::from_str_radix(&digits[2..], 8).ok(),
            Some("0b") => u64::from_str_radix(&digits[2..], 2).ok(),
            _ if digits.len() > 1 && digits.starts_with('0') => u64::from_str_radix(digits, 8).ok(),
            _ => None,
        };
        if let Some(u) = unsigned {
            return Some(Value::Float(u as f64));
        }
    }
    if is_float(digits) {
        // ParseFloat fails with ErrRange past the largest float64: go-yaml
        // then keeps the scalar as a string (`1e999` is "1e999").
        if let Ok(f) = plain.parse::<f64>() {
            if f.is_finite() {
                return Some(Value::Float(f));
            }
        }
    }
    None
}

fn is_float(s: &str) -> bool {
    // [0-9]*\.?[0-9]+([eE][-+]?[0-9]+)? with at least one digit
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mut dots = 0;
    let mut digits = 0;
    for b in mantissa.bytes() {
        match b {
            b'.' => dots += 1,
            b'0'..=b'9' => digits += 1,
            _ => return false,
        }
    }
    if dots > 1 || digits == 0 {
        return false;
    }
    match exp {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        }
    }
}

/// Whether go-yaml v2 resolves the plain scalar `text` to a uint64: it is
/// not an int64 (`strconv.ParseInt(plain, 0, 64)` fails) but
/// `strconv.ParseUint(plain, 0, 64)` reads it (no sign; 0x, 0o, 0b or a
/// leading 0 pick the base), as `18446744073709551615` or
/// `0xFFFFFFFFFFFFFFFF` do. A value of that kind is a JSON number; a key of
/// that kind is one sigs.k8s.io/yaml cannot turn into text
/// (`convertToJSONableObject`: "unsupported map key of type: uint64").
pub fn is_uint64(text: &str) -> bool {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    let prefix = plain.get(..2).map(str::to_ascii_lowercase);
    let (digits, radix) = match prefix.as_deref() {
        Some("0x") => (&plain[2..], 16),
        Some("0o") => (&plain[2..], 8),
        Some("0b") => (&plain[2..], 2),
        _ if plain.len() > 1 && plain.starts_with('0') => (plain.as_str(), 8),
        _ => (plain.as_str(), 10),
    };
    // Rust's parsers take a sign ParseUint refuses: digits only.
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
        && i64::from_str_radix(digits, radix).is_err()
        && u64::from_str_radix(digits, radix).is_ok()
}

/// The JSON key sigs.k8s.io/yaml makes of a float mapping key:
/// `strconv.FormatFloat(f, 'g', -1, 32)` (the float rounded to float32,
/// its shortest digits, an exponent from 1e+06 and below 1e-04), with
/// infinities and NaN spelled as YAML spells them (`.inf`, `-.inf`, `.nan`).
pub fn go_float_key(f: f64) -> String {
    match crate::cel::go_fmt::g32(f as f32).as_str() {
        "+Inf" => ".inf".into(),
        "-Inf" => "-.inf".into(),
        "NaN" => ".nan".into(),
        text => text.into(),
    }
}

#[cfg(test)]
mod key_tests {
    use super::go_float_key;

    #[test]
    fn float_keys_as_sigs_k8s_yaml_writes_them() {
        // strconv.FormatFloat(f, 'g', -1, 32), as in sigs.k8s.io/yaml's
        // convertToJSONableObject (its test: `1000000000000000000000000000000000000: a`
        // becomes {"1e+36":"a"}).
        for (f, want) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (1e36, "1e+36"),
            (1e3, "1000"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (1.5e6, "1.5e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000123, "0.000123"),
            (1.23456789012, "1.2345679"),
            (-2.5, "-2.5"),
            (0.0, "0"),
            (-0.0, "-0"),
            (1e39, ".inf"),
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
            (100.0, "100"),
            (0.1, "0.1"),
        ] {
            assert_eq!(go_float_key(f), want, "{f}");
        }
    }
}
