//! The function library of the Kubernetes CEL base environment, as far as
//! DRA selectors use it: declarations for the checker ([`signature`]) and
//! implementations for the evaluator ([`call`]).

mod core;
mod format;
mod lists;
mod net;
mod operators;
mod optional;
mod quantity;
mod semver;
mod sets;
mod strings;
mod timestamps;
mod url;

use std::sync::Arc;

use cel::common::ast::operators as op;

use super::go_strconv;
use super::semver::Semver;
use super::types::{is_num, Type};
use super::value::{equals, numeric_cmp, MapValue, Value};
use super::Env;
use crate::quantity::Quantity;

/// How a call's cost grows beyond 1.
pub(crate) enum Extra {
    None,
    /// The Kubernetes library estimator's string functions
    /// (`apiserver/pkg/cel/library/cost.go` EstimateCallCost): the
    /// receiver's length times the factor (0.1 to read it, 0.2 to read it
    /// and build the result), no base cost.
    Traversal(f64),
    /// cel-go's ExtQuoteString, StringToBytes, BytesToString: the first
    /// argument's length times 0.1, no base cost.
    ArgTraversal,
    /// `@in` on a list (cel-go's InList, also when a dyn operand may be a
    /// list: the union of the overloads' estimates): the list's size, no
    /// base cost.
    InList,
    /// DRA's `includes` (compile.go draCostEstimator): the most values an
    /// attribute may hold, no base cost.
    Flat(f64),
    /// The Kubernetes library's `join`: by the joined size, which the
    /// estimator cannot bound.
    Join,
    /// The Kubernetes library's `indexOf`/`lastIndexOf` on a list: one per
    /// element, plus reading each string or bytes element, whose size the
    /// estimator cannot know (library/cost.go listElementNode).
    ListScan {
        sized_elements: bool,
    },
    /// Linear in the smaller operand, with no base cost (cel-go's
    /// equality and string ordering).
    Equality,
    /// `startsWith`/`endsWith`: linear in the argument, no base cost.
    Affix,
    /// `contains`: receiver length times argument length, no base cost.
    Contains,
    /// `matches`: (receiver length + 1) times a quarter of the regex length.
    Matches,
}

pub(crate) enum Sig {
    Ok(Type, Extra),
    NoOverload,
    Undeclared,
    Gated(String),
}

use Type as T;

fn ok(t: Type) -> Sig {
    Sig::Ok(t, Extra::None)
}

fn is(t: &Type, want: &Type) -> bool {
    t == want || matches!(t, T::Dyn)
}

/// Whether a value of type `arg` may be passed where an overload declares
/// `param`, as cel-go's checker decides (isAssignable without type
/// parameters): `dyn` (and `any`) on either side, lists, maps and optionals
/// element by element.
fn assignable(param: &Type, arg: &Type) -> bool {
    match (param.as_dyn(), arg.as_dyn()) {
        (T::Dyn, _) | (_, T::Dyn) => true,
        (T::List(p), T::List(a)) | (T::Optional(p), T::Optional(a)) => assignable(p, a),
        (T::Map(pk, pv), T::Map(ak, av)) => assignable(pk, ak) && assignable(pv, av),
        (p, a) => p == a,
    }
}

/// Whether the call's receiver and arguments fit one member overload
/// (`receiver.name(params...)`).
fn member(target: Option<&Type>, args: &[&Type], receiver: &Type, params: &[Type]) -> bool {
    target.is_some_and(|t| assignable(receiver, t))
        && args.len() == params.len()
        && params.iter().zip(args).all(|(p, a)| assignable(p, a))
}

fn comparable(a: &Type, b: &Type) -> bool {
    if a.is_dyn_like() || b.is_dyn_like() {
        return true;
    }
    // `_==_` is (A, A): numbers of two types are not equal operands (only
    // the ordering operators cross numeric types).
    match (a, b) {
        (T::List(x), T::List(y)) => comparable(x, y),
        (T::Map(k1, v1), T::Map(k2, v2)) => comparable(k1, k2) && comparable(v1, v2),
        (T::Optional(_), T::Optional(_)) => true,
        (T::Null, T::Optional(_) | T::Null) | (T::Optional(_), T::Null) => true,
        _ => a == b,
    }
}

impl Type {
    /// cel-go's isDynOrError: `dyn`, `any` (at any depth: `list(any)`
    /// fits `list(string)`), an error, and a free type parameter.
    fn is_dyn_like(&self) -> bool {
        self.is_dyn()
    }
}

/// The declared result type of a call, or why it does not type-check.
pub(crate) fn signature(name: &str, target: Option<&Type>, args: &[&Type], env: &Env) -> Sig {
    // Each family in the order the declarations were matched before the split.
    for family in [
        operators::signature,
        core::signature,
        timestamps::signature,
        strings::signature,
        lists::signature,
        sets::signature,
        quantity::signature,
        semver::signature,
        net::signature,
        url::signature,
        format::signature,
        optional::signature,
    ] {
        if let Some(sig) = family(name, target, args, env) {
            return sig;
        }
    }
    if is_declared(name) {
        Sig::NoOverload
    } else {
        Sig::Undeclared
    }
}

/// `sets.contains(...)`, `optional.of(...)`: the target is a namespace identifier,
/// which the checker sees as an undeclared variable. The parser hands us the
/// namespace as the target; the checker resolves it before calling here.
fn is_namespace_call(_t: Option<&Type>) -> bool {
    true
}

fn bool_if(b: bool) -> Sig {
    if b {
        ok(T::Bool)
    } else {
        Sig::NoOverload
    }
}

fn typed(b: bool, t: Type) -> Sig {
    if b {
        ok(t)
    } else {
        Sig::NoOverload
    }
}

/// A conversion function's declared overloads: the argument types it
/// takes (a dyn argument may be any of them) and the one it gives.
fn conversion(arg: &Type, from: &[Type], to: Type) -> Sig {
    typed(from.iter().any(|p| assignable(p, arg)), to)
}

fn sized(t: &Type) -> Sig {
    match t {
        T::String | T::Bytes | T::List(_) | T::Map(..) | T::Dyn => ok(T::Int),
        _ => Sig::NoOverload,
    }
}

const DECLARED: &[&str] = &[
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "bool",
    "type",
    "dyn",
    "duration",
    "timestamp",
    "charAt",
    "indexOf",
    "lastIndexOf",
    "lowerAscii",
    "upperAscii",
    "trim",
    "replace",
    "split",
    "substring",
    "join",
    "format",
    "quote",
    "find",
    "findAll",
    "isSorted",
    "sum",
    "min",
    "max",
    "slice",
    "flatten",
    "distinct",
    "reverse",
    "sort",
    "first",
    "last",
    "range",
    "equivalent",
    "intersects",
    "quantity",
    "isQuantity",
    "isGreaterThan",
    "isLessThan",
    "compareTo",
    "add",
    "sub",
    "asInteger",
    "sign",
    "isInteger",
    "asApproximateFloat",
    "semver",
    "isSemver",
    "major",
    "minor",
    "patch",
    "ip",
    "isIP",
    "isCIDR",
    "isCanonical",
    "family",
    "isUnspecified",
    "isLoopback",
    "isLinkLocalMulticast",
    "isLinkLocalUnicast",
    "isGlobalUnicast",
    "cidr",
    "containsIP",
    "containsCIDR",
    "masked",
    "prefixLength",
    "url",
    "isURL",
    "getScheme",
    "getHost",
    "getHostname",
    "getPort",
    "getEscapedPath",
    "getQuery",
    "named",
    "validate",
    "of",
    "ofNonZeroValue",
    "none",
    "hasValue",
    "value",
    "orValue",
    "or",
    "getDays",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    "getFullYear",
    "getMonth",
    "getDayOfMonth",
    "getDayOfWeek",
    "getDayOfYear",
    "getDate",
];

fn is_declared(name: &str) -> bool {
    name.starts_with('_')
        || name.starts_with('@')
        || name.starts_with('!')
        || name.starts_with('-')
        || DECLARED.contains(&name)
}

/// Names that, as a call target, are namespaces and not values.
pub(crate) fn is_namespace(name: &str) -> bool {
    matches!(
        name,
        "sets" | "optional" | "format" | "strings" | "lists" | "math" | "cel" | "ip"
    )
}

// ---------------------------------------------------------------------------
// Evaluation.

pub(crate) type R = Result<Value, String>;

fn no_overload(name: &str, args: &[&Value]) -> String {
    let types: Vec<&str> = args.iter().map(|v| v.type_name()).collect();
    format!("no such overload: {name}({})", types.join(", "))
}

fn str_arg<'a>(v: &'a Value, name: &str) -> Result<&'a str, String> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(no_overload(name, &[other])),
    }
}

fn int_arg(v: &Value, name: &str) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(*i),
        other => Err(no_overload(name, &[other])),
    }
}

thread_local! {
    /// Compiled patterns: selectors use a handful of literals, evaluated on
    /// every device. Shared, not cloned: a cloned `regex::Regex` starts with
    /// an empty cache pool, and rebuilding it for every device took 45% of
    /// `matches()` (issue 37).
    static REGEXES: std::cell::RefCell<std::collections::HashMap<String, Arc<regex::Regex>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

pub(crate) fn regex(pattern: &str) -> Result<Arc<regex::Regex>, String> {
    if let Some(re) = REGEXES.with(|c| c.borrow().get(pattern).cloned()) {
        return Ok(re);
    }
    let re = Arc::new(
        regex::Regex::new(pattern)
            // Go's regexp text: "error parsing regexp: ..." (the reason is the
            // Rust engine's wording).
            .map_err(|e| format!("error parsing regexp: {e} in {pattern:?}"))?,
    );
    REGEXES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 256 {
            c.clear();
        }
        c.insert(pattern.to_owned(), Arc::clone(&re));
    });
    Ok(re)
}

fn list(items: Vec<Value>) -> Value {
    Value::List(Arc::new(items))
}

/// Calls a library function. `target` is the receiver of a member call.
pub(crate) fn call(
    name: &str,
    namespace: Option<&str>,
    target: Option<&Value>,
    args: &[Value],
) -> R {
    // Built only for an error: this runs for every call on every device.
    let err = || {
        no_overload(
            name,
            &target.into_iter().chain(args.iter()).collect::<Vec<_>>(),
        )
    };
    if let Some(ns) = namespace {
        return namespaced(ns, name, args)
            .unwrap_or_else(|| Err(format!("no such function: {ns}.{name}")));
    }
    // Quantity and semver first: selectors call them on every device.
    for family in [
        quantity::call,
        semver::call,
        core::call,
        strings::call,
        lists::call,
        net::call,
        format::call,
        optional::call,
        url::call,
        timestamps::call,
    ] {
        if let Some(v) = family(name, target, args, &err)? {
            return Ok(v);
        }
    }
    Err(err())
}

fn namespaced(ns: &str, name: &str, args: &[Value]) -> Option<R> {
    let n = args.len();
    Some(match (ns, name) {
        ("sets", "contains" | "equivalent" | "intersects") if n == 2 => {
            let (Value::List(x), Value::List(y)) = (&args[0], &args[1]) else {
                return Some(Err(no_overload(
                    &format!("sets.{name}"),
                    &[&args[0], &args[1]],
                )));
            };
            let has = |l: &Vec<Value>, v: &Value| l.iter().any(|w| equals(w, v) == Some(true));
            Ok(Value::Bool(match name {
                "contains" => y.iter().all(|v| has(x, v)),
                "equivalent" => y.iter().all(|v| has(x, v)) && x.iter().all(|v| has(y, v)),
                _ => y.iter().any(|v| has(x, v)),
            }))
        }
        ("optional", "of") if n == 1 => Ok(Value::Optional(Some(Box::new(args[0].clone())))),
        ("optional", "none") if n == 0 => Ok(Value::Optional(None)),
        ("optional", "ofNonZeroValue") if n == 1 => {
            let zero = match &args[0] {
                Value::Null => true,
                Value::Bool(b) => !b,
                Value::Int(i) => *i == 0,
                Value::Uint(u) => *u == 0,
                Value::Double(d) => *d == 0.0,
                Value::String(s) => s.is_empty(),
                Value::List(l) => l.is_empty(),
                Value::Map(m) => m.entries.is_empty(),
                _ => false,
            };
            Ok(Value::Optional((!zero).then(|| Box::new(args[0].clone()))))
        }
        // ext/lists.go genRange: no elements below 1.
        ("lists", "range") if n == 1 => match &args[0] {
            Value::Int(k) => Ok(list((0..*k).map(Value::Int).collect())),
            other => Err(no_overload("lists.range", &[other])),
        },
        ("strings", "quote") if n == 1 => match &args[0] {
            Value::String(s) => Ok(Value::string(&strings::quote(s))),
            other => Err(no_overload("strings.quote", &[other])),
        },
        ("optional", "unwrap") if n == 1 => match &args[0] {
            Value::List(l) => lists::unwrap_optionals(l),
            other => Err(no_overload("optional.unwrap", &[other])),
        },
        // ipIsCanonical: a string that does not parse is an error, not false.
        ("ip", "isCanonical") if n == 1 => match &args[0] {
            Value::String(s) => parse_ip(s).map(|ip| Value::Bool(ip.to_string() == **s)),
            other => Err(no_overload("ip.isCanonical", &[other])),
        },
        ("format", "named") if n == 1 => match &args[0] {
            Value::String(name) => Ok(Value::Optional(
                format_name(name).map(|f| Box::new(Value::Format(f))),
            )),
            other => Err(no_overload("format.named", &[other])),
        },
        ("format", f) if n == 0 => Ok(Value::Format(format_name(f)?)),
        _ => return None,
    })
}

/// The Kubernetes IP library's parseIPAddr: netip.ParseAddr, then no zone
/// and no IPv4-mapped IPv6 address (library/ip.go).
fn parse_ip(s: &str) -> Result<std::net::IpAddr, String> {
    let quoted = crate::cel::go_fmt::quote(s);
    let addr = super::netip::parse_addr(s).map_err(|e| {
        format!("IP Address {quoted} parse error during conversion from string: {e}")
    })?;
    if addr.zoned {
        return Err(format!(
            "IP address {quoted} with zone value is not allowed"
        ));
    }
    if super::netip::is_4in6(&addr.ip) {
        return Err(format!("IPv4-mapped IPv6 address {quoted} is not allowed"));
    }
    Ok(addr.ip)
}

/// `cidr(s)`'s error: stringToCIDR wraps parseCIDR's error, which has the
/// same words before netip's (library/cidr.go), so they appear twice.
fn parse_cidr(s: &str) -> Result<(std::net::IpAddr, u8), String> {
    const WORDS: &str = "network address parse error during conversion from string";
    let (ip, bits) = super::netip::parse_prefix(s).map_err(|e| format!("{WORDS}: {WORDS}: {e}"))?;
    if super::netip::is_4in6(&ip) {
        let quoted = crate::cel::go_fmt::quote(s);
        return Err(format!(
            "{WORDS}: IPv4-mapped IPv6 address {quoted} is not allowed"
        ));
    }
    Ok((ip, bits))
}

fn link_local(ip: &std::net::IpAddr) -> bool {
    match ip {
        std::net::IpAddr::V4(v) => v.octets()[..2] == [169, 254],
        std::net::IpAddr::V6(v) => v.segments()[0] & 0xffc0 == 0xfe80,
    }
}

/// Whether `ip` lies in `net/p`: same family, same masked address.
fn in_prefix(net: std::net::IpAddr, p: u8, ip: std::net::IpAddr) -> bool {
    net.is_ipv4() == ip.is_ipv4() && mask(net, p) == mask(ip, p)
}

fn mask(ip: std::net::IpAddr, p: u8) -> std::net::IpAddr {
    match ip {
        std::net::IpAddr::V4(v) => {
            let m = if p == 0 {
                0
            } else {
                u32::MAX << (32 - u32::from(p))
            };
            std::net::IpAddr::V4((u32::from(v) & m).into())
        }
        std::net::IpAddr::V6(v) => {
            let m = if p == 0 {
                0
            } else {
                u128::MAX << (128 - u32::from(p))
            };
            std::net::IpAddr::V6((u128::from(v) & m).into())
        }
    }
}

fn size(v: &Value) -> Option<Value> {
    Some(Value::Int(match v {
        Value::String(s) => s.chars().count() as i64,
        Value::Bytes(b) => b.len() as i64,
        Value::List(l) => l.len() as i64,
        Value::Map(m) | Value::Domains(m) => m.entries.len() as i64,
        _ => return None,
    }))
}

/// Ordering for `<` and friends; `None` when the operands do not compare.
/// Sorts a list by the keys computed for it (`sortBy`).
pub(crate) use lists::sort_by_associated_keys;

pub(crate) fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Duration(x), Value::Duration(y))
        | (Value::Timestamp(x, _), Value::Timestamp(y, _)) => Some(x.cmp(y)),
        _ => numeric_cmp(a, b),
    }
}

/// `+ - * / %` on runtime values.
pub(crate) fn arith(name: &str, a: &Value, b: &Value) -> R {
    use Value::*;
    let overflow = || "integer overflow".to_owned();
    Ok(match (name, a, b) {
        (op::ADD, Int(x), Int(y)) => Int(x.checked_add(*y).ok_or_else(overflow)?),
        (op::SUBSTRACT, Int(x), Int(y)) => Int(x.checked_sub(*y).ok_or_else(overflow)?),
        (op::MULTIPLY, Int(x), Int(y)) => Int(x.checked_mul(*y).ok_or_else(overflow)?),
        // cel-go's texts (common/types/int.go, uint.go).
        (op::DIVIDE, Int(_), Int(0)) => return Err("division by zero".into()),
        (op::MODULO, Int(_), Int(0)) => return Err("modulus by zero".into()),
        (op::DIVIDE, Int(x), Int(y)) => Int(x.checked_div(*y).ok_or_else(overflow)?),
        (op::MODULO, Int(x), Int(y)) => Int(x.checked_rem(*y).ok_or_else(overflow)?),
        (op::ADD, Uint(x), Uint(y)) => Uint(x.checked_add(*y).ok_or_else(overflow)?),
        (op::SUBSTRACT, Uint(x), Uint(y)) => Uint(x.checked_sub(*y).ok_or_else(overflow)?),
        (op::MULTIPLY, Uint(x), Uint(y)) => Uint(x.checked_mul(*y).ok_or_else(overflow)?),
        (op::DIVIDE, Uint(_), Uint(0)) => return Err("division by zero".into()),
        (op::MODULO, Uint(_), Uint(0)) => return Err("modulus by zero".into()),
        (op::DIVIDE, Uint(x), Uint(y)) => Uint(x / y),
        (op::MODULO, Uint(x), Uint(y)) => Uint(x % y),
        (op::ADD, Double(x), Double(y)) => Double(x + y),
        (op::SUBSTRACT, Double(x), Double(y)) => Double(x - y),
        (op::MULTIPLY, Double(x), Double(y)) => Double(x * y),
        (op::DIVIDE, Double(x), Double(y)) => Double(x / y),
        (op::ADD, String(x), String(y)) => Value::string(&format!("{x}{y}")),
        (op::ADD, List(x), List(y)) => {
            let mut v = Vec::with_capacity(x.len() + y.len());
            v.extend(x.iter().cloned());
            v.extend(y.iter().cloned());
            List(Arc::new(v))
        }
        (op::ADD, Bytes(x), Bytes(y)) => Bytes([&x[..], &y[..]].concat().into()),
        (op::ADD, Duration(x), Duration(y)) => duration(x + y)?,
        (op::SUBSTRACT, Duration(x), Duration(y)) => duration(x - y)?,
        // addTimeDurationChecked: the result keeps the time's zone.
        (op::ADD, Timestamp(t, zone), Duration(d)) | (op::ADD, Duration(d), Timestamp(t, zone)) => {
            Timestamp(super::time::checked_timestamp(t + d)?, *zone)
        }
        (op::SUBSTRACT, Timestamp(t, zone), Duration(d)) => {
            Timestamp(super::time::checked_timestamp(t - d)?, *zone)
        }
        (op::SUBSTRACT, Timestamp(x, _), Timestamp(y, _)) => duration(x - y)?,
        _ => return Err(no_overload(name, &[a, b])),
    })
}

/// The formats of the Kubernetes format library, by name.
fn format_name(f: &str) -> Option<&'static str> {
    const NAMES: [&str; 13] = [
        "dns1123Label",
        "dns1123Subdomain",
        "dns1035Label",
        "qualifiedName",
        "dns1123LabelPrefix",
        "dns1123SubdomainPrefix",
        "dns1035LabelPrefix",
        "labelValue",
        "uri",
        "uuid",
        "byte",
        "date",
        "datetime",
    ];
    NAMES.into_iter().find(|n| *n == f)
}

/// Standard base64 with padding, as Go's `base64.StdEncoding.DecodeString` accepts it.
/// govalidator's IsBase64 pattern: whole groups of four, the last padded
/// at most twice; not empty.
fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    pad <= 2
        && b[..b.len() - pad]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
}

fn duration(n: i128) -> R {
    super::time::checked_duration(n).map(Value::Duration)
}

/// `_[_]` on lists and maps. Unknown device domains read as an empty map.
pub(crate) fn index(container: &Value, key: &Value) -> R {
    match container {
        Value::List(l) => {
            let i = list_index(key)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| l.get(i))
                .cloned()
                .ok_or_else(|| format!("index out of bounds: {i}"))
        }
        Value::Map(m) => m
            .get(key)
            .cloned()
            .ok_or_else(|| format!("no such key: {}", key_text(key))),
        Value::Domains(m) => Ok(m
            .get(key)
            .cloned()
            .unwrap_or_else(|| Value::Map(Arc::new(MapValue::default())))),
        other => Err(no_overload(op::INDEX, &[other, key])),
    }
}

/// A list index as cel-go's `types.IndexOrError` takes it: an int, or a
/// double or uint that converts to one without loss.
pub(crate) fn list_index(key: &Value) -> Result<i64, String> {
    match key {
        Value::Int(i) => Ok(*i),
        Value::Uint(u) => {
            i64::try_from(*u).map_err(|_| format!("unsupported index value {u} in list"))
        }
        // doubleToInt64Lossless (common/types/overflow.go): inside
        // (MinInt64, MaxInt64) as doubles, and without a fraction.
        Value::Double(d) if d.fract() == 0.0 && *d > i64::MIN as f64 && *d < i64::MAX as f64 => {
            Ok(*d as i64)
        }
        Value::Double(_) => Err(format!("unsupported index value {key} in list")),
        other => Err(format!(
            "unsupported index type '{}' in list",
            other.type_name()
        )),
    }
}

pub(crate) fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// Test support for the families' tests: compiles `expr` for the scheduler
/// (every library declared) and evaluates it on the device read from `yaml`
/// (of driver `d.example.com`).
#[cfg(test)]
pub(crate) fn run_on(yaml: &str, expr: &str) -> Result<bool, String> {
    use crate::cel::{Device, Env, Program};
    let loaded = crate::yaml::load(yaml, crate::yaml::Limits::default());
    let device = Arc::new(Device::from_node(
        "d.example.com",
        &loaded.documents[0].root,
        true,
    ));
    let p = Program::compile(expr, &Env::stored_latest()).map_err(|e| e.message)?;
    p.matches(&device).map_err(|e| e.0)
}
