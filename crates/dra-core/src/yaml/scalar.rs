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
