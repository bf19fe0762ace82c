//! Semantic versions as the Kubernetes CEL semver library parses them
//! (blang/semver v4 `Parse`, strict; or the library's normalizeAndParse,
//! which reads `v1.2` as `1.2.0`).

use std::cmp::Ordering;
use std::fmt;

use super::go_fmt::quote;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<PreId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreId {
    Num(u64),
    Alpha(String),
}

impl Semver {
    /// blang/semver v4 `Parse` (the library the Kubernetes semver CEL
    /// functions call), check by check and in its words: major, minor and
    /// the rest split at the first two dots; the patch then loses its
    /// build (after `+`) and prerelease (after `-`) parts; each part
    /// checked in turn.
    pub fn parse(s: &str) -> Result<Self, String> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        let [major, minor, rest] = parts.as_slice() else {
            return Err("No Major.Minor.Patch elements found".into());
        };
        let major = number(major, "major", "Major")?;
        let minor = number(minor, "minor", "Minor")?;
        let (rest, build) = match rest.split_once('+') {
            Some((r, b)) => (r, Some(b)),
            None => (*rest, None),
        };
        let (patch, pre) = match rest.split_once('-') {
            Some((p, pre)) => (p, Some(pre)),
            None => (rest, None),
        };
        let patch = number(patch, "patch", "Patch")?;
        let mut pre_ids = Vec::new();
        for id in pre
            .map(|p| p.split('.').collect::<Vec<_>>())
            .unwrap_or_default()
        {
            pre_ids.push(prerelease(id)?);
        }
        for id in build
            .map(|b| b.split('.').collect::<Vec<_>>())
            .unwrap_or_default()
        {
            if id.is_empty() {
                return Err("Build meta data is empty".into());
            }
            if !id.chars().all(is_alphanum) {
                return Err(format!(
                    "Invalid character(s) found in build meta data {}",
                    quote(id)
                ));
            }
        }
        Ok(Semver {
            major,
            minor,
            patch,
            pre: pre_ids,
        })
    }

    /// The Kubernetes library's normalizeAndParse (library/semverlib.go):
    /// no leading `v`, leading zeros trimmed from each of the three parts
    /// (the third with its prerelease and build), a short version filled
    /// with zeros unless it carries prerelease or build data.
    pub fn parse_normalized(s: &str) -> Result<Self, String> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s
            .splitn(3, '.')
            .map(|p| {
                if p.len() <= 1 {
                    return p.to_owned();
                }
                let t = p.trim_start_matches('0');
                if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    t.to_owned()
                } else {
                    format!("0{t}")
                }
            })
            .collect();
        if parts.len() < 3 {
            if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
                return Err("short version cannot contain PreRelease/Build meta data".into());
            }
            parts.resize(3, "0".into());
        }
        Self::parse(&parts.join("."))
    }
}

const NUMBERS: &str = "0123456789";

/// blang's `alphanum`: letters, digits and `-`.
fn is_alphanum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// One of major, minor, patch: digits only, no leading zero, then
/// strconv.ParseUint's own errors (an empty part, a value past u64).
fn number(part: &str, what: &str, title: &str) -> Result<u64, String> {
    if !part.chars().all(|c| NUMBERS.contains(c)) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            quote(part)
        ));
    }
    if part.len() > 1 && part.starts_with('0') {
        return Err(format!(
            "{title} number must not contain leading zeroes {}",
            quote(part)
        ));
    }
    parse_uint(part)
}

/// strconv.ParseUint(s, 10, 64) on digits, with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            quote(s)
        ));
    }
    s.parse().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            quote(s)
        )
    })
}

/// NewPRVersion: a prerelease identifier.
fn prerelease(id: &str) -> Result<PreId, String> {
    if id.is_empty() {
        return Err("Prerelease is empty".into());
    }
    if id.chars().all(|c| NUMBERS.contains(c)) {
        if id.len() > 1 && id.starts_with('0') {
            return Err(format!(
                "Numeric PreRelease version must not contain leading zeroes {}",
                quote(id)
            ));
        }
        return parse_uint(id).map(PreId::Num);
    }
    if id.chars().all(is_alphanum) {
        return Ok(PreId::Alpha(id.to_owned()));
    }
    Err(format!(
        "Invalid character(s) found in prerelease {}",
        quote(id)
    ))
}

impl Ord for Semver {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(o.major, o.minor, o.patch))
            .then_with(|| match (self.pre.is_empty(), o.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&o.pre) {
                        let c = match (a, b) {
                            (PreId::Num(x), PreId::Num(y)) => x.cmp(y),
                            (PreId::Num(_), PreId::Alpha(_)) => Ordering::Less,
                            (PreId::Alpha(_), PreId::Num(_)) => Ordering::Greater,
                            (PreId::Alpha(x), PreId::Alpha(y)) => x.cmp(y),
                        };
                        if c != Ordering::Equal {
                            return c;
                        }
                    }
                    self.pre.len().cmp(&o.pre.len())
                }
            })
    }
}

impl PartialOrd for Semver {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Semver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                PreId::Num(n) => write!(f, "{n}")?,
                PreId::Alpha(a) => f.write_str(a)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_and_normalized() {
        assert!(Semver::parse("1.2.3").is_ok());
        assert!(Semver::parse("v2.0.0")
            .unwrap_err()
            .contains("Invalid character"));
        assert_eq!(
            Semver::parse_normalized("v2").unwrap(),
            Semver::parse("2.0.0").unwrap()
        );
        assert_eq!(
            Semver::parse_normalized("1.02").unwrap(),
            Semver::parse("1.2.0").unwrap()
        );
        assert!(Semver::parse("1.2.3-rc.1").unwrap() < Semver::parse("1.2.3").unwrap());
        assert!(Semver::parse("1.2.3").unwrap() < Semver::parse("1.10.0").unwrap());
        assert!(Semver::parse("1.0.0-alpha").unwrap() < Semver::parse("1.0.0-alpha.1").unwrap());
    }

    /// blang/semver v4 Parse's checks in its order and words (v4/semver.go
    /// at 1b8e20d), strconv.ParseUint's for an empty or huge part.
    #[test]
    fn errors_as_blang_semver_words_them() {
        for (text, want) in [
            ("", "Version string empty"),
            ("1.2", "No Major.Minor.Patch elements found"),
            (
                "1.2-rc.3",
                r#"Invalid character(s) found in minor number "2-rc""#,
            ),
            (
                "v1.0.0",
                r#"Invalid character(s) found in major number "v1""#,
            ),
            (
                "01.2.3",
                r#"Major number must not contain leading zeroes "01""#,
            ),
            (
                "1.02.3",
                r#"Minor number must not contain leading zeroes "02""#,
            ),
            (
                "1.2.03",
                r#"Patch number must not contain leading zeroes "03""#,
            ),
            ("1..3", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            (
                "1.2.99999999999999999999",
                r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
            ),
            ("1.2.3-", "Prerelease is empty"),
            ("1.2.3-rc..1", "Prerelease is empty"),
            (
                "1.2.3-01",
                r#"Numeric PreRelease version must not contain leading zeroes "01""#,
            ),
            (
                "1.2.3-r_c",
                r#"Invalid character(s) found in prerelease "r_c""#,
            ),
            ("1.2.3+", "Build meta data is empty"),
            (
                "1.2.3+b_1",
                r#"Invalid character(s) found in build meta data "b_1""#,
            ),
        ] {
            assert_eq!(Semver::parse(text), Err(want.to_string()), "{text:?}");
        }
        // The third part keeps its dots: prerelease and build may have them.
        assert!(Semver::parse("1.2.3-rc.1+build.5").is_ok());
    }

    /// The library's normalizeAndParse (library/semverlib.go): a short
    /// version with prerelease or build data is refused in its words;
    /// leading zeros go from all three parts, the third's rest kept.
    #[test]
    fn normalized_as_normalize_and_parse() {
        let n = |s: &str| Semver::parse_normalized(s);
        assert_eq!(n("v1"), Semver::parse("1.0.0"));
        assert_eq!(n("01.002"), Semver::parse("1.2.0"));
        assert_eq!(n("1.2.003-rc"), Semver::parse("1.2.3-rc"));
        assert_eq!(n("1.2.0-rc"), Semver::parse("1.2.0-rc"));
        assert_eq!(
            n("1.2-rc"),
            Err("short version cannot contain PreRelease/Build meta data".into())
        );
        // A part not starting with a digit after the trim gets a "0" put
        // in front (so the second `v` of `vv1` reads as "0v1").
        assert_eq!(
            n("vv1.2.3"),
            Err(r#"Invalid character(s) found in major number "0v1""#.into())
        );
    }
}
