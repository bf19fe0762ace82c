//! `Quantity.String()` as apimachinery prints a decoded quantity: the
//! apiserver's messages about quantities name them this way (`10Gi`,
//! `1100m`), not as they were written.
//!
//! ParseQuantity keeps the text it was given when its fast path finds it
//! already canonical (`s: str`); otherwise String() is CanonicalizeBytes in
//! the quantity's format: DecimalSI, BinarySI or DecimalExponent, chosen by
//! the suffix. Read in apimachinery pkg/api/resource/quantity.go
//! (ParseQuantity, CanonicalizeBytes, String, Add), amount.go
//! (AsCanonicalBytes, AsCanonicalBase1024Bytes) and suffix.go, unchanged
//! from release-1.34 to v0.37.0-beta.0.

use std::fmt;

use super::{interpret_suffix, Quantity, QuantityParts};

/// apimachinery's `Format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    DecimalSI,
    BinarySI,
    DecimalExponent,
}

/// A decoded quantity with what String() needs: its format and, when the
/// parser kept it, the text as written.
#[derive(Clone, Debug)]
pub struct QuantityText {
    value: Quantity,
    format: Format,
    kept: Option<String>,
}

impl QuantityText {
    /// A quantity field's text as the apiserver decodes it (trimmed, as
    /// UnmarshalJSON trims); `None` where ParseQuantity fails.
    pub fn parse(text: &str) -> Option<QuantityText> {
        let s = text.trim();
        let value = Quantity::parse(s).ok()?;
        if s == "0" {
            return Some(QuantityText {
                value,
                format: Format::DecimalSI,
                kept: Some(s.to_owned()),
            });
        }
        let parts = QuantityParts::split(s)?;
        let (binary, exponent) = interpret_suffix(parts.suffix)?;
        let mut format = if binary {
            Format::BinarySI
        } else if parts.suffix.len() > 1 && parts.suffix.starts_with(['e', 'E']) {
            Format::DecimalExponent
        } else {
            Format::DecimalSI
        };
        let kept = kept_text(&parts, format, exponent).then(|| s.to_owned());
        // The slow path shows a binary value between 0 and 1 (by magnitude)
        // as DecimalSI from the start; Add keeps that format.
        if kept.is_none() && binary && !value.is_zero() && value.abs() < Quantity::from_int(1) {
            format = Format::DecimalSI;
        }
        Some(QuantityText {
            value,
            format,
            kept,
        })
    }

    pub fn value(&self) -> Quantity {
        self.value
    }

    /// `q.Add(y)` on a copy of q: the exact sum, the text dropped, and the
    /// format of y when q is zero.
    pub fn add(&self, y: &QuantityText) -> Option<QuantityText> {
        Some(QuantityText {
            value: self.value.checked_add(&y.value)?,
            format: if self.value.is_zero() {
                y.format
            } else {
                self.format
            },
            kept: None,
        })
    }
}

/// Whether ParseQuantity's fast path returns the text itself: the value
/// fits its int64 arithmetic and is written as CanonicalizeBytes would
/// write it (by its own test, which is not exact: `010` is kept).
fn kept_text(parts: &QuantityParts<'_>, format: Format, exponent: i32) -> bool {
    let (int, denom) = parts.number.split_once('.').unwrap_or((parts.number, ""));
    let num = match int.trim_start_matches('0') {
        "" => "0",
        n => n,
    };
    let mut mantissa: i64 = 1;
    let (mut scale, precision) = match format {
        Format::BinarySI if exponent >= 0 && denom.is_empty() => {
            mantissa = 1i64.checked_shl(exponent as u32).unwrap_or(0);
            // int32(float32(exponent)*3/10), as Go computes it.
            let digits = (exponent as f32 * 3.0 / 10.0) as i32;
            (0, 15 - num.len() as i32 - digits - 1)
        }
        Format::BinarySI => (0, -1),
        _ => (exponent, 18 - (num.len() + denom.len()) as i32),
    };
    if precision < 0 {
        return false;
    }
    scale = scale.wrapping_sub(denom.len() as i32);
    if scale < -9 {
        return false;
    }
    let shifted = format!("{num}{denom}");
    let Ok(value) = shifted.parse::<i64>() else {
        return false;
    };
    if value.checked_mul(mantissa).is_none() {
        return false;
    }
    match format {
        Format::BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
        _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
    }
}

impl fmt::Display for QuantityText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.kept {
            return f.write_str(s);
        }
        if self.value.is_zero() {
            return f.write_str("0");
        }
        let (mantissa, exp) = self.value.parts();
        let mut format = self.format;
        // A binary value below 1024 by magnitude or not whole is shown as
        // DecimalSI. (Past i128, which only a sum with a huge decimal value
        // reaches, too: Go would print base-1024 digits without a suffix.)
        let whole = u32::try_from(exp)
            .ok()
            .and_then(|e| mantissa.checked_mul(10i128.checked_pow(e)?));
        if format == Format::BinarySI
            && (self.value.abs() < Quantity::from_int(1024) || whole.is_none())
        {
            format = Format::DecimalSI;
        }
        match format {
            Format::BinarySI => {
                let mut n = whole.unwrap_or_default();
                let mut k = 0;
                while n.unsigned_abs() >= 1024 && n % 1024 == 0 {
                    n /= 1024;
                    k += 1;
                }
                let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                    .get(k)
                    .unwrap_or(&"");
                write!(f, "{n}{suffix}")
            }
            _ => {
                // The exponent lowered to a multiple of three (Go's % keeps
                // the sign, so this is a floor), the mantissa padded to match.
                let e = i64::from(exp);
                let floor = e - e.rem_euclid(3);
                let pad = (e - floor) as usize;
                let sign = if mantissa < 0 { "-" } else { "" };
                write!(f, "{sign}{}{}", mantissa.unsigned_abs(), "0".repeat(pad))?;
                if format == Format::DecimalExponent {
                    if floor != 0 {
                        write!(f, "e{floor}")?;
                    }
                    return Ok(());
                }
                // suffix.go's decimal table; an exponent outside it has no
                // suffix at all (Go prints the mantissa alone).
                let suffix = match floor {
                    -9 => "n",
                    -6 => "u",
                    -3 => "m",
                    3 => "k",
                    6 => "M",
                    9 => "G",
                    12 => "T",
                    15 => "P",
                    18 => "E",
                    _ => "",
                };
                f.write_str(suffix)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> String {
        QuantityText::parse(text).expect(text).to_string()
    }

    /// What Go's MustParse(text).String() returns, by the rules above; the
    /// upstream tests' own figures where they print one
    /// (validation_device_capacity_test.go: "20Gi", "10Gi", "11Gi" for
    /// 1Gi+10Gi, "10e99999" for 1e100000 twice; validation_resourceslice_test.go
    /// "1100m" for 1.1 and "1050m" for 1.05).
    #[test]
    fn prints_as_quantity_string() {
        for (text, want) in [
            ("10Gi", "10Gi"),
            ("20Gi", "20Gi"),
            ("1.1", "1100m"),
            ("1.05", "1050m"),
            ("1000", "1k"),
            ("1500", "1500"),
            ("010", "010"),
            ("+5", "+5"),
            ("0", "0"),
            ("00", "0"),
            ("0Gi", "0"),
            ("1024Mi", "1Gi"),
            ("1025Mi", "1025Mi"),
            ("8Gi", "8Gi"),
            ("1.5Gi", "1536Mi"),
            ("1.5Ki", "1536"),
            ("0.5Ki", "512"),
            ("1Ei", "1Ei"),
            ("16Ei", "9223372036854775807"),
            ("100m", "100m"),
            ("0.1", "100m"),
            ("1e3", "1e3"),
            ("1E3", "1E3"),
            ("1000e0", "1e3"),
            ("1e100000", "10e99999"),
            ("1000E", "1"),
            ("100E", "100E"),
            ("-1", "-1"),
            ("-1Mi", "-1Mi"),
            ("-1.5", "-1500m"),
            ("1n", "1n"),
            ("0.0000000001", "1n"),
            (" 2Gi ", "2Gi"),
        ] {
            assert_eq!(s(text), want, "{text:?}");
        }
    }

    /// Quantity.Add: the sum in q's format, or y's when q is zero.
    #[test]
    fn a_sum_takes_the_first_format_unless_it_is_zero() {
        let add = |a: &str, b: &str| {
            let (a, b) = (
                QuantityText::parse(a).unwrap(),
                QuantityText::parse(b).unwrap(),
            );
            a.add(&b).unwrap().to_string()
        };
        assert_eq!(add("1Gi", "10Gi"), "11Gi");
        assert_eq!(add("1.6", "1e3"), "1001600m");
        assert_eq!(add("0", "2Gi"), "2Gi");
        assert_eq!(add("1", "1Ki"), "1025");
    }
}
