//! Semantic versions as the Kubernetes CEL semver library parses them
//! (blang/semver, strict; optional normalisation of `v1.2` to `1.2.0`).

use std::cmp::Ordering;
use std::fmt;

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

fn num(part: &str, what: &str) -> Result<u64, String> {
    if part.is_empty() {
        return Err(format!("{what} number must not be empty"));
    }
    if !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "Invalid character(s) found in {what} number {part:?}"
        ));
    }
    if part.len() > 1 && part.starts_with('0') {
        return Err(format!(
            "{what} number must not contain leading zeroes {part:?}"
        ));
    }
    part.parse()
        .map_err(|_| format!("{what} number is too large {part:?}"))
}

impl Semver {
    /// Strict semver 2.0.0 parse.
    pub fn parse(s: &str) -> Result<Self, String> {
        let (core, _build) = s.split_once('+').unwrap_or((s, ""));
        let (core, pre) = match core.split_once('-') {
            Some((c, p)) => (c, Some(p)),
            None => (core, None),
        };
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() != 3 {
            return Err("No Major.Minor.Patch elements found".into());
        }
        let major = num(parts[0], "major")?;
        let minor = num(parts[1], "minor")?;
        let patch = num(parts[2], "patch")?;
        let mut pre_ids = Vec::new();
        if let Some(pre) = pre {
            for id in pre.split('.') {
                if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                    return Err(format!("Invalid character(s) found in prerelease {id:?}"));
                }
                if id.bytes().all(|b| b.is_ascii_digit()) {
                    pre_ids.push(PreId::Num(num(id, "prerelease")?));
                } else {
                    pre_ids.push(PreId::Alpha(id.to_owned()));
                }
            }
        }
        Ok(Semver {
            major,
            minor,
            patch,
            pre: pre_ids,
        })
    }

    /// Kubernetes' normalising parse: strips a leading `v`, fills a missing
    /// minor or patch with 0 and drops leading zeros.
    pub fn parse_normalized(s: &str) -> Result<Self, String> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let (core, rest) = match s.find(['-', '+']) {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        };
        let mut parts: Vec<String> = core
            .split('.')
            .map(|p| {
                let t = p.trim_start_matches('0');
                if t.is_empty() && !p.is_empty() {
                    "0".to_owned()
                } else {
                    t.to_owned()
                }
            })
            .collect();
        while parts.len() < 3 {
            parts.push("0".into());
        }
        Self::parse(&format!("{}{}", parts.join("."), rest))
    }
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
}
