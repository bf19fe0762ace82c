//! Go's strconv parsers where cel-go's conversions call them
//! (`common/types/string.go` String.ConvertToType): `int()` is
//! `ParseInt(s, 10, 64)`, `uint()` `ParseUint(s, 10, 64)`, `double()`
//! `ParseFloat(s, 64)`. Each answers `None` where Go returns an error; the
//! caller words cel-go's conversion error.

/// `strconv.ParseInt(s, 10, 64)`: an optional sign, then decimal digits
/// only (no underscores with an explicit base), within int64.
pub fn parse_int(s: &str) -> Option<i64> {
    // Rust's parser takes the same text: one optional sign, digits.
    s.parse().ok()
}

/// `strconv.ParseUint(s, 10, 64)`: decimal digits only; unlike Rust's
/// parser, no sign at all (`+5` is a syntax error).
pub fn parse_uint(s: &str) -> Option<u64> {
    if s.starts_with('+') {
        return None;
    }
    s.parse().ok()
}

/// `strconv.ParseFloat(s, 64)`: Go's float literal syntax (decimal or
/// hexadecimal with a `p` exponent, underscores between digits), the
/// special values `inf`, `infinity` (signed) and `nan` in any case, and a
/// range error (here `None`) for a value beyond float64.
pub fn parse_float(s: &str) -> Option<f64> {
    if let Some(v) = special(s) {
        return Some(v);
    }
    let read = read_float(s)?;
    let v = if read.hex {
        hex_float(read.mantissa, read.exp, read.neg, read.trunc)
    } else {
        // The syntax is Go's; the value is the correctly rounded one, as
        // Rust's parser computes it for the same digits.
        let digits: String = s.chars().filter(|c| *c != '_').collect();
        digits.parse::<f64>().ok()?
    };
    v.is_finite().then_some(v)
}

/// atof.go `special`: the whole text must be the special value.
fn special(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    let (sign, rest) = match lower.as_bytes().first()? {
        b'+' => (1.0, &lower[1..]),
        b'-' => (-1.0, &lower[1..]),
        b'n' => return (lower == "nan").then_some(f64::NAN),
        _ => (1.0, lower.as_str()),
    };
    matches!(rest, "inf" | "infinity").then_some(sign * f64::INFINITY)
}

struct ReadFloat {
    mantissa: u64,
    exp: i64,
    neg: bool,
    trunc: bool,
    hex: bool,
}

/// atof.go `readFloat`, which must consume the whole text (ParseFloat
/// refuses a prefix).
fn read_float(s: &str) -> Option<ReadFloat> {
    let b = s.as_bytes();
    let lower = |c: u8| c | (b'x' - b'X');
    let mut i = 0;
    let mut neg = false;
    match b.first()? {
        b'+' => i += 1,
        b'-' => {
            i += 1;
            neg = true;
        }
        _ => {}
    }
    let (mut base, mut max_mant_digits, mut exp_char, mut hex) = (10u64, 19, b'e', false);
    if i + 2 < b.len() && b[i] == b'0' && lower(b[i + 1]) == b'x' {
        (base, max_mant_digits, exp_char, hex) = (16, 16, b'p', true);
        i += 2;
    }
    let (mut underscores, mut sawdot, mut sawdigits, mut trunc) = (false, false, false, false);
    let (mut nd, mut nd_mant, mut dp, mut mantissa) = (0i64, 0i64, 0i64, 0u64);
    while i < b.len() {
        let c = b[i];
        let digit = match c {
            b'_' => {
                underscores = true;
                i += 1;
                continue;
            }
            b'.' if sawdot => break,
            b'.' => {
                sawdot = true;
                dp = nd;
                i += 1;
                continue;
            }
            b'0'..=b'9' => u64::from(c - b'0'),
            _ if hex && (b'a'..=b'f').contains(&lower(c)) => u64::from(lower(c) - b'a' + 10),
            _ => break,
        };
        sawdigits = true;
        i += 1;
        if c == b'0' && nd == 0 {
            // Leading zeros only move the point.
            dp -= 1;
            continue;
        }
        nd += 1;
        if nd_mant < max_mant_digits {
            mantissa = mantissa * base + digit;
            nd_mant += 1;
        } else if c != b'0' {
            trunc = true;
        }
    }
    if !sawdigits {
        return None;
    }
    if !sawdot {
        dp = nd;
    }
    if hex {
        dp *= 4;
        nd_mant *= 4;
    }
    if i < b.len() && lower(b[i]) == exp_char {
        i += 1;
        let mut esign = 1;
        match b.get(i)? {
            b'+' => i += 1,
            b'-' => {
                i += 1;
                esign = -1;
            }
            _ => {}
        }
        if !b.get(i)?.is_ascii_digit() {
            return None;
        }
        let mut e = 0i64;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            if b[i] == b'_' {
                underscores = true;
            } else if e < 10_000 {
                e = e * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        dp += e * esign;
    } else if hex {
        // A hexadecimal mantissa must have an exponent.
        return None;
    }
    if i != b.len() || (underscores && !underscore_ok(&s[..i])) {
        return None;
    }
    let exp = if mantissa != 0 { dp - nd_mant } else { 0 };
    Some(ReadFloat {
        mantissa,
        exp,
        neg,
        trunc,
        hex,
    })
}

/// atoi.go `underscoreOK`: underscores only between digits, or between a
/// base prefix and a digit.
fn underscore_ok(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    let lower = |c: u8| c | (b'x' - b'X');
    let (mut saw, mut i, mut hex) = (b'^', 0, false);
    if b.len() >= 2 && b[0] == b'0' && matches!(lower(b[1]), b'b' | b'o' | b'x') {
        (i, saw, hex) = (2, b'0', lower(b[1]) == b'x');
    }
    for &c in &b[i..] {
        if c.is_ascii_digit() || hex && (b'a'..=b'f').contains(&lower(c)) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// atof.go `atofHex` for float64: the mantissa rounded to 53 bits (ties
/// to even, a truncated tail counted as a set bit), denormalised below
/// the smallest exponent; infinity past the largest (ParseFloat's range
/// error).
fn hex_float(mut mantissa: u64, mut exp: i64, neg: bool, trunc: bool) -> f64 {
    const MANTBITS: u32 = 52;
    const BIAS: i64 = -1023;
    let max_exp = (1 << 11) + BIAS - 2;
    let min_exp = BIAS + 1;
    exp += i64::from(MANTBITS);
    while mantissa != 0 && mantissa >> (MANTBITS + 2) == 0 {
        mantissa <<= 1;
        exp -= 1;
    }
    if trunc {
        mantissa |= 1;
    }
    while mantissa >> (1 + MANTBITS + 2) != 0 {
        mantissa = mantissa >> 1 | mantissa & 1;
        exp += 1;
    }
    while mantissa > 1 && exp < min_exp - 2 {
        mantissa = mantissa >> 1 | mantissa & 1;
        exp += 1;
    }
    let mut round = mantissa & 3;
    mantissa >>= 2;
    round |= mantissa & 1;
    exp += 2;
    if round == 3 {
        mantissa += 1;
        if mantissa == 1 << (1 + MANTBITS) {
            mantissa >>= 1;
            exp += 1;
        }
    }
    if mantissa >> MANTBITS == 0 {
        exp = BIAS;
    }
    let sign = if neg { 1u64 << 63 } else { 0 };
    if exp > max_exp {
        return f64::from_bits(sign | 0x7ff0_0000_0000_0000);
    }
    let bits = mantissa & ((1 << MANTBITS) - 1) | (((exp - BIAS) as u64) & 0x7ff) << MANTBITS;
    f64::from_bits(sign | bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers of Go's strconv (ParseFloat's doc and atof_test.go's table).
    #[test]
    fn parse_float_reads_go_float_syntax() {
        for (text, want) in [
            ("1", Some(1.0)),
            ("+1.5", Some(1.5)),
            ("-.5", Some(-0.5)),
            ("1.", Some(1.0)),
            ("1e5", Some(1e5)),
            ("1E-2", Some(0.01)),
            ("1_000.5", Some(1000.5)),
            ("0x1p-2", Some(0.25)),
            ("0X1.8P1", Some(3.0)),
            ("0x_1p0", Some(1.0)),
            ("0x1.fffffffffffffp1023", Some(f64::MAX)),
            ("0x1p-1074", Some(5e-324)),
            ("0x1p-1075", Some(0.0)),
            ("Inf", Some(f64::INFINITY)),
            ("-infinity", Some(f64::NEG_INFINITY)),
            ("1e-400", Some(0.0)),
            ("0e99999", Some(0.0)),
            // Syntax errors.
            ("", None),
            (".", None),
            ("e5", None),
            ("1e", None),
            ("1e+", None),
            ("0x1", None),
            ("0x", None),
            ("1__0", None),
            ("_1", None),
            ("1_", None),
            ("1_.5", None),
            ("1.5.", None),
            ("+nan", None),
            ("infx", None),
            ("infinit", None),
            (" 1", None),
            ("1 ", None),
            // Range errors.
            ("1e309", None),
            ("-1e400", None),
            ("0x1p1024", None),
        ] {
            assert_eq!(parse_float(text), want, "{text:?}");
        }
        assert!(parse_float("NaN").is_some_and(f64::is_nan));
        assert!(parse_float("nAn").is_some_and(f64::is_nan));
    }

    #[test]
    fn parse_uint_takes_no_sign() {
        assert_eq!(parse_uint("5"), Some(5));
        assert_eq!(parse_uint("+5"), None);
        assert_eq!(parse_uint("-0"), None);
        assert_eq!(parse_uint("18446744073709551616"), None);
        assert_eq!(parse_int("+5"), Some(5));
        assert_eq!(parse_int("1_0"), None);
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
    }
}
