//! The Kubernetes IP and CIDR libraries.

use super::*;

/// The declared result type of a call of this family, or `None` when the
/// family declares no such call.
pub(super) fn signature(
    name: &str,
    target: Option<&Type>,
    args: &[&Type],
    env: &Env,
) -> Option<Sig> {
    let n = args.len();
    let a = |i: usize| args.get(i).copied().unwrap_or(&T::Dyn);
    let _ = (n, &a, env);
    Some(match (name, target) {
        // Kubernetes IP and CIDR.
        ("ip", None) if n == 1 => typed(is(a(0), &T::String), T::Ip),
        ("isIP" | "isCIDR", None) if n == 1 => typed(is(a(0), &T::String), T::Bool),
        ("isCanonical", Some(T::Dyn)) if n == 1 => typed(is(a(0), &T::String), T::Bool),
        ("family", Some(T::Ip | T::Dyn)) if n == 0 => ok(T::Int),
        (
            "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast",
            Some(T::Ip | T::Dyn),
        ) if n == 0 => ok(T::Bool),
        ("cidr", None) if n == 1 => typed(is(a(0), &T::String), T::Cidr),
        ("containsIP", Some(T::Cidr | T::Dyn)) if n == 1 => {
            typed(matches!(a(0), T::Ip | T::String | T::Dyn), T::Bool)
        }
        ("containsCIDR", Some(T::Cidr | T::Dyn)) if n == 1 => {
            typed(matches!(a(0), T::Cidr | T::String | T::Dyn), T::Bool)
        }
        ("ip", Some(T::Cidr)) if n == 0 => ok(T::Ip),
        ("masked", Some(T::Cidr)) if n == 0 => ok(T::Cidr),
        ("prefixLength", Some(T::Cidr)) if n == 0 => ok(T::Int),
        _ => return None,
    })
}

/// Evaluates a call of this family; `Ok(None)` when the family has no
/// such call.
pub(super) fn call(
    name: &str,
    target: Option<&Value>,
    args: &[Value],
    err: &dyn Fn() -> String,
) -> Result<Option<Value>, String> {
    let n = args.len();
    let a = |i: usize| &args[i];
    let _ = (n, &a, err);
    let result: R = match (name, target) {
        // IP and CIDR.
        ("ip", None) if n == 1 => parse_ip(str_arg(a(0), name)?).map(Value::Ip),
        ("isIP", None) if n == 1 => Ok(Value::Bool(parse_ip(str_arg(a(0), name)?).is_ok())),
        ("cidr", None) if n == 1 => {
            parse_cidr(str_arg(a(0), name)?).map(|(ip, p)| Value::Cidr(ip, p))
        }
        ("isCIDR", None) if n == 1 => Ok(Value::Bool(parse_cidr(str_arg(a(0), name)?).is_ok())),
        ("family", Some(Value::Ip(ip))) if n == 0 => {
            Ok(Value::Int(if ip.is_ipv4() { 4 } else { 6 }))
        }
        ("isUnspecified", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(ip.is_unspecified())),
        ("isLoopback", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(ip.is_loopback())),
        // netip's IsGlobalUnicast, as package net has it: the IPv4
        // broadcast address is not one either.
        ("isGlobalUnicast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(
            !ip.is_unspecified()
                && *ip != std::net::IpAddr::V4(std::net::Ipv4Addr::BROADCAST)
                && !ip.is_loopback()
                && !ip.is_multicast()
                && !link_local(ip),
        )),
        ("isLinkLocalUnicast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(link_local(ip))),
        ("isLinkLocalMulticast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(match ip {
            std::net::IpAddr::V4(v) => v.octets()[..3] == [224, 0, 0],
            std::net::IpAddr::V6(v) => v.segments()[0] & 0xff0f == 0xff02,
        })),
        ("containsIP", Some(Value::Cidr(net, p))) if n == 1 => {
            // cidrContainsIPString: a string that is no IP is no IP value,
            // so the call has no overload (library/cidr.go cidrContainsIP).
            let ip = match a(0) {
                Value::Ip(ip) => *ip,
                Value::String(s) => parse_ip(s).map_err(|_| "no such overload".to_string())?,
                _ => return Err(err()),
            };
            Ok(Value::Bool(in_prefix(*net, *p, ip)))
        }
        ("containsCIDR", Some(Value::Cidr(net, p))) if n == 1 => {
            let (ip, q) = match a(0) {
                Value::Cidr(ip, q) => (*ip, *q),
                Value::String(s) => parse_cidr(s)?,
                _ => return Err(err()),
            };
            Ok(Value::Bool(q >= *p && in_prefix(*net, *p, ip)))
        }
        ("ip", Some(Value::Cidr(ip, _))) if n == 0 => Ok(Value::Ip(*ip)),
        ("prefixLength", Some(Value::Cidr(_, p))) if n == 0 => Ok(Value::Int(i64::from(*p))),
        ("masked", Some(Value::Cidr(ip, p))) if n == 0 => Ok(Value::Cidr(mask(*ip, *p), *p)),
        _ => return Ok(None),
    };
    result.map(Some)
}

#[cfg(test)]
mod tests {
    fn run(expr: &str) -> Result<bool, String> {
        super::super::run_on("name: d\n", expr)
    }

    /// `net.IP` and `net.CIDR` are the libraries' type identifiers
    /// (ip_test.go "type of IP is net.IP", cidr_test.go "type of CIDR is
    /// net.CIDR"); a variable named `net` hides them.
    #[test]
    fn type_identifiers_of_the_ip_and_cidr_libraries() {
        for e in [
            "type(ip('192.168.0.1')) == net.IP",
            "type(cidr('192.168.0.0/24')) == net.CIDR",
            "type(ip('::1')) != net.CIDR",
            "cel.bind(net, {'IP': 1}, net.IP == 1)",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
        let err = run("type(ip('::1')) == net.MAC").unwrap_err();
        assert!(err.contains("undeclared reference to 'net'"), "{err}");
    }

    /// ip() and cidr() refuse what Go's netip.ParseAddr/ParsePrefix refuse
    /// (golang/go src/net/netip/netip.go), in their words, wrapped as the
    /// Kubernetes library wraps them (library/ip.go parseIPAddr and
    /// stringToIP; library/cidr.go parseCIDR and stringToCIDR, whose
    /// prefix appears twice).
    #[test]
    fn parse_errors_as_netip_and_the_library_word_them() {
        let cidr = "network address parse error during conversion from string";
        for (e, want) in [
            (
                "ip('10.1.2.3/8').family() == 4",
                r#"IP Address "10.1.2.3/8" parse error during conversion from string: ParseAddr("10.1.2.3/8"): unexpected character (at "/8")"#.to_string(),
            ),
            (
                "ip('1.2.3.04').family() == 4",
                r#"IP Address "1.2.3.04" parse error during conversion from string: ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero"#.into(),
            ),
            (
                "ip('1.2.3').family() == 4",
                r#"IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short"#.into(),
            ),
            (
                "ip('gpu').family() == 4",
                r#"IP Address "gpu" parse error during conversion from string: ParseAddr("gpu"): unable to parse IP"#.into(),
            ),
            (
                "ip('1::2::3').family() == 6",
                r#"IP Address "1::2::3" parse error during conversion from string: ParseAddr("1::2::3"): multiple :: in address (at ":3")"#.into(),
            ),
            (
                "ip('12345::').family() == 6",
                r#"IP Address "12345::" parse error during conversion from string: ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#.into(),
            ),
            (
                "ip('fe80::1%eth0').family() == 6",
                r#"IP address "fe80::1%eth0" with zone value is not allowed"#.into(),
            ),
            (
                "ip('::ffff:1.2.3.4').family() == 6",
                r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#.into(),
            ),
            (
                "cidr('10.0.0.0').prefixLength() == 8",
                format!(r#"{cidr}: {cidr}: netip.ParsePrefix("10.0.0.0"): no '/'"#),
            ),
            (
                "cidr('10.0.0.0/08').prefixLength() == 8",
                format!(r#"{cidr}: {cidr}: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#),
            ),
            (
                "cidr('10.0.0.0/33').prefixLength() == 8",
                format!(r#"{cidr}: {cidr}: netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#),
            ),
            (
                "cidr('10.0.0/8').prefixLength() == 8",
                format!(r#"{cidr}: {cidr}: netip.ParsePrefix("10.0.0/8"): ParseAddr("10.0.0"): IPv4 address too short"#),
            ),
            (
                "cidr('::ffff:1.2.3.4/120').prefixLength() == 8",
                format!(r#"{cidr}: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed"#),
            ),
            // ipIsCanonical parses first: an address that does not parse is
            // an error; cidrContainsIP gets no IP value from a bad string.
            (
                "ip.isCanonical('x')",
                r#"IP Address "x" parse error during conversion from string: ParseAddr("x"): unable to parse IP"#.into(),
            ),
            ("cidr('10.0.0.0/8').containsIP('x')", "no such overload".into()),
        ] {
            assert_eq!(run(e), Err(want), "{e}");
        }
        for e in [
            "ip('1:2:3:4:5:6:1.2.3.4').family() == 6",
            "ip('::1.2.3.4') == ip('::102:304')",
            "!ip.isCanonical('2001:DB8::1') && ip.isCanonical('2001:db8::1')",
            // netip's IsGlobalUnicast: not the IPv4 broadcast address.
            "!ip('255.255.255.255').isGlobalUnicast() && ip('10.0.0.1').isGlobalUnicast()",
        ] {
            assert_eq!(run(e), Ok(true), "{e}");
        }
    }
}
