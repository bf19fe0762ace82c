//! Go's `net/netip` parsers, which the Kubernetes IP and CIDR libraries
//! call (`netip.ParseAddr`, `netip.ParsePrefix`): what they accept and
//! their error texts, since the CEL error of `ip("...")` and `cidr("...")`
//! quotes them. Read in golang/go src/net/netip/netip.go.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::go_fmt::quote;

/// A parsed address and whether it named an IPv6 zone (`fe80::1%eth0`).
pub struct Addr {
    pub ip: IpAddr,
    pub zoned: bool,
}

fn addr_error(input: &str, msg: &str, at: Option<&str>) -> String {
    match at {
        Some(at) if !at.is_empty() => {
            format!("ParseAddr({}): {msg} (at {})", quote(input), quote(at))
        }
        _ => format!("ParseAddr({}): {msg}", quote(input)),
    }
}

/// `netip.ParseAddr`.
pub fn parse_addr(s: &str) -> Result<Addr, String> {
    for b in s.bytes() {
        match b {
            b'.' => {
                let fields = parse_ipv4_fields(s, s)?;
                return Ok(Addr {
                    ip: IpAddr::V4(Ipv4Addr::from(fields)),
                    zoned: false,
                });
            }
            b':' => return parse_ipv6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", None)),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", None))
}

/// parseIPv4Fields: `part` is the IPv4 text inside `input` (all of it, or
/// the tail of an IPv6 address); errors quote `input`.
fn parse_ipv4_fields(input: &str, part: &str) -> Result<[u8; 4], String> {
    let s = part.as_bytes();
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0usize);
    for (i, &c) in s.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && val == 0 {
                return Err(addr_error(
                    input,
                    "IPv4 field has octet with leading zero",
                    None,
                ));
            }
            val = val * 10 + u32::from(c - b'0');
            digits += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", None));
            }
        } else if c == b'.' {
            if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' {
                return Err(addr_error(
                    input,
                    "IPv4 field must have at least one digit",
                    Some(&part[i..]),
                ));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", None));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            digits = 0;
        } else {
            return Err(addr_error(input, "unexpected character", Some(&part[i..])));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", None));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// parseIPv6, with its zone split off first.
fn parse_ipv6(input: &str) -> Result<Addr, String> {
    let (mut s, zoned) = match input.split_once('%') {
        Some((_, "")) => {
            return Err(addr_error(input, "zone must be a non-empty string", None));
        }
        Some((a, _)) => (a, true),
        None => (input, false),
    };
    let addr_end = s.len();
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(Addr {
                ip: IpAddr::V6(Ipv6Addr::UNSPECIFIED),
                zoned,
            });
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let bytes = s.as_bytes();
        let (mut off, mut acc) = (0usize, 0u32);
        while off < bytes.len() {
            let d = match bytes[off] {
                c @ b'0'..=b'9' => c - b'0',
                c @ b'a'..=b'f' => c - b'a' + 10,
                c @ b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(d);
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each group must have 4 or less digits",
                    Some(s),
                ));
            }
            if acc > 0xffff {
                return Err(addr_error(input, "IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_error(
                input,
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if off < bytes.len() && bytes[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(addr_error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err(addr_error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            let start = addr_end - s.len();
            let fields = parse_ipv4_fields(input, &input[start..addr_end])?;
            ip[i..i + 4].copy_from_slice(&fields);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(
                input,
                "unexpected character, want colon",
                Some(s),
            ));
        } else if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                Some(s),
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", Some(s)));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_error(input, "address string too short", None));
        };
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_error(
            input,
            "the :: must expand to at least one field of zeros",
            None,
        ));
    }
    Ok(Addr {
        ip: IpAddr::V6(Ipv6Addr::from(ip)),
        zoned,
    })
}

/// `netip.ParsePrefix`: an address, a slash, and a length in range (no
/// sign, no leading zero); no zone.
pub fn parse_prefix(s: &str) -> Result<(IpAddr, u8), String> {
    let error = |msg: &str| format!("netip.ParsePrefix({}): {msg}", quote(s));
    let Some(slash) = s.rfind('/') else {
        return Err(error("no '/'"));
    };
    let addr = parse_addr(&s[..slash]).map_err(|e| error(&e))?;
    if addr.zoned {
        return Err(error("IPv6 zones cannot be present in a prefix"));
    }
    let bits = &s[slash + 1..];
    let bad = || error(&format!("bad bits after slash: {}", quote(bits)));
    if bits.len() > 1 && !matches!(bits.as_bytes()[0], b'1'..=b'9') {
        return Err(bad());
    }
    // strconv.Atoi: an optional sign (only "+"/"-" alone reach here), digits.
    if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let max: i64 = if addr.ip.is_ipv4() { 32 } else { 128 };
    match bits.parse::<i64>() {
        Ok(b) if b <= max => Ok((addr.ip, b as u8)),
        Ok(_) => Err(error("prefix length out of range")),
        // More digits than an int holds: Atoi's range error.
        Err(_) => Err(bad()),
    }
}

/// `Addr.Is4In6`: an IPv6 address in ::ffff:0:0/96.
pub fn is_4in6(ip: &IpAddr) -> bool {
    matches!(ip, IpAddr::V6(v) if v.to_ipv4_mapped().is_some())
}
