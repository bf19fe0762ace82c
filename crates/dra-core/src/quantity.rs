//! Kubernetes resource quantities (`8Gi`, `500m`, `1e3`), parsed with the
//! grammar of apimachinery's `resource.ParseQuantity` and compared by value.

use std::cmp::Ordering;
use std::fmt;

mod go_amount;
mod text;
pub use go_amount::{DecKey, GoAmount};
pub use text::{Format, QuantityText};

/// An exact decimal: `mantissa * 10^exp`.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    mantissa: i128,
    exp: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantityError(pub String);

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const BINARY: [(&str, u32); 6] = [
    ("Ki", 1),
    ("Mi", 2),
    ("Gi", 3),
    ("Ti", 4),
    ("Pi", 5),
    ("Ei", 6),
];

/// apimachinery's ErrFormatWrong.
const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// A quantity's text cut as parseQuantityString cuts it.
struct QuantityParts<'s> {
    negative: bool,
    /// Digits with at most one point, no sign (possibly no digit at all:
    /// `.`, or nothing after a sign).
    number: &'s str,
    suffix: &'s str,
}

impl<'s> QuantityParts<'s> {
    /// `None` where parseQuantityString returns ErrFormatWrong: after the
    /// number only suffix letters, then an optional sign and digits.
    fn split(s: &'s str) -> Option<Self> {
        let b = s.as_bytes();
        let (negative, start) = match b.first() {
            Some(b'-') => (true, 1),
            Some(b'+') => (false, 1),
            _ => (false, 0),
        };
        let mut i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        let number = &s[start..i];
        let suffix_start = i;
        while i < b.len() && b"eEinumkKMGTP".contains(&b[i]) {
            i += 1;
        }
        if i < b.len() && matches!(b[i], b'-' | b'+') {
            i += 1;
        }
        if !b[i..].iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(QuantityParts {
            negative,
            number,
            suffix: &s[suffix_start..],
        })
    }
}

/// The suffixer's interpret: (binary, exponent) of a decimal SI suffix,
/// a binary one (a power of two) or an exponent (`e3`, `E-2`; ParseInt of
/// the rest, truncated to 32 bits as Go's int32() truncates).
fn interpret_suffix(suffix: &str) -> Option<(bool, i32)> {
    let decimal = match suffix {
        "n" => Some(-9),
        "u" => Some(-6),
        "m" => Some(-3),
        "" => Some(0),
        "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        "P" => Some(15),
        "E" => Some(18),
        _ => None,
    };
    if let Some(e) = decimal {
        return Some((false, e));
    }
    if let Some((_, k)) = BINARY.iter().find(|(name, _)| *name == suffix) {
        return Some((true, 10 * *k as i32));
    }
    let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
    go_parse_int(rest).map(|v| (false, v as i32))
}

/// strconv.ParseInt(s, 10, 64): an optional sign and decimal digits.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Quantity {
    pub fn from_int(i: i64) -> Self {
        Quantity {
            mantissa: i128::from(i),
            exp: 0,
        }
    }

    pub fn zero() -> Self {
        Quantity::from_int(0)
    }

    /// A quantity field as the apiserver decodes it: Quantity.UnmarshalJSON
    /// trims surrounding white space before ParseQuantity.
    pub fn parse_field(text: &str) -> Result<Self, QuantityError> {
        Quantity::parse(text.trim())
    }

    /// Parses a quantity as apimachinery's `resource.ParseQuantity` does
    /// (release-1.34 to v0.37.0-beta.0 alike): parseQuantityString's grammar
    /// (a sign, digits with one optional point, then suffix letters, a sign
    /// and digits), the suffixer's lookup, the value rounded up to a
    /// nano-unit and, with a binary suffix, capped at 2^63-1, and its three
    /// errors in its words.
    pub fn parse(s: &str) -> Result<Self, QuantityError> {
        let wrong = || QuantityError(FORMAT_WRONG.into());
        if s.is_empty() {
            return Err(wrong());
        }
        let parts = QuantityParts::split(s).ok_or_else(wrong)?;
        let (binary, exponent) = interpret_suffix(parts.suffix)
            .ok_or_else(|| QuantityError("unable to parse quantity's suffix".into()))?;
        // Only inf.Dec's SetString, on the slow path (a decimal exponent
        // below nano), sees the number part as written: without a digit
        // (`.e-10`) it fails.
        if !parts.number.bytes().any(|b| b.is_ascii_digit()) && !binary && exponent < -9 {
            return Err(QuantityError(
                "unable to parse numeric part of quantity".into(),
            ));
        }
        let (int_part, frac_part) = parts.number.split_once('.').unwrap_or((parts.number, ""));
        // The digits as an exact decimal; digits past i128 are dropped and
        // remembered (`sticky`) for the rounding up.
        let mut mantissa: u128 = 0;
        let mut exp: i64 = -(frac_part.len() as i64);
        let mut sticky = false;
        for d in int_part.bytes().chain(frac_part.bytes()) {
            match mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(u128::from(d - b'0')))
            {
                Some(m) => mantissa = m,
                None => {
                    sticky |= d != b'0';
                    exp += 1;
                }
            }
        }
        if binary {
            let factor = 1u128 << exponent;
            while mantissa.checked_mul(factor).is_none() {
                sticky |= !mantissa.is_multiple_of(10);
                mantissa /= 10;
                exp += 1;
            }
            mantissa *= factor;
        } else {
            exp += i64::from(exponent);
        }
        if mantissa == 0 && !sticky {
            return Ok(Quantity::zero());
        }
        // Rounded up (away from zero) to a nano-unit.
        if exp < -9 {
            for _ in 0..(-9 - exp).min(40) {
                sticky |= !mantissa.is_multiple_of(10);
                mantissa /= 10;
            }
            if sticky {
                mantissa += 1;
            }
            exp = -9;
        }
        // A binary-suffixed value is capped at maxAllowed (2^63-1), whatever
        // its sign; a decimal one is not (`format == BinarySI &&`).
        const MAX: u128 = i64::MAX as u128;
        let over = binary
            && if exp >= 0 {
                (0..exp)
                    .try_fold(mantissa, |m, _| m.checked_mul(10))
                    .is_none_or(|v| v > MAX)
            } else {
                mantissa > MAX * 10u128.pow((-exp) as u32)
            };
        if over {
            mantissa = MAX;
            exp = 0;
        }
        let mantissa = mantissa as i128;
        Ok(Quantity {
            mantissa: if parts.negative { -mantissa } else { mantissa },
            exp: exp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
        }
        .normalized())
    }

    fn normalized(mut self) -> Self {
        if self.mantissa == 0 {
            return Quantity::zero();
        }
        while self.mantissa % 10 == 0 {
            self.mantissa /= 10;
            self.exp += 1;
        }
        self
    }

    /// The exact value as `(mantissa, exponent)`, without trailing zeros.
    pub(crate) fn parts(&self) -> (i128, i32) {
        (self.mantissa, self.exp)
    }

    pub fn abs(&self) -> Quantity {
        Quantity {
            mantissa: self.mantissa.saturating_abs(),
            exp: self.exp,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    pub fn is_negative(&self) -> bool {
        self.mantissa < 0
    }

    /// Whether the value has digits below 1 (e.g. `1.5`, `500m`).
    pub fn is_fractional(&self) -> bool {
        self.exp < 0
    }

    /// Whether the value has digits below a milli-unit (`0.0001`).
    pub fn finer_than_milli(&self) -> bool {
        self.exp < -3
    }

    /// `Quantity.Value()`: the value rounded up to an integer, saturating.
    pub fn value(&self) -> i128 {
        self.scaled(0)
    }

    /// `Quantity.MilliValue()`: the value in milli-units rounded up.
    pub fn milli_value(&self) -> i128 {
        self.scaled(-3)
    }

    /// The value as a multiple of 10^scale, rounded up (away from zero for
    /// positives, as apimachinery's `ScaledValue`).
    fn scaled(&self, scale: i32) -> i128 {
        let d = self.exp - scale;
        if d >= 0 {
            let mut m = self.mantissa;
            for _ in 0..d {
                m = match m.checked_mul(10) {
                    Some(v) => v,
                    None => {
                        return if self.mantissa < 0 {
                            i128::MIN
                        } else {
                            i128::MAX
                        }
                    }
                };
            }
            m
        } else {
            let mut m = self.mantissa;
            let mut rem = false;
            for _ in 0..(-d).min(40) {
                rem |= m % 10 != 0;
                m /= 10;
            }
            if rem && self.mantissa > 0 {
                m += 1;
            }
            m
        }
    }

    pub fn checked_add(&self, other: &Quantity) -> Option<Quantity> {
        let e = self.exp.min(other.exp);
        let a = rescale(self.mantissa, self.exp - e)?;
        let b = rescale(other.mantissa, other.exp - e)?;
        Some(
            Quantity {
                mantissa: a.checked_add(b)?,
                exp: e,
            }
            .normalized(),
        )
    }

    pub fn checked_sub(&self, other: &Quantity) -> Option<Quantity> {
        self.checked_add(&Quantity {
            mantissa: -other.mantissa,
            exp: other.exp,
        })
    }

    /// A short form as Kubernetes would print it: `8Gi`, `4G`, `500m`, `7`.
    pub fn human(&self) -> String {
        if !self.is_fractional() && !self.is_zero() {
            let v = self.value();
            let mut best = v.to_string();
            let binary = [
                ("Ei", 60),
                ("Pi", 50),
                ("Ti", 40),
                ("Gi", 30),
                ("Mi", 20),
                ("Ki", 10),
            ]
            .into_iter()
            .map(|(s, shift)| (s, 1i128 << shift));
            let decimal = [
                ("E", 18),
                ("P", 15),
                ("T", 12),
                ("G", 9),
                ("M", 6),
                ("k", 3),
            ]
            .into_iter()
            .map(|(s, e)| (s, 10i128.pow(e)));
            // The shortest exact form: 4000000000 is 4G, 8589934592 is 8Gi.
            for (suffix, unit) in binary.chain(decimal) {
                if v % unit == 0 {
                    let c = format!("{}{suffix}", v / unit);
                    if c.len() < best.len() {
                        best = c;
                    }
                }
            }
            return best;
        }
        if self.is_fractional() && !self.finer_than_milli() {
            return format!("{}m", self.milli_value());
        }
        self.to_string()
    }

    pub fn to_f64(&self) -> f64 {
        self.mantissa as f64 * 10f64.powi(self.exp)
    }
}

fn rescale(m: i128, by: i32) -> Option<i128> {
    let mut m = m;
    for _ in 0..by {
        m = m.checked_mul(10)?;
    }
    Some(m)
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        let e = self.exp.min(other.exp);
        match (
            rescale(self.mantissa, self.exp - e),
            rescale(other.mantissa, other.exp - e),
        ) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp >= 0 {
            write!(f, "{}", self.mantissa)?;
            for _ in 0..self.exp.min(40) {
                f.write_str("0")?;
            }
            Ok(())
        } else {
            let neg = self.mantissa < 0;
            let digits = self.mantissa.unsigned_abs().to_string();
            let frac = (-self.exp) as usize;
            let (int, fr) = if digits.len() > frac {
                let (a, b) = digits.split_at(digits.len() - frac);
                (a.to_string(), b.to_string())
            } else {
                (
                    "0".to_string(),
                    format!("{}{}", "0".repeat(frac - digits.len()), digits),
                )
            };
            write!(f, "{}{}.{}", if neg { "-" } else { "" }, int, fr)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn parses_suffixes_and_compares_by_value() {
        assert_eq!(q("2Gi"), q("2048Mi"));
        assert_eq!(q("1k"), q("1000"));
        assert_eq!(q("1e3"), q("1k"));
        assert_eq!(q("500m"), q("0.5"));
        assert!(q("1Gi") > q("1G"));
        assert!(q("-1") < q("0"));
        assert_eq!(q(".5").to_string(), "0.5");
        assert_eq!(q("1.5Gi").value(), 1_610_612_736);
        assert_eq!(q("0.1").value(), 1);
        assert_eq!(q("1500m").milli_value(), 1500);
        assert_eq!(q("8589934592").human(), "8Gi");
        assert_eq!(q("4000000000").human(), "4G");
        assert_eq!(q("0.5").human(), "500m");
        assert_eq!(q("7").human(), "7");
    }

    #[test]
    fn rejects_what_apimachinery_rejects() {
        for bad in [
            "", "8 GiB", "8GB", "1.2.3", "1e", "--1", "1Ki2", "abc", " 1",
        ] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
        // parseQuantityString reads no digits as "0", whatever follows:
        // a suffix alone, a point, a bare sign are zero (apimachinery
        // release-1.34 to v0.37.0-beta.0 pkg/api/resource/quantity.go).
        for zero in ["Gi", ".", "+", "-", "-.k", "0.e3"] {
            assert_eq!(
                Quantity::parse(zero).map(|q| q.is_zero()),
                Ok(true),
                "{zero}"
            );
        }
    }

    /// ParseQuantity's three errors in its words: ErrFormatWrong for text
    /// outside the grammar, ErrSuffix for suffix letters the suffixer does
    /// not know (`K`, `e` with no exponent, `Mi0`), ErrNumeric when the
    /// slow path's inf.Dec finds no digit (`.e-10`).
    #[test]
    fn errors_in_apimachinerys_words() {
        let suffix = "unable to parse quantity's suffix";
        for (text, want) in [
            ("", FORMAT_WRONG),
            ("1.2.3", FORMAT_WRONG),
            ("1Zi", FORMAT_WRONG),
            ("1K", suffix),
            ("1e", suffix),
            ("1ee3", suffix),
            ("1Mi0", suffix),
            ("--1", suffix),
            (".e-10", "unable to parse numeric part of quantity"),
        ] {
            assert_eq!(
                Quantity::parse(text).map_err(|e| e.0),
                Err(want.to_string()),
                "{text:?}"
            );
        }
        assert!(Quantity::parse_field(" 8Gi\t").is_ok());
    }

    /// Values are rounded up (away from zero) to a nano-unit; a binary-
    /// suffixed one is capped at 2^63-1 (maxAllowed), a decimal one is not;
    /// an exponent is truncated to 32 bits as Go's int32() truncates it.
    #[test]
    fn values_rounded_and_capped_as_parse_quantity_leaves_them() {
        let q = |s: &str| Quantity::parse(s).expect(s);
        assert_eq!(q("0.0000000001"), q("1n"));
        assert_eq!(q("-0.0000000001"), q("-1n"));
        assert_eq!(q("1.0000000001"), q("1000000001n"));
        assert_eq!(q("16Ei"), q("9223372036854775807"));
        assert_eq!(q("-16Ei"), q("-9223372036854775807"));
        assert!(q("1e30") > q("9223372036854775807"));
        assert_eq!(q("1e4294967295"), q("100m"));
        assert_eq!(q("0.5Ki"), q("512"));
        assert_eq!(q("1.e3"), q("1k"));
    }
}
