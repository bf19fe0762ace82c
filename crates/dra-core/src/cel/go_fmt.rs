//! Go's text forms of numbers and strings, where cel-go's results carry them:
//! `%g` (`string(double)`), `strconv.Quote` (`%q`, for values inside a
//! formatted list), `strconv.FormatFloat(x, 'f', -1)` (durations), and the
//! en_US number forms of golang.org/x/text/message (`format()`'s `%f`, `%e`).

/// `fmt.Sprintf("%g", d)`: the shortest digits that round-trip, in
/// exponent form when the exponent is below -4 or at least 6
/// (strconv's `%g` with shortest precision uses 6 for that decision).
pub fn g(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Rust's `{:e}` gives the same shortest round-trip digits Go computes.
    g_of_digits(d < 0.0, &format!("{:e}", d.abs()))
}

/// `strconv.FormatFloat(x, 'g', -1, 32)`: as [`g`], with the digits that
/// round-trip a float32.
pub fn g32(x: f32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    g_of_digits(x < 0.0, &format!("{:e}", x.abs()))
}

/// `%g` from a finite, non-zero magnitude in Rust's `{:e}` form.
fn g_of_digits(negative: bool, sci: &str) -> String {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if negative { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (head, tail) = digits.split_at(1);
        let dot = if tail.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{head}{dot}{tail}e{esign}{:02}", exp.unsigned_abs());
    }
    // Plain form: the decimal point `exp + 1` digits in.
    let point = exp + 1;
    let body = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (int, frac) = digits.split_at(point as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{body}")
}

/// encoding/json's float64 (how sigs.k8s.io/yaml hands a YAML float to
/// the apiserver): the shortest digits, in `'f'` form unless the magnitude
/// is below 1e-6 or from 1e21, then `'e'` with a two-digit exponent, and
/// json's clean-up of a single-digit negative one (`1e-07` is `1e-7`).
pub fn json_float(x: f64) -> String {
    let abs = x.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        return shortest_fixed(x);
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < 0 {
        format!("{mantissa}e-{}", exp.unsigned_abs())
    } else {
        format!("{mantissa}e+{exp:02}")
    }
}

/// `strconv.FormatFloat(x, 'f', -1, 64)`: shortest round-trip digits, never
/// an exponent (Rust's `Display` for f64 is that form).
pub fn shortest_fixed(x: f64) -> String {
    format!("{x}")
}

/// `strconv.Quote`: `"` and `\` escaped, Go's named escapes, other control
/// and non-printing characters as `\x`, `\u` or `\U`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`, closely enough: no control characters, no
/// spaces but U+0020, no format characters.
fn printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}'))
}

/// `message.NewPrinter(en_US).Sprintf("%.<p>f", d)`: grouped thousands,
/// `∞` for infinity.
pub fn en_fixed(d: f64, precision: usize) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "∞" } else { "-∞" }.into();
    }
    let text = format!("{:.precision$}", d.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut out = String::new();
    if d.is_sign_negative() && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        out.push('-');
    }
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// `message.NewPrinter(en_US).Sprintf("%6e", d)`, as cel-go builds it (the
/// precision a clause asks for becomes a width, so six fraction digits
/// always): `2.718280 × 10⁰⁰`, the exponent in superscript digits.
pub fn en_scientific(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "∞" } else { "-∞" }.into();
    }
    let text = format!("{d:.6e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = format!("{mantissa}\u{202f}×\u{202f}10");
    if exp < 0 {
        out.push('⁻');
    }
    for b in format!("{:02}", exp.unsigned_abs()).bytes() {
        out.push(SUPERSCRIPT[usize::from(b - b'0')]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_as_go_prints_it() {
        // fmt.Sprintf("%g", x) in Go 1.24.
        for (x, want) in [
            (2.71, "2.71"),
            (0.000000002, "2e-09"),
            (1.0, "1"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (123.456, "123.456"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(g(x), want, "{x}");
        }
    }

    #[test]
    fn json_float_as_encoding_json_writes_it() {
        // json.Marshal(float64) in Go 1.24.
        for (x, want) in [
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (-1e21, "-1e+21"),
            (1e20, "100000000000000000000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (1e-10, "1e-10"),
            (2.5, "2.5"),
            (0.0, "0"),
            (1e300, "1e+300"),
        ] {
            assert_eq!(json_float(x), want, "{x}");
        }
    }

    #[test]
    fn quote_as_strconv() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("x\ny\u{1}"), r#""x\ny\x01""#);
        assert_eq!(quote("héllo"), "\"héllo\"");
        assert_eq!(quote("\u{a0}"), r#""\u00a0""#);
    }

    #[test]
    fn en_numbers_as_x_text() {
        // cel-go ext/formatting_test.go: "%.3f" of 1.2345, "%f" and "%e" of
        // 2.71828 (here 2.71827: clippy), "%.6e" of 1052.032911275.
        assert_eq!(en_fixed(1.2345, 3), "1.234");
        assert_eq!(en_fixed(2.71827, 6), "2.718270");
        assert_eq!(en_fixed(1234567.5, 1), "1,234,567.5");
        assert_eq!(en_fixed(-1000.0, 0), "-1,000");
        assert_eq!(en_fixed(f64::INFINITY, 6), "∞");
        assert_eq!(en_scientific(2.71827), "2.718270\u{202f}×\u{202f}10⁰⁰");
        assert_eq!(
            en_scientific(1052.032911275),
            "1.052033\u{202f}×\u{202f}10\u{2070}\u{b3}"
        );
    }
}
