//! How apimachinery's `Quantity` holds a parsed value, for the checks whose
//! answer depends on that form and not on the number alone: `Value()` and
//! `MilliValue()` past int64 wrap, or read 0, depending on it, and 1.37's
//! key for validValues, `AsDec().String()`, tells `1` from `1.0`.
//!
//! Read in apimachinery pkg/api/resource (quantity.go ParseQuantity,
//! ScaledValue, Cmp, AsDec; amount.go AsScaledInt64; math.go
//! positiveScaleInt64, negativeScaleInt64, int64Multiply*; scale_int.go
//! scaledValue), unchanged from release-1.34 to master of 2026-07-23, and
//! gopkg.in/inf.v0 (scan, Round = QuoRound to exactly that scale, String).

use num_bigint::{BigInt, Sign};
use num_integer::Integer;

use super::{interpret_suffix, Quantity, QuantityParts};

/// Longest digit string and widest power of ten modelled. Go would build
/// a power of ten of any size (and a request with `1e2000000000` beside
/// nineteen digits would take the apiserver minutes); past these bounds
/// [`GoAmount::parse`] answers `None` and callers use the exact value.
const MAX_DIGITS: usize = 4096;

/// A parsed quantity as the apiserver holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoAmount {
    /// `int64Amount`: `value * 10^scale`.
    Int { value: i64, scale: i32 },
    /// `inf.Dec`: `unscaled * 10^-scale`.
    Dec { unscaled: BigInt, scale: i32 },
}

/// `AsDec().String()` as a comparable key without building the string:
/// a whole number is its digits (`1` scale -1 and `10` scale 0 print
/// alike), anything with a decimal point keeps its scale (`1.0` is not
/// `1`, `0.50` is not `0.5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecKey {
    Whole { mantissa: BigInt, zeros: i64 },
    Point { unscaled: BigInt, scale: i32 },
}

impl GoAmount {
    /// ParseQuantity's result for a field's text (trimmed, as
    /// UnmarshalJSON trims). `None` where ParseQuantity fails or the value
    /// is past the bounds above.
    pub fn parse(text: &str) -> Option<GoAmount> {
        let s = text.trim();
        Quantity::parse(s).ok()?;
        if s == "0" {
            return Some(GoAmount::Int { value: 0, scale: 0 });
        }
        let parts = QuantityParts::split(s)?;
        let (binary, exponent) = interpret_suffix(parts.suffix)?;
        let (int, denom) = parts.number.split_once('.').unwrap_or((parts.number, ""));
        if int.len() + denom.len() > MAX_DIGITS {
            return None;
        }
        // parseQuantityString strips leading zeros; no digits left is "0".
        let num = match int.trim_start_matches('0') {
            "" => "0",
            n => n,
        };
        let width = (num.len() + denom.len()) as i64;
        let (mut scale, precision, mantissa) = if binary && exponent >= 0 && denom.is_empty() {
            // int32(float32(exponent)*3/10), as Go computes it.
            let digits = (exponent as f32 * 3.0 / 10.0) as i64;
            (0i32, 15 - num.len() as i64 - digits - 1, 1i64 << exponent)
        } else if binary {
            (0, -1, 1)
        } else {
            (exponent, 18 - width, 1)
        };
        if precision >= 0 {
            scale = scale.wrapping_sub(denom.len() as i32);
            if scale >= -9 {
                let shifted: i64 = format!("{num}{denom}").parse().ok()?;
                if let Some(r) = shifted.checked_mul(mantissa) {
                    let value = if parts.negative { -r } else { r };
                    return Some(GoAmount::Int { value, scale });
                }
            }
        }
        dec_path(parts.negative, int, denom, binary, exponent)
    }

    /// `Quantity.Value()`.
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `Quantity.MilliValue()`.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `Quantity.ScaledValue(scale)`: ceil(q / 10^scale) in int64, with
    /// each form's own overflow.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        match self {
            GoAmount::Int { value, scale: s } => {
                // Scale is an int32 in Go; the difference wraps with it.
                if *s < scale {
                    negative_scale(*value, scale.wrapping_sub(*s))
                } else {
                    positive_scale(*value, s.wrapping_sub(scale))
                }
            }
            GoAmount::Dec { unscaled, scale: s } => {
                dec_scaled_value(unscaled, i64::from(*s) + i64::from(scale))
            }
        }
    }

    /// What `q.Cmp(y)` leaves in q: AsDec converts q in place when either
    /// side is an inf.Dec (Cmp compares two int64Amounts directly).
    pub fn touched_by_cmp(&mut self, y: &GoAmount) {
        if let (GoAmount::Int { .. }, GoAmount::Dec { .. }) = (&*self, y) {
            *self = self.as_dec();
        }
    }

    /// `AsDec()`: an int64Amount as inf.Dec(value, -scale).
    pub fn as_dec(&self) -> GoAmount {
        match self {
            GoAmount::Int { value, scale } => GoAmount::Dec {
                unscaled: BigInt::from(*value),
                scale: scale.wrapping_neg(),
            },
            d => d.clone(),
        }
    }

    /// `AsDec().String()`, as a key.
    pub fn dec_key(&self) -> DecKey {
        let GoAmount::Dec { unscaled, scale } = self.as_dec() else {
            unreachable!("as_dec returns a Dec")
        };
        if scale > 0 {
            return DecKey::Point { unscaled, scale };
        }
        if unscaled.sign() == Sign::NoSign {
            return DecKey::Whole {
                mantissa: unscaled,
                zeros: 0,
            };
        }
        let mut mantissa = unscaled;
        let mut zeros = -i64::from(scale);
        let ten = BigInt::from(10);
        loop {
            let (q, r) = mantissa.div_rem(&ten);
            if r.sign() != Sign::NoSign {
                break;
            }
            mantissa = q;
            zeros += 1;
        }
        DecKey::Whole { mantissa, zeros }
    }
}

/// ParseQuantity's inf.Dec path: SetString of the number as written
/// (scale = digits after the point), the exponent moved into the scale or
/// the power of two multiplied in, a non-zero value rounded up to exactly
/// nano scale, a binary one capped at 2^63-1 (scale 0), the sign put back.
fn dec_path(
    negative: bool,
    int: &str,
    denom: &str,
    binary: bool,
    exponent: i32,
) -> Option<GoAmount> {
    let digits = format!("{int}{denom}");
    let mut unscaled = BigInt::parse_bytes(digits.as_bytes(), 10)?;
    let mut scale = denom.len() as i32;
    if binary {
        unscaled <<= exponent as usize;
    } else {
        scale = scale.wrapping_add(exponent.wrapping_neg());
    }
    if unscaled.sign() != Sign::NoSign {
        let s = i64::from(scale);
        if s < 9 {
            let pad = usize::try_from(9 - s).ok().filter(|p| *p <= MAX_DIGITS)?;
            unscaled *= BigInt::from(10).pow(pad as u32);
        } else if s > 9 {
            let drop = (s - 9) as usize;
            unscaled = if drop > digits.len() + 20 {
                BigInt::from(1)
            } else {
                let (q, r) = unscaled.div_rem(&BigInt::from(10).pow(drop as u32));
                if r.sign() == Sign::NoSign {
                    q
                } else {
                    q + 1
                }
            };
        }
        scale = 9;
        let max = BigInt::from(i64::MAX) * BigInt::from(1_000_000_000);
        if binary && unscaled > max {
            unscaled = BigInt::from(i64::MAX);
            scale = 0;
        }
    }
    if negative {
        unscaled = -unscaled;
    }
    Some(GoAmount::Dec { unscaled, scale })
}

/// `big.Int.Int64()`: the low 64 bits of |x|, negated for a negative x.
fn go_int64(x: &BigInt) -> i64 {
    let low = x.magnitude().iter_u64_digits().next().unwrap_or(0) as i64;
    if x.sign() == Sign::Minus {
        low.wrapping_neg()
    } else {
        low
    }
}

/// `int64(math.Pow10(n))` on amd64: exact to 10^18; past int64 (and for
/// +Inf) the conversion gives the "integer indefinite" value, MinInt64.
fn pow10_as_int64(n: i64) -> i64 {
    if (0..=18).contains(&n) {
        10i64.pow(n as u32)
    } else {
        i64::MIN
    }
}

/// scale_int.go `scaledValue(unscaled, scale, newScale)` with
/// `dif = scale - newScale`.
fn dec_scaled_value(unscaled: &BigInt, dif: i64) -> i64 {
    if dif == 0 {
        return go_int64(unscaled);
    }
    if dif < 0 {
        return go_int64(unscaled).wrapping_mul(pow10_as_int64(-dif));
    }
    if *unscaled < BigInt::from(i64::MAX) && dif < 19 {
        let u = go_int64(unscaled);
        let divide = 10i64.pow(dif as u32);
        let (result, rem) = (u / divide, u % divide);
        return if rem != 0 { result + 1 } else { result };
    }
    // DivMod is Euclidean: a remainder in [0, divisor).
    if unscaled.sign() == Sign::NoSign {
        return 0;
    }
    let width = unscaled.magnitude().to_string().len() as i64;
    if dif > width + 1 {
        // |unscaled| < divisor: the quotient is 0 (or -1 below zero) and
        // the remainder is not zero.
        return if unscaled.sign() == Sign::Minus { 0 } else { 1 };
    }
    let (q, r) = unscaled.div_mod_floor(&BigInt::from(10).pow(dif as u32));
    let result = go_int64(&q);
    if r.sign() != Sign::NoSign {
        result.wrapping_add(1)
    } else {
        result
    }
}

/// math.go `negativeScaleInt64`: base / 10^scale rounded away from zero.
fn negative_scale(base: i64, scale: i32) -> i64 {
    if scale <= 0 {
        // Go's loop runs no iteration for a scale that is not positive.
        return base;
    }
    let mut value = base;
    let mut fraction = false;
    for _ in 0..scale {
        if !fraction && value % 10 != 0 {
            fraction = true;
        }
        value /= 10;
        if value == 0 {
            if fraction {
                return if base > 0 { 1 } else { -1 };
            }
            return 0;
        }
    }
    if fraction {
        if base > 0 {
            value += 1;
        } else {
            value -= 1;
        }
    }
    value
}

/// math.go `positiveScaleInt64`, its result whatever the overflow flag
/// (AsScaledInt64's caller drops it): the cases for 10, 100, 1000, 10^6
/// and 10^9 return the wrapped product, the loop returns 0.
fn positive_scale(base: i64, scale: i32) -> i64 {
    let by = |b: i64| -> i64 {
        if base == 0 || base == 1 {
            base * b
        } else if base == i64::MIN {
            0
        } else {
            base.wrapping_mul(b)
        }
    };
    match scale {
        0 => base,
        1 => by(10),
        2 => by(100),
        3 => by(1000),
        6 => by(1_000_000),
        9 => by(1_000_000_000),
        s if s < 0 => base,
        s => {
            let mut value = base;
            for _ in 0..s {
                if value == 0 {
                    return 0;
                }
                match value.checked_mul(10) {
                    Some(v) if value != i64::MIN => value = v,
                    _ => return 0,
                }
            }
            value
        }
    }
}

#[cfg(test)]
mod tests;
