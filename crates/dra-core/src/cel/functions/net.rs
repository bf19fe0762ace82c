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
        ("isIP" | "isCIDR", None) if n == 1 => ok(T::Bool),
        ("isCanonical", Some(T::Dyn)) if n == 1 => ok(T::Bool),
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
        ("containsIP" | "containsCIDR", Some(T::Cidr | T::Dyn)) if n == 1 => ok(T::Bool),
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
        ("isGlobalUnicast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(
            !ip.is_unspecified() && !ip.is_loopback() && !ip.is_multicast() && !link_local(ip),
        )),
        ("isLinkLocalUnicast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(link_local(ip))),
        ("isLinkLocalMulticast", Some(Value::Ip(ip))) if n == 0 => Ok(Value::Bool(match ip {
            std::net::IpAddr::V4(v) => v.octets()[..3] == [224, 0, 0],
            std::net::IpAddr::V6(v) => v.segments()[0] & 0xff0f == 0xff02,
        })),
        ("containsIP", Some(Value::Cidr(net, p))) if n == 1 => {
            let ip = match a(0) {
                Value::Ip(ip) => *ip,
                Value::String(s) => parse_ip(s)?,
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
