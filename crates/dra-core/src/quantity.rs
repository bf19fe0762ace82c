//! Kubernetes resource quantities (`8Gi`, `500m`, `1e3`), parsed with the
//! grammar of apimachinery's `resource.ParseQuantity` and compared by value.

use std::cmp::Ordering;
use std::fmt;

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

    /// Parses a quantity; the error text follows apimachinery's.
    pub fn parse(s: &str) -> Result<Self, QuantityError> {
        let err = || {
            QuantityError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into())
        };
        if s.is_empty() {
            return Err(QuantityError("quantity must not be empty".into()));
        }
        let b = s.as_bytes();
        let mut i = 0;
        let neg = match b[0] {
            b'-' => {
                i = 1;
                true
            }
            b'+' => {
                i = 1;
                false
            }
            _ => false,
        };
        let num_start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
            i += 1;
        }
        let num = &s[num_start..i];
        let suffix = &s[i..];
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return Err(err());
        }
        let (int_part, frac_part) = num.split_once('.').unwrap_or((num, ""));
        let mut mantissa: i128 = 0;
        let mut exp: i32 = 0;
        let mut overflow = false;
        for d in int_part.bytes().chain(frac_part.bytes()) {
            match mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(i128::from(d - b'0')))
            {
                Some(m) => mantissa = m,
                None => {
                    overflow = true;
                    exp += 1;
                }
            }
        }
        exp -= frac_part.len() as i32;
        let (mult_pow2, exp_add): (u32, i32) = if suffix.is_empty() {
            (0, 0)
        } else if let Some((_, k)) = BINARY.iter().find(|(name, _)| *name == suffix) {
            (10 * k, 0)
        } else {
            match suffix {
                "n" => (0, -9),
                "u" => (0, -6),
                "m" => (0, -3),
                "k" => (0, 3),
                "M" => (0, 6),
                "G" => (0, 9),
                "T" => (0, 12),
                "P" => (0, 15),
                "E" => (0, 18),
                _ => {
                    let e = suffix.strip_prefix(['e', 'E']).ok_or_else(err)?;
                    let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                        return Err(err());
                    }
                    let v: i32 = e.parse().map_err(|_| err())?;
                    (0, v)
                }
            }
        };
        let _ = overflow;
        exp = exp.saturating_add(exp_add);
        if mult_pow2 > 0 {
            let factor = 1i128 << mult_pow2;
            mantissa = mantissa.checked_mul(factor).unwrap_or(i128::MAX);
        }
        if neg {
            mantissa = -mantissa;
        }
        Ok(Quantity { mantissa, exp }.normalized())
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
            "", "8 GiB", "8GB", "1.2.3", "Gi", "1e", "--1", "1Ki2", "abc",
        ] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
    }
}
