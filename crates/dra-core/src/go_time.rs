//! `metav1.Time` as the apiserver decodes it: a JSON string read by Go's
//! `time.Parse(time.RFC3339, s)` (`apimachinery/pkg/apis/meta/v1/time.go`
//! `UnmarshalJSON`). Go's parser is looser than RFC 3339 in places (a
//! one-digit hour, a comma before the fraction, offsets up to 24:60) and
//! stricter in others (upper-case `T` and `Z` only), so it is followed here
//! step by step rather than taken from a date crate.

const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";

/// Why Go's `time.Parse(time.RFC3339, s)` refuses `s`, in Go's words, or
/// `None` when it parses.
pub fn rfc3339_error(s: &str) -> Option<String> {
    parse_rfc3339(s).err()
}

/// The time Go's `time.Parse(time.RFC3339, s)` reads (CEL's `timestamp()`
/// calls the same function), or its refusal in Go's words.
pub fn parse_rfc3339(s: &str) -> Result<Time, String> {
    parse(s).map_err(|refused| match refused {
        Refused::Element { rest, element } => {
            format!("parsing time {s:?} as {LAYOUT:?}: cannot parse {rest:?} as {element:?}")
        }
        Refused::Range(what) => format!("parsing time {s:?}: {what} out of range"),
        Refused::Extra(rest) => format!("parsing time {s:?}: extra text: {rest:?}"),
    })
}

/// A parsed time as written: the wall clock at `offset` seconds east of
/// UTC (Go keeps the offset in the time's zone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    pub year: u32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// The fraction's first nine digits (parseNanoseconds).
    pub nanosecond: u32,
    pub offset: i32,
}

enum Refused<'a> {
    /// `rest` of the input did not match the layout `element`.
    Element {
        rest: &'a str,
        element: &'static str,
    },
    Range(&'static str),
    Extra(&'a str),
}

fn parse(s: &str) -> Result<Time, Refused<'_>> {
    let b = s.as_bytes();
    let mut at = 0;
    let bad = |at: usize, element| Refused::Element {
        rest: &s[at..],
        element,
    };
    // "2006": four characters, the first a digit, all read as a number.
    if b.len() < 4 || !b[..4].iter().all(u8::is_ascii_digit) {
        return Err(bad(0, "2006"));
    }
    let year = number(&b[..4]);
    at += 4;
    literal(b, &mut at, b'-').map_err(|_| bad(at, "-"))?;
    let month = two_digits(b, at).ok_or_else(|| bad(at, "01"))?;
    at += 2;
    if !(1..=12).contains(&month) {
        return Err(Refused::Range("month"));
    }
    literal(b, &mut at, b'-').map_err(|_| bad(at, "-"))?;
    let day = two_digits(b, at).ok_or_else(|| bad(at, "02"))?;
    at += 2;
    literal(b, &mut at, b'T').map_err(|_| bad(at, "T"))?;
    // "15": one or two digits.
    let (hour, used) = one_or_two_digits(b, at).ok_or_else(|| bad(at, "15"))?;
    at += used;
    if hour >= 24 {
        return Err(Refused::Range("hour"));
    }
    literal(b, &mut at, b':').map_err(|_| bad(at, ":"))?;
    let minute = two_digits(b, at).ok_or_else(|| bad(at, "04"))?;
    at += 2;
    if minute >= 60 {
        return Err(Refused::Range("minute"));
    }
    literal(b, &mut at, b':').map_err(|_| bad(at, ":"))?;
    let second = two_digits(b, at).ok_or_else(|| bad(at, "05"))?;
    at += 2;
    if second >= 60 {
        return Err(Refused::Range("second"));
    }
    // A fraction the layout does not show is still read after the seconds;
    // parseNanoseconds keeps its first nine digits.
    let mut nanosecond = 0;
    if b.len() >= at + 2 && matches!(b[at], b'.' | b',') && b[at + 1].is_ascii_digit() {
        let start = at + 1;
        at += 2;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
        let digits = &b[start..at.min(start + 9)];
        nanosecond = number(digits) * 10u32.pow(9 - digits.len() as u32);
    }
    // "Z07:00": `Z`, or a sign, two digits, a colon and two digits.
    let mut offset = 0;
    if b.get(at) == Some(&b'Z') {
        at += 1;
    } else {
        if b.len() < at + 6 || b[at + 3] != b':' {
            return Err(bad(at, "Z07:00"));
        }
        // Go reads both numbers (a failed one as 0), then reports a range
        // error before a malformed offset, the minutes' before the hours'.
        let hours = two_digits(b, at + 1);
        let minutes = hours.and(two_digits(b, at + 4));
        if minutes.is_some_and(|m| m > 60) {
            return Err(Refused::Range("time zone offset minute"));
        }
        if hours.is_some_and(|h| h > 24) {
            return Err(Refused::Range("time zone offset hour"));
        }
        let (Some(hours), Some(minutes)) = (hours, minutes) else {
            return Err(bad(at, "Z07:00"));
        };
        let east = (hours * 60 + minutes) as i32 * 60;
        offset = match b[at] {
            b'+' => east,
            b'-' => -east,
            _ => return Err(bad(at, "Z07:00")),
        };
        at += 6;
    }
    if at < b.len() {
        return Err(Refused::Extra(&s[at..]));
    }
    // The day is checked against the month once the whole text is read.
    if day < 1 || day > days_in(month, year) {
        return Err(Refused::Range("day"));
    }
    Ok(Time {
        year,
        month,
        day,
        hour,
        minute,
        second,
        nanosecond,
        offset,
    })
}

fn literal(b: &[u8], at: &mut usize, c: u8) -> Result<(), ()> {
    if b.get(*at) == Some(&c) {
        *at += 1;
        Ok(())
    } else {
        Err(())
    }
}

fn number(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'))
}

fn two_digits(b: &[u8], at: usize) -> Option<u32> {
    let d = b.get(at..at + 2)?;
    d.iter().all(u8::is_ascii_digit).then(|| number(d))
}

fn one_or_two_digits(b: &[u8], at: usize) -> Option<(u32, usize)> {
    let first = *b.get(at).filter(|c| c.is_ascii_digit())?;
    match b.get(at + 1).filter(|c| c.is_ascii_digit()) {
        Some(second) => Some((number(&[first, *second]), 2)),
        None => Some((u32::from(first - b'0'), 1)),
    }
}

/// Go's daysIn: the days of a month (1-12) in a proleptic Gregorian year.
pub fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::rfc3339_error;

    /// What Go's `time.Parse(time.RFC3339, ...)` accepts: the forms
    /// Kubernetes writes, a fraction after `.` or `,`, a one-digit hour,
    /// offsets up to 24 hours and 60 minutes, leap days.
    #[test]
    fn accepted_as_go_accepts() {
        for ok in [
            "2026-01-01T00:00:00Z",
            "2026-01-01T00:00:00.123456789Z",
            "2026-01-01T00:00:00,5Z",
            "2026-01-01T7:00:00Z",
            "2026-01-01T00:00:00+02:00",
            "2026-01-01T00:00:00-24:60",
            "2024-02-29T23:59:59Z",
            "0000-01-01T00:00:00Z",
        ] {
            assert_eq!(rfc3339_error(ok), None, "{ok}");
        }
    }

    #[test]
    fn refused_with_gos_message() {
        assert_eq!(
            rfc3339_error("yesterday").as_deref(),
            Some(
                r#"parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006""#
            )
        );
        assert_eq!(
            rfc3339_error("2026-01-01").as_deref(),
            Some(
                r#"parsing time "2026-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#
            )
        );
        assert_eq!(
            rfc3339_error("2026-01-01 00:00:00Z").as_deref(),
            Some(
                r#"parsing time "2026-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T""#
            )
        );
        assert_eq!(
            rfc3339_error("2026-13-01T00:00:00Z").as_deref(),
            Some(r#"parsing time "2026-13-01T00:00:00Z": month out of range"#)
        );
        assert_eq!(
            rfc3339_error("2026-13-01Tjunk").as_deref(),
            Some(r#"parsing time "2026-13-01Tjunk": month out of range"#)
        );
        assert_eq!(
            rfc3339_error("2026-01-01T00:00:00x25:61").as_deref(),
            Some(
                r#"parsing time "2026-01-01T00:00:00x25:61": time zone offset minute out of range"#
            )
        );
        assert_eq!(
            rfc3339_error("2025-02-29T00:00:00Z").as_deref(),
            Some(r#"parsing time "2025-02-29T00:00:00Z": day out of range"#)
        );
        assert_eq!(
            rfc3339_error("2026-01-01T00:00:00Zjunk").as_deref(),
            Some(r#"parsing time "2026-01-01T00:00:00Zjunk": extra text: "junk""#)
        );
        for bad in [
            "2026-01-01t00:00:00Z",
            "2026-01-01T00:00:00z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T00:60:00Z",
            "2026-01-01T00:00:60Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+0200",
            "2026-01-01T00:00:00+25:00",
            "2026-1-01T00:00:00Z",
            "2026-01-01T00:00:00.Z",
        ] {
            assert!(rfc3339_error(bad).is_some(), "{bad}");
        }
    }
}
