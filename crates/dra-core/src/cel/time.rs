//! CEL durations, timestamps (standard library) and the Kubernetes URL
//! library, as far as a device selector can use them: parsing, comparison,
//! arithmetic, getters (UTC), and `url()`'s parts.

/// cel-go's durations are Go's `time.Duration`: nanoseconds in an int64
/// (about ±292 years), and arithmetic past it is `errIntOverflow`
/// (`common/types/overflow.go` addDurationChecked).
pub const DURATION_RANGE: std::ops::RangeInclusive<i128> = (i64::MIN as i128)..=(i64::MAX as i128);
/// cel-go's timestamps run from 0001-01-01 to 9999-12-31 (`minUnixTime`,
/// `maxUnixTime` in `common/types/timestamp.go`), in seconds.
pub const TIMESTAMP_SECONDS: std::ops::RangeInclusive<i64> = -62_135_596_800..=253_402_300_799;
pub const INTEGER_OVERFLOW: &str = "integer overflow";
pub const TIMESTAMP_OVERFLOW: &str = "timestamp overflow";
/// `String.ConvertToType` when Go's parser refuses the text.
pub const NOT_A_DURATION: &str =
    "type conversion error from 'string' to 'google.protobuf.Duration'";
pub const NOT_A_TIMESTAMP: &str =
    "type conversion error from 'string' to 'google.protobuf.Timestamp'";

/// A duration, or cel-go's overflow error when it leaves the int64 range.
pub fn checked_duration(n: i128) -> Result<i128, String> {
    if DURATION_RANGE.contains(&n) {
        Ok(n)
    } else {
        Err(INTEGER_OVERFLOW.to_owned())
    }
}

/// A timestamp, or cel-go's `timestamp overflow` outside years 1-9999.
pub fn checked_timestamp(n: i128) -> Result<i128, String> {
    let secs = n.div_euclid(1_000_000_000);
    if secs >= i128::from(*TIMESTAMP_SECONDS.start())
        && secs <= i128::from(*TIMESTAMP_SECONDS.end())
    {
        Ok(n)
    } else {
        Err(TIMESTAMP_OVERFLOW.to_owned())
    }
}

/// Parses Go's duration syntax (`1h30m`, `-1.5s`, `300ms`, `2us`) as
/// `time.ParseDuration` (time/format.go), which cel-go's `duration()`
/// calls: its digit reading with overflow checks, and a fraction scaled
/// in float64 as Go scales it; its refusal is cel-go's conversion error.
pub fn parse_duration(s: &str) -> Result<i128, String> {
    let bad = || NOT_A_DURATION.to_owned();
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(bad());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(bad());
        }
        // leadingInt: digits, refusing a value past 2^63.
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &b[..digits] {
            if v > LIMIT / 10 {
                return Err(bad());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(bad());
            }
        }
        rest = &rest[digits..];
        let pre = digits > 0;
        // leadingFraction: digits after the point, precision kept while
        // it fits.
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(after) = rest.strip_prefix('.') {
            let n = after.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in after[..n].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            rest = &after[n..];
        }
        if !pre && !post {
            return Err(bad());
        }
        let unit_len = rest
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit: u64 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        if v > LIMIT / unit {
            return Err(bad());
        }
        v *= unit;
        if f > 0 {
            // Go: uint64(float64(f) * (float64(unit) / scale)).
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(bad());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(bad());
        }
    }
    if neg {
        return Ok(-i128::from(d));
    }
    if d > LIMIT - 1 {
        return Err(bad());
    }
    Ok(i128::from(d))
}

/// Formats a duration as cel-go's `string(duration)` does: seconds, `1.5s`.
pub fn format_duration(n: i128) -> String {
    // cel-go: strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s", where
    // Seconds() is float64(sec) + float64(nsec)/1e9 (so a long duration
    // keeps only float64's digits).
    let (secs, nanos) = (n / 1_000_000_000, n % 1_000_000_000);
    let seconds = secs as f64 + nanos as f64 / 1e9;
    format!("{}s", super::go_fmt::shortest_fixed(seconds))
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month 1-12, day 1-31) of a day count since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Parses an RFC 3339 timestamp into nanoseconds since the Unix epoch and
/// the offset it was written with (seconds east of UTC), as cel-go's
/// `timestamp()` does with Go's `time.Parse(time.RFC3339, ...)`
/// (`crate::go_time`, which lint's metav1.Time decoding shares): wider
/// than RFC 3339 where Go's layout parser is (a one-digit hour, a comma
/// before the fraction, offsets up to 24:60), upper-case `T` and `Z` only;
/// its refusal is cel-go's conversion error, and a time outside years
/// 1-9999 (UTC) `timestamp overflow`.
pub fn parse_timestamp(s: &str) -> Result<(i128, i32), String> {
    let t = crate::go_time::parse_rfc3339(s).map_err(|_| NOT_A_TIMESTAMP.to_owned())?;
    let days = days_from_civil(i64::from(t.year), i64::from(t.month), i64::from(t.day));
    let secs =
        days * 86_400 + i64::from(t.hour * 3600 + t.minute * 60 + t.second) - i64::from(t.offset);
    let n = checked_timestamp(i128::from(secs) * 1_000_000_000 + i128::from(t.nanosecond))?;
    Ok((n, t.offset))
}

/// RFC 3339 with nanoseconds, as cel-go's `string(timestamp)` writes Go's
/// `Format(time.RFC3339Nano)`: the time at the offset it was written with,
/// trailing zeros of the fraction dropped, `Z` for a zero offset.
pub fn format_timestamp(n: i128, offset: i32) -> String {
    let local = n + i128::from(offset) * 1_000_000_000;
    let secs = local.div_euclid(1_000_000_000) as i64;
    let frac = local.rem_euclid(1_000_000_000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    let mut text = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        t / 3600,
        t % 3600 / 60,
        t % 60
    );
    if frac != 0 {
        text.push('.');
        text.push_str(format!("{frac:09}").trim_end_matches('0'));
    }
    if offset == 0 {
        text.push('Z');
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        text.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
    }
    text
}

/// A timestamp getter in UTC (`getFullYear`, `getMonth` 0-based, ...).
pub fn timestamp_part(n: i128, name: &str) -> Option<i64> {
    let secs = n.div_euclid(1_000_000_000) as i64;
    let days = secs.div_euclid(86_400);
    let t = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    Some(match name {
        "getFullYear" => y,
        "getMonth" => m - 1,
        "getDate" => d,
        "getDayOfMonth" => d - 1,
        "getDayOfWeek" => (days + 4).rem_euclid(7),
        "getDayOfYear" => days - days_from_civil(y, 1, 1),
        "getHours" => t / 3600,
        "getMinutes" => t % 3600 / 60,
        "getSeconds" => t % 60,
        "getMilliseconds" => (n.rem_euclid(1_000_000_000) / 1_000_000) as i64,
        _ => return None,
    })
}

/// Seconds east of UTC of the time zone `tz` at the instant `n`, as cel-go's
/// timestamp getters read their argument: an IANA zone name (`Europe/Berlin`,
/// from the tz database compiled in) or, when it holds a `:`, a numeric
/// offset (`+05:30`, `-08:00`).
pub fn zone_offset(n: i128, tz: &str) -> Result<i64, String> {
    use chrono::Offset;
    use chrono::TimeZone;
    if let Some(colon) = tz.find(':') {
        // cel-go: strconv.Atoi of each side; the minutes take the sign of the hours.
        let atoi = |s: &str| {
            s.parse::<i64>()
                .map_err(|_| format!("strconv.Atoi: parsing {s:?}: invalid syntax"))
        };
        let hours = atoi(&tz[..colon])?;
        let minutes = atoi(&tz[colon + 1..])?;
        let offset = if tz.starts_with('-') {
            hours * 60 - minutes
        } else {
            hours * 60 + minutes
        };
        return Ok(offset * 60);
    }
    // Go's time.LoadLocation: "" and "UTC" are UTC; "Local" is the
    // apiserver's zone, UTC in its container image.
    if matches!(tz, "" | "UTC" | "Local") {
        return Ok(0);
    }
    let zone: chrono_tz::Tz = tz.parse().map_err(|_| format!("unknown time zone {tz}"))?;
    let secs = i64::try_from(n.div_euclid(1_000_000_000))
        .map_err(|_| "timestamp out of range".to_owned())?;
    let instant = chrono::DateTime::from_timestamp(secs, 0)
        .ok_or_else(|| "timestamp out of range".to_owned())?
        .naive_utc();
    Ok(i64::from(
        zone.offset_from_utc_datetime(&instant)
            .fix()
            .local_minus_utc(),
    ))
}

/// A duration getter (`getHours`: whole hours, ...).
pub fn duration_part(n: i128, name: &str) -> Option<i64> {
    Some(match name {
        "getHours" => n / 3_600_000_000_000,
        "getMinutes" => n / 60_000_000_000,
        "getSeconds" => n / 1_000_000_000,
        "getMilliseconds" => n / 1_000_000,
        _ => return None,
    } as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h30m").unwrap(), 5_400_000_000_000);
        assert_eq!(parse_duration("-1.5s").unwrap(), -1_500_000_000);
        assert_eq!(parse_duration("300ms").unwrap(), 300_000_000);
        assert_eq!(parse_duration("0").unwrap(), 0);
        assert!(parse_duration("1d").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_duration("5").is_err());
        assert_eq!(format_duration(5_400_000_000_000), "5400s");
        assert_eq!(format_duration(-1_500_000_000), "-1.5s");
        assert_eq!(duration_part(5_400_000_000_000, "getHours"), Some(1));
        assert_eq!(duration_part(5_400_000_000_000, "getMinutes"), Some(90));
    }

    #[test]
    fn timestamps() {
        let (t, zone) = parse_timestamp("2026-11-30T12:34:56.5Z").unwrap();
        assert_eq!(format_timestamp(t, zone), "2026-11-30T12:34:56.5Z");
        assert_eq!(
            parse_timestamp("2026-11-30T14:34:56.5+02:00").unwrap(),
            (t, 7200)
        );
        assert_eq!(timestamp_part(t, "getFullYear"), Some(2026));
        assert_eq!(timestamp_part(t, "getMonth"), Some(10));
        assert_eq!(timestamp_part(t, "getDate"), Some(30));
        assert_eq!(timestamp_part(t, "getDayOfWeek"), Some(1)); // a Monday
        assert_eq!(timestamp_part(t, "getDayOfYear"), Some(333));
        assert_eq!(timestamp_part(t, "getMilliseconds"), Some(500));
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z").unwrap(), (0, 0));
        assert!(parse_timestamp("2026-13-01T00:00:00Z").is_err());
        assert!(parse_timestamp("yesterday").is_err());
    }

    /// Go's `time.ParseDuration` and `time.Parse(time.RFC3339, ...)` as cel-go
    /// calls them, and its errors (`common/types/string.go` ConvertToType,
    /// `overflow.go`, `timestamp.go` minUnixTime/maxUnixTime).
    #[test]
    fn go_ranges_and_cel_go_errors() {
        assert_eq!(
            parse_duration("2562047h47m16.854775807s"),
            Ok(i128::from(i64::MAX))
        );
        assert_eq!(parse_duration("2562048h"), Err(NOT_A_DURATION.to_owned()));
        assert_eq!(
            parse_duration("-2562047h47m16.854775808s"),
            Ok(i128::from(i64::MIN))
        );
        assert_eq!(parse_duration("1d"), Err(NOT_A_DURATION.to_owned()));
        assert_eq!(
            checked_duration(i128::from(i64::MAX) + 1),
            Err("integer overflow".into())
        );
        for bad in [
            "2026-11-30t12:00:00Z",
            "2026-11-30T12:00:00z",
            "2026-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-06-30T23:59:60Z",
            "2026-06-30T24:00:00Z",
            "2026-06-30T12:00:00+25:00",
            "2026-06-30T12:00:00+23:61",
            "2026-06-30T123:00:00Z",
            "2026-06-30T12:00:00.Z",
            "2026-06-30T12:00:00Z ",
            "+026-06-30T12:00:00Z",
            "2026-6-30T12:00:00Z",
        ] {
            assert_eq!(
                parse_timestamp(bad),
                Err(NOT_A_TIMESTAMP.to_owned()),
                "{bad}"
            );
        }
        assert!(parse_timestamp("2024-02-29T00:00:00Z").is_ok());
        assert_eq!(
            parse_timestamp("2026-11-30T12:00:00.1234567891Z"),
            parse_timestamp("2026-11-30T12:00:00.123456789Z")
        );
        assert_eq!(
            parse_timestamp("0000-12-31T23:59:59Z"),
            Err("timestamp overflow".into())
        );
        assert!(parse_timestamp("0001-01-01T00:00:00Z").is_ok());
        assert!(parse_timestamp("9999-12-31T23:59:59.999999999Z").is_ok());
        assert_eq!(
            checked_timestamp(253_402_300_800 * 1_000_000_000),
            Err("timestamp overflow".into())
        );
    }

    /// time.Parse(time.RFC3339, ...) falls back to its layout parser, which
    /// is wider than RFC 3339 (format_rfc3339.go parseStrictRFC3339 lists
    /// what it lets through: a one-digit hour, a comma before the
    /// fraction, offset hours of 24 and minutes of 60); the time keeps the
    /// offset it was written with, which `string()` prints
    /// (Format(time.RFC3339Nano)).
    #[test]
    fn go_layout_parse_and_rfc3339nano() {
        let at = |s: &str| parse_timestamp(s).unwrap();
        assert_eq!(at("2026-06-30T9:05:00Z"), at("2026-06-30T09:05:00Z"));
        assert_eq!(at("2026-06-30T09:05:00,25Z"), at("2026-06-30T09:05:00.25Z"));
        let (t, zone) = at("2026-06-30T12:00:00+24:00");
        assert_eq!((t, zone), (at("2026-06-29T12:00:00Z").0, 86_400));
        assert_eq!(
            at("2026-06-30T12:00:00-23:60").0,
            at("2026-07-01T12:00:00Z").0
        );
        let text = |s: &str| {
            let (t, zone) = at(s);
            format_timestamp(t, zone)
        };
        assert_eq!(
            text("2024-01-01T00:00:00.500+02:00"),
            "2024-01-01T00:00:00.5+02:00"
        );
        assert_eq!(text("2024-01-01T00:00:00-00:00"), "2024-01-01T00:00:00Z");
        assert_eq!(text("2024-01-01T00:00:00+00:00"), "2024-01-01T00:00:00Z");
        assert_eq!(
            text("2024-01-01T00:00:00-05:30"),
            "2024-01-01T00:00:00-05:30"
        );
        assert_eq!(
            text("2024-01-01T00:00:00.000000001Z"),
            "2024-01-01T00:00:00.000000001Z"
        );
    }

    /// time.ParseDuration's reading (time/format.go): digits past 2^63 and
    /// a fraction scaled in float64 as Go scales it.
    #[test]
    fn go_parse_duration() {
        assert_eq!(parse_duration("+5s"), Ok(5_000_000_000));
        assert_eq!(parse_duration("-0"), Ok(0));
        assert_eq!(parse_duration(".5s"), Ok(500_000_000));
        assert_eq!(parse_duration("5.s"), Ok(5_000_000_000));
        assert_eq!(parse_duration("1.0000000005s"), Ok(1_000_000_000));
        assert_eq!(parse_duration("1\u{b5}s"), Ok(1_000));
        assert_eq!(parse_duration("1h1h"), Ok(7_200_000_000_000));
        for bad in [
            ".s",
            "-.s",
            "1",
            "1x",
            "s",
            "9223372036854775808ns",
            "1.5",
            "--1s",
        ] {
            assert_eq!(parse_duration(bad), Err(NOT_A_DURATION.to_owned()), "{bad}");
        }
        assert_eq!(
            parse_duration("-9223372036854775808ns"),
            Ok(i128::from(i64::MIN))
        );
    }

    #[test]
    fn zone_offsets() {
        let (noon, _) = parse_timestamp("2024-07-01T12:00:00Z").unwrap();
        assert_eq!(zone_offset(noon, "Europe/Berlin"), Ok(7200));
        assert_eq!(zone_offset(noon, "Asia/Kolkata"), Ok(19800));
        assert_eq!(zone_offset(noon, "-08:00"), Ok(-28800));
        assert_eq!(zone_offset(noon, "-05:30"), Ok(-19800));
        assert_eq!(zone_offset(noon, ""), Ok(0));
        assert_eq!(
            zone_offset(noon, "Nowhere/Land"),
            Err("unknown time zone Nowhere/Land".to_owned())
        );
        assert_eq!(
            zone_offset(noon, "ab:00"),
            Err("strconv.Atoi: parsing \"ab\": invalid syntax".to_owned())
        );
    }

    #[test]
    fn urls() {
        use crate::cel::url::parse_url;
        let u = parse_url("https://user@example.com:8443/a%20b/c?x=1&x=2&y=a+b").unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.host, "example.com:8443");
        assert_eq!(u.hostname(), "example.com");
        assert_eq!(u.port(), "8443");
        assert_eq!(u.escaped_path(), "/a%20b/c");
        assert_eq!(
            u.query(),
            vec![
                ("x".into(), vec!["1".into(), "2".into()]),
                ("y".into(), vec!["a b".into()])
            ]
        );
        let v6 = parse_url("http://[::1]:80/").unwrap();
        assert_eq!((v6.hostname(), v6.port()), ("::1", "80"));
        assert!(parse_url("/just/a/path").is_ok());
        assert!(parse_url("not a url").is_err());
        assert!(parse_url("example.com").is_err());
    }

    #[test]
    fn selectors_use_them() {
        let env = crate::cel::Env::new(&crate::gates::FeatureGates::defaults(
            crate::gates::Version::V1_37,
        ));
        let node = crate::yaml::load("name: d\nattributes: {endpoint: {string: \"https://nic.example.com:4791/rdma?mode=rc\"}}\n", Default::default())
            .documents
            .remove(0)
            .root;
        let device = std::sync::Arc::new(crate::cel::value::Device::from_node(
            "x.example.com",
            &node,
            true,
        ));
        for (expr, want) in [
            (
                r#"url(device.attributes["x.example.com"].endpoint).getPort() == "4791""#,
                Ok(true),
            ),
            (
                r#"url(device.attributes["x.example.com"].endpoint).getQuery()["mode"] == ["rc"]"#,
                Ok(true),
            ),
            (
                r#"duration("1h30m").getMinutes() == 90 && duration("2s") > duration("1999ms")"#,
                Ok(true),
            ),
            (
                r#"timestamp("2026-11-30T00:00:00Z") + duration("24h") > timestamp("2026-11-30T23:59:59Z")"#,
                Ok(true),
            ),
            (r#"string(duration("1.5s")) == "1.5s""#, Ok(true)),
            // Time zones, as cel-go reads them: IANA names (with daylight
            // saving time) and numeric offsets.
            (
                r#"timestamp("2024-03-10T12:00:00Z").getHours("America/New_York") == 8"#,
                Ok(true),
            ),
            (
                r#"timestamp("2024-01-10T12:00:00Z").getHours("America/New_York") == 7"#,
                Ok(true),
            ),
            (
                r#"timestamp("2024-01-01T20:00:00Z").getDayOfWeek("Asia/Tokyo") == 2"#,
                Ok(true),
            ),
            (
                r#"timestamp("2024-01-01T12:00:00Z").getHours("+05:30") == 17 && timestamp("2024-01-01T12:00:00Z").getMinutes("-05:30") == 30"#,
                Ok(true),
            ),
            (
                r#"timestamp("2024-12-31T23:30:00Z").getFullYear("+01:00") == 2025 && timestamp("2024-12-31T23:30:00Z").getFullYear("UTC") == 2024"#,
                Ok(true),
            ),
            (
                r#"timestamp("2024-01-01T00:00:00Z").getHours("Mars/Olympus") == 0"#,
                Err(()),
            ),
            (
                r#"timestamp("2024-01-01T00:00:00Z").getHours("x:00") == 0"#,
                Err(()),
            ),
            (r#"url("not a url") == url("x:y")"#, Err(())),
        ] {
            let p = crate::cel::Program::compile(expr, &env)
                .unwrap_or_else(|e| panic!("{expr}: {}", e.message));
            assert_eq!(p.matches(&device).map_err(|_| ()), want, "{expr}");
        }
        for (expr, want) in [
            (
                r#"format.dns1035Label().validate("a-1") == optional.none()"#,
                true,
            ),
            (r#"format.dns1035Label().validate("1a").hasValue()"#, true),
            (
                r#"format.dns1123LabelPrefix().validate("gpu-") == optional.none()"#,
                true,
            ),
            (
                r#"format.uri().validate("https://x.example.com/a") == optional.none()"#,
                true,
            ),
            (
                r#"format.byte().validate("aGVsbG8=") == optional.none() && format.byte().validate("a").hasValue()"#,
                true,
            ),
            (
                r#"format.date().validate("2026-11-30") == optional.none() && format.date().validate("2026-11-31x").hasValue()"#,
                true,
            ),
            (
                r#"format.datetime().validate("2026-11-30T12:00:00Z") == optional.none()"#,
                true,
            ),
            (
                r#"format.named("uuid").hasValue() && !format.named("nope").hasValue()"#,
                true,
            ),
            (
                r#"format.named("labelValue").value().validate("ok") == optional.none()"#,
                true,
            ),
        ] {
            let p = crate::cel::Program::compile(expr, &env)
                .unwrap_or_else(|e| panic!("{expr}: {}", e.message));
            assert_eq!(p.matches(&device), Ok(want), "{expr}");
        }
        // Literal durations and timestamps are checked at compile time.
        assert!(crate::cel::Program::compile(r#"duration("1d") > duration("1h")"#, &env).is_err());
        assert!(crate::cel::Program::compile(
            r#"timestamp("today") > timestamp("2026-01-01T00:00:00Z")"#,
            &env
        )
        .is_err());
    }
}
