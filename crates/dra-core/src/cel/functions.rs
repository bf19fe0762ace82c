//! The function library of the Kubernetes CEL base environment, as far as
//! DRA selectors use it: declarations for the checker ([`signature`]) and
//! implementations for the evaluator ([`call`]).

use std::sync::Arc;

use cel::common::ast::operators as op;

use super::check::Type;
use super::semver::Semver;
use super::value::{equals, numeric_cmp, MapValue, Value};
use super::Env;
use crate::quantity::Quantity;

/// How a call's cost grows beyond 1.
pub(crate) enum Extra {
    None,
    /// Linear in the receiver's (or first argument's) length.
    Strings,
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

fn comparable(a: &Type, b: &Type) -> bool {
    if a.is_dyn_like() || b.is_dyn_like() {
        return true;
    }
    if super::check::is_num(a) && super::check::is_num(b) {
        return true;
    }
    match (a, b) {
        (T::List(x), T::List(y)) => comparable(x, y),
        (T::Map(k1, v1), T::Map(k2, v2)) => comparable(k1, k2) && comparable(v1, v2),
        (T::Optional(_), T::Optional(_)) => true,
        (T::Null, T::Optional(_) | T::Null) | (T::Optional(_), T::Null) => true,
        _ => a == b,
    }
}

impl Type {
    fn is_dyn_like(&self) -> bool {
        matches!(self, T::Dyn)
    }
}

/// The declared result type of a call, or why it does not type-check.
pub(crate) fn signature(name: &str, target: Option<&Type>, args: &[&Type], env: &Env) -> Sig {
    let n = args.len();
    let a = |i: usize| args.get(i).copied().unwrap_or(&T::Dyn);
    match (name, target) {
        (op::LOGICAL_AND | op::LOGICAL_OR, None) if n == 2 => {
            if is(a(0), &T::Bool) && is(a(1), &T::Bool) {
                ok(T::Bool)
            } else {
                Sig::NoOverload
            }
        }
        (op::LOGICAL_NOT, None) if n == 1 => bool_if(is(a(0), &T::Bool)),
        (op::NOT_STRICTLY_FALSE, None) => ok(T::Bool),
        (op::CONDITIONAL, None) if n == 3 => {
            if !is(a(0), &T::Bool) {
                return Sig::NoOverload;
            }
            ok(if a(1) == a(2) { a(1).clone() } else { T::Dyn })
        }
        (op::EQUALS | op::NOT_EQUALS, None) if n == 2 => {
            if comparable(a(0), a(1)) {
                Sig::Ok(T::Bool, Extra::Equality)
            } else {
                Sig::NoOverload
            }
        }
        (op::LESS | op::LESS_EQUALS | op::GREATER | op::GREATER_EQUALS, None) if n == 2 => {
            let orderable = |t: &Type| {
                matches!(
                    t,
                    T::Int
                        | T::Uint
                        | T::Double
                        | T::String
                        | T::Bytes
                        | T::Bool
                        | T::Duration
                        | T::Timestamp
                        | T::Dyn
                )
            };
            let ok_pair = orderable(a(0))
                && orderable(a(1))
                && (a(0) == a(1)
                    || a(0).is_dyn_like()
                    || a(1).is_dyn_like()
                    || (super::check::is_num(a(0)) && super::check::is_num(a(1))));
            if ok_pair && (a(0) == &T::String || a(0) == &T::Bytes) && a(0) == a(1) {
                Sig::Ok(T::Bool, Extra::Equality)
            } else {
                bool_if(ok_pair)
            }
        }
        (op::ADD, None) if n == 2 => match (a(0), a(1)) {
            (T::Dyn, t) | (t, T::Dyn) => ok(t.clone()),
            (T::Int, T::Int)
            | (T::Uint, T::Uint)
            | (T::Double, T::Double)
            | (T::String, T::String)
            | (T::Bytes, T::Bytes) => ok(a(0).clone()),
            (T::List(x), T::List(y)) => ok(T::List(Box::new(if x == y {
                (**x).clone()
            } else {
                T::Dyn
            }))),
            (T::Duration, T::Duration) => ok(T::Duration),
            (T::Timestamp, T::Duration) | (T::Duration, T::Timestamp) => ok(T::Timestamp),
            _ => Sig::NoOverload,
        },
        (op::SUBSTRACT | op::MULTIPLY | op::DIVIDE | op::MODULO, None) if n == 2 => {
            match (a(0), a(1)) {
                (T::Dyn, t) | (t, T::Dyn) if super::check::is_num(t) || t.is_dyn_like() => {
                    ok(t.clone())
                }
                (T::Int, T::Int) | (T::Uint, T::Uint) => ok(a(0).clone()),
                (T::Double, T::Double) if name != op::MODULO => ok(T::Double),
                (T::Duration, T::Duration) | (T::Timestamp, T::Timestamp)
                    if name == op::SUBSTRACT =>
                {
                    ok(T::Duration)
                }
                (T::Timestamp, T::Duration) if name == op::SUBSTRACT => ok(T::Timestamp),
                _ => Sig::NoOverload,
            }
        }
        (op::NEGATE, None) if n == 1 => match a(0) {
            T::Int | T::Double | T::Dyn => ok(a(0).clone()),
            _ => Sig::NoOverload,
        },
        (op::INDEX, None) if n == 2 => match a(0) {
            T::List(t) => {
                if is(a(1), &T::Int) || matches!(a(1), T::Uint) {
                    ok((**t).clone())
                } else {
                    Sig::NoOverload
                }
            }
            T::Map(k, v) => {
                if comparable(k, a(1)) {
                    ok((**v).clone())
                } else {
                    Sig::NoOverload
                }
            }
            T::Dyn => ok(T::Dyn),
            _ => Sig::NoOverload,
        },
        (op::OPT_INDEX, None) if n == 2 => match a(0) {
            T::List(t) => ok(T::Optional(t.clone())),
            T::Map(_, v) => ok(T::Optional(v.clone())),
            T::Optional(inner) => match &**inner {
                T::Map(_, v) => ok(T::Optional(v.clone())),
                _ => ok(T::Optional(Box::new(T::Dyn))),
            },
            T::Dyn => ok(T::Optional(Box::new(T::Dyn))),
            _ => Sig::NoOverload,
        },
        (op::OPT_SELECT, None) if n == 2 => match a(0) {
            T::Map(_, v) => ok(T::Optional(v.clone())),
            T::Optional(inner) => match &**inner {
                T::Map(_, v) => ok(T::Optional(v.clone())),
                _ => ok(T::Optional(Box::new(T::Dyn))),
            },
            T::Device => ok(T::Optional(Box::new(T::Dyn))),
            _ => ok(T::Optional(Box::new(T::Dyn))),
        },
        (op::IN, None) if n == 2 => match a(1) {
            T::List(_) | T::Map(..) | T::Dyn => ok(T::Bool),
            _ => Sig::NoOverload,
        },
        // Standard library.
        ("size", None) if n == 1 => sized(a(0)),
        ("size", Some(t)) if n == 0 => sized(t),
        ("contains" | "startsWith" | "endsWith", Some(t)) if n == 1 => {
            if is(t, &T::String) && is(a(0), &T::String) {
                Sig::Ok(
                    T::Bool,
                    if name == "contains" {
                        Extra::Contains
                    } else {
                        Extra::Affix
                    },
                )
            } else {
                Sig::NoOverload
            }
        }
        ("matches", Some(t)) if n == 1 => {
            if is(t, &T::String) && is(a(0), &T::String) {
                Sig::Ok(T::Bool, Extra::Matches)
            } else {
                Sig::NoOverload
            }
        }
        ("int" | "uint" | "double" | "string" | "bytes" | "bool", None) if n == 1 => {
            ok(match name {
                "int" => T::Int,
                "uint" => T::Uint,
                "double" => T::Double,
                "string" => T::String,
                "bytes" => T::Bytes,
                _ => T::Bool,
            })
        }
        ("type", None) if n == 1 => ok(T::TypeT),
        ("dyn", None) if n == 1 => ok(T::Dyn),
        ("duration", None) if n == 1 => ok(T::Duration),
        ("getHours" | "getMinutes" | "getSeconds" | "getMilliseconds", Some(T::Duration))
            if n == 0 =>
        {
            ok(T::Int)
        }
        (
            "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek"
            | "getDayOfYear" | "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds",
            Some(T::Timestamp),
        ) if n <= 1 => ok(T::Int),
        ("timestamp", None) if n == 1 => ok(T::Timestamp),
        // ext Strings.
        ("charAt", Some(t)) if n == 1 && is(t, &T::String) => ok(T::String),
        ("indexOf" | "lastIndexOf", Some(T::String)) if (1..=2).contains(&n) => {
            Sig::Ok(T::Int, Extra::Strings)
        }
        ("lowerAscii" | "upperAscii" | "trim", Some(t)) if n == 0 && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("replace", Some(t)) if (2..=3).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("split", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::List(Box::new(T::String)), Extra::Strings)
        }
        ("substring", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("join", Some(t)) if n <= 1 && matches!(t, T::List(_) | T::Dyn) => {
            Sig::Ok(T::String, Extra::Strings)
        }
        ("format", Some(t)) if n == 1 && is(t, &T::String) => ok(T::String),
        ("quote", Some(T::Dyn)) if n == 1 => ok(T::String),
        // Kubernetes regex.
        ("find", Some(t)) if n == 1 && is(t, &T::String) => Sig::Ok(T::String, Extra::Strings),
        ("findAll", Some(t)) if (1..=2).contains(&n) && is(t, &T::String) => {
            Sig::Ok(T::List(Box::new(T::String)), Extra::Strings)
        }
        // ext.Lists (version 3) joins the base environment in 1.34, so a new
        // expression sees it from Kubernetes 1.35 (compatibility version
        // n-1; apiserver/pkg/cel/environment/base.go).
        ("slice" | "flatten" | "distinct" | "sort", Some(T::List(_) | T::Dyn))
        | ("reverse", Some(T::List(_)))
            if !env.ext_lists =>
        {
            Sig::Gated(format!(
                "undeclared reference to '{name}' (in container '')"
            ))
        }
        ("range", Some(T::Dyn)) if n == 1 && !env.ext_lists => {
            Sig::Gated("undeclared reference to 'lists' (in container '')".into())
        }
        // Kubernetes lists and ext lists.
        ("isSorted", Some(T::List(_) | T::Dyn)) if n == 0 => ok(T::Bool),
        ("sum" | "min" | "max", Some(T::List(e))) if n == 0 => ok((**e).clone()),
        ("sum" | "min" | "max", Some(T::Dyn)) if n == 0 => ok(T::Dyn),
        ("indexOf" | "lastIndexOf", Some(T::List(_) | T::Dyn)) if n == 1 => ok(T::Int),
        ("slice", Some(T::List(e))) if n == 2 => ok(T::List(e.clone())),
        ("flatten", Some(T::List(_) | T::Dyn)) if n <= 1 => ok(T::List(Box::new(T::Dyn))),
        ("distinct" | "sort" | "reverse", Some(T::List(e))) if n == 0 => ok(T::List(e.clone())),
        ("reverse", Some(T::String)) if n == 0 => ok(T::String),
        ("reverse", Some(T::Dyn)) if n == 0 => ok(T::Dyn),
        ("first" | "last", Some(T::List(e))) if n == 0 => ok(T::Optional(e.clone())),
        ("range", Some(T::Dyn)) if n == 1 => ok(T::List(Box::new(T::Int))),
        // ext Sets.
        ("contains" | "equivalent" | "intersects", Some(T::Dyn))
            if n == 2 && is_namespace_call(target) =>
        {
            ok(T::Bool)
        }
        // Kubernetes quantity.
        ("quantity", None) if n == 1 => typed(is(a(0), &T::String), T::Quantity),
        ("isQuantity", None) if n == 1 => typed(is(a(0), &T::String), T::Bool),
        ("isGreaterThan" | "isLessThan", Some(T::Quantity)) if n == 1 => {
            typed(is(a(0), &T::Quantity), T::Bool)
        }
        ("compareTo", Some(T::Quantity)) if n == 1 => typed(is(a(0), &T::Quantity), T::Int),
        ("add" | "sub", Some(T::Quantity)) if n == 1 => {
            typed(matches!(a(0), T::Quantity | T::Int | T::Dyn), T::Quantity)
        }
        ("asInteger", Some(T::Quantity)) if n == 0 => ok(T::Int),
        // sign is a global function of the quantity library, not a method.
        ("sign", None) if n == 1 => typed(is(a(0), &T::Quantity), T::Int),
        ("isInteger", Some(T::Quantity)) if n == 0 => ok(T::Bool),
        ("asApproximateFloat", Some(T::Quantity)) if n == 0 => ok(T::Double),
        // Kubernetes semver.
        ("semver", None) if (1..=2).contains(&n) => typed(
            is(a(0), &T::String) && (n == 1 || is(a(1), &T::Bool)),
            T::Semver,
        ),
        ("isSemver", None) if (1..=2).contains(&n) => typed(is(a(0), &T::String), T::Bool),
        ("isGreaterThan" | "isLessThan", Some(T::Semver)) if n == 1 => {
            typed(is(a(0), &T::Semver), T::Bool)
        }
        ("compareTo", Some(T::Semver)) if n == 1 => typed(is(a(0), &T::Semver), T::Int),
        ("major" | "minor" | "patch", Some(T::Semver)) if n == 0 => ok(T::Int),
        // Either, on an attribute of unknown type.
        ("isGreaterThan" | "isLessThan", Some(T::Dyn)) if n == 1 => ok(T::Bool),
        ("compareTo", Some(T::Dyn)) if n == 1 => ok(T::Int),
        ("add" | "sub", Some(T::Dyn)) if n == 1 => ok(T::Dyn),
        ("asInteger" | "major" | "minor" | "patch", Some(T::Dyn)) if n == 0 => ok(T::Int),
        ("isInteger", Some(T::Dyn)) if n == 0 => ok(T::Bool),
        ("asApproximateFloat", Some(T::Dyn)) if n == 0 => ok(T::Double),
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
        // Kubernetes URL (declared; see evaluation).
        ("url", None) if n == 1 => ok(T::Url),
        ("isURL", None) if n == 1 => ok(T::Bool),
        ("getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath", Some(T::Url))
            if n == 0 =>
        {
            ok(T::String)
        }
        ("getQuery", Some(T::Url)) if n == 0 => ok(T::Dyn),
        // Kubernetes format.
        ("named", Some(T::Dyn)) if n == 1 => ok(T::Optional(Box::new(T::Format))),
        (
            "dns1123Label"
            | "dns1123Subdomain"
            | "dns1035Label"
            | "qualifiedName"
            | "dns1123LabelPrefix"
            | "dns1123SubdomainPrefix"
            | "dns1035LabelPrefix"
            | "labelValue"
            | "uri"
            | "uuid"
            | "byte"
            | "date"
            | "datetime",
            Some(T::Dyn),
        ) if n == 0 => ok(T::Format),
        ("validate", Some(T::Format)) if n == 1 => {
            ok(T::Optional(Box::new(T::List(Box::new(T::String)))))
        }
        // Optionals.
        ("of" | "ofNonZeroValue", Some(T::Dyn)) if n == 1 => {
            ok(T::Optional(Box::new(a(0).clone())))
        }
        ("none", Some(T::Dyn)) if n == 0 => ok(T::Optional(Box::new(T::Dyn))),
        ("hasValue", Some(T::Optional(_) | T::Dyn)) if n == 0 => ok(T::Bool),
        ("value", Some(T::Optional(t))) if n == 0 => ok((**t).clone()),
        ("orValue", Some(T::Optional(t))) if n == 1 => {
            ok(if **t == *a(0) { (**t).clone() } else { T::Dyn })
        }
        ("value" | "orValue", Some(T::Dyn)) => ok(T::Dyn),
        ("or", Some(T::Optional(t))) if n == 1 => ok(T::Optional(t.clone())),
        // List-type attributes (DRAListTypeAttributes): a list attribute, or
        // a scalar one read as a one-element list, includes a value.
        ("includes", Some(_)) if n == 1 && env.list_type_attributes => ok(T::Bool),
        ("includes", _) => {
            Sig::Gated("undeclared reference to 'includes' (in container '')".into())
        }
        _ => {
            if is_declared(name) {
                let _ = env;
                Sig::NoOverload
            } else {
                Sig::Undeclared
            }
        }
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
    /// every device.
    static REGEXES: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

fn regex(pattern: &str) -> Result<regex::Regex, String> {
    if let Some(re) = REGEXES.with(|c| c.borrow().get(pattern).cloned()) {
        return Ok(re);
    }
    let re = regex::Regex::new(pattern)
        // Go's regexp text: "error parsing regexp: ..." (the reason is the Rust
        // engine's wording).
        .map_err(|e| format!("error parsing regexp: {e} in {pattern:?}"))?;
    REGEXES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 256 {
            c.clear();
        }
        c.insert(pattern.to_owned(), re.clone());
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
    let n = args.len();
    let a = |i: usize| &args[i];
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
    // Quantity and semver methods first: selectors call them on every device.
    match (name, target) {
        // Quantity.
        ("quantity", None) if n == 1 => Quantity::parse(str_arg(a(0), name)?)
            .map(Value::Quantity)
            .map_err(|e| e.to_string()),
        ("isQuantity", None) if n == 1 => {
            Ok(Value::Bool(Quantity::parse(str_arg(a(0), name)?).is_ok()))
        }
        ("isGreaterThan" | "isLessThan" | "compareTo", Some(Value::Quantity(q))) if n == 1 => {
            match a(0) {
                Value::Quantity(o) => Ok(match name {
                    "isGreaterThan" => Value::Bool(q > o),
                    "isLessThan" => Value::Bool(q < o),
                    _ => Value::Int(q.cmp(o) as i64),
                }),
                _ => Err(err()),
            }
        }
        ("add" | "sub", Some(Value::Quantity(q))) if n == 1 => {
            let o = match a(0) {
                Value::Quantity(o) => *o,
                Value::Int(i) => Quantity::from_int(*i),
                _ => return Err(err()),
            };
            let r = if name == "add" {
                q.checked_add(&o)
            } else {
                q.checked_sub(&o)
            };
            r.map(Value::Quantity)
                .ok_or_else(|| "quantity overflow".into())
        }
        ("asInteger", Some(Value::Quantity(q))) if n == 0 => {
            if q.is_fractional()
                || q.value() > i128::from(i64::MAX)
                || q.value() < i128::from(i64::MIN)
            {
                Err("cannot convert value to integer".into())
            } else {
                Ok(Value::Int(q.value() as i64))
            }
        }
        ("isInteger", Some(Value::Quantity(q))) if n == 0 => Ok(Value::Bool(
            !q.is_fractional()
                && q.value() <= i128::from(i64::MAX)
                && q.value() >= i128::from(i64::MIN),
        )),
        ("asApproximateFloat", Some(Value::Quantity(q))) if n == 0 => Ok(Value::Double(q.to_f64())),
        ("sign", None) if n == 1 => match a(0) {
            Value::Quantity(q) => Ok(Value::Int(if q.is_zero() {
                0
            } else if q.is_negative() {
                -1
            } else {
                1
            })),
            _ => Err(err()),
        },
        // Semver.
        ("semver", None) if (1..=2).contains(&n) => {
            let s = str_arg(a(0), name)?;
            let normalize = n == 2 && matches!(a(1), Value::Bool(true));
            let parsed = if normalize {
                Semver::parse_normalized(s)
            } else {
                Semver::parse(s)
            };
            parsed.map(|v| Value::Semver(Arc::new(v)))
        }
        ("isSemver", None) if (1..=2).contains(&n) => {
            let s = str_arg(a(0), name)?;
            let normalize = n == 2 && matches!(a(1), Value::Bool(true));
            Ok(Value::Bool(if normalize {
                Semver::parse_normalized(s).is_ok()
            } else {
                Semver::parse(s).is_ok()
            }))
        }
        ("isGreaterThan" | "isLessThan" | "compareTo", Some(Value::Semver(v))) if n == 1 => {
            match a(0) {
                Value::Semver(o) => Ok(match name {
                    "isGreaterThan" => Value::Bool(**v > **o),
                    "isLessThan" => Value::Bool(**v < **o),
                    _ => Value::Int(v.cmp(o) as i64),
                }),
                _ => Err(err()),
            }
        }
        ("major", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.major as i64)),
        ("minor", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.minor as i64)),
        ("patch", Some(Value::Semver(v))) if n == 0 => Ok(Value::Int(v.patch as i64)),
        ("size", None) if n == 1 => size(a(0)).ok_or_else(err),
        ("size", Some(t)) if n == 0 => size(t).ok_or_else(err),
        ("contains", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.contains(str_arg(a(0), name)?)))
        }
        ("startsWith", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.starts_with(str_arg(a(0), name)?)))
        }
        ("endsWith", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(s.ends_with(str_arg(a(0), name)?)))
        }
        ("matches", Some(Value::String(s))) if n == 1 => {
            Ok(Value::Bool(regex(str_arg(a(0), name)?)?.is_match(s)))
        }
        ("int", None) if n == 1 => match a(0) {
            Value::Int(i) => Ok(Value::Int(*i)),
            Value::Uint(u) => i64::try_from(*u)
                .map(Value::Int)
                .map_err(|_| "int overflow".into()),
            Value::Double(d) if d.is_finite() && *d > -9.3e18 && *d < 9.3e18 => {
                Ok(Value::Int(*d as i64))
            }
            Value::String(s) => s
                .parse()
                .map(Value::Int)
                .map_err(|_| format!("cannot convert {s:?} to int")),
            _ => Err(err()),
        },
        ("uint", None) if n == 1 => match a(0) {
            Value::Uint(u) => Ok(Value::Uint(*u)),
            Value::Int(i) => u64::try_from(*i)
                .map(Value::Uint)
                .map_err(|_| "uint overflow".into()),
            Value::Double(d) if *d >= 0.0 && *d < 1.8e19 => Ok(Value::Uint(*d as u64)),
            Value::String(s) => s
                .parse()
                .map(Value::Uint)
                .map_err(|_| format!("cannot convert {s:?} to uint")),
            _ => Err(err()),
        },
        ("double", None) if n == 1 => match a(0) {
            Value::Double(d) => Ok(Value::Double(*d)),
            Value::Int(i) => Ok(Value::Double(*i as f64)),
            Value::Uint(u) => Ok(Value::Double(*u as f64)),
            Value::String(s) => s
                .parse()
                .map(Value::Double)
                .map_err(|_| format!("cannot convert {s:?} to double")),
            _ => Err(err()),
        },
        ("string", None) if n == 1 => Ok(Value::string(&match a(0) {
            Value::String(s) => s.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Uint(u) => u.to_string(),
            Value::Double(d) => d.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            Value::Quantity(q) => q.to_string(),
            Value::Semver(s) => s.to_string(),
            Value::Ip(ip) => ip.to_string(),
            Value::Cidr(ip, p) => format!("{ip}/{p}"),
            Value::Url(u) => u.text.clone(),
            Value::Duration(d) => super::time::format_duration(*d),
            Value::Timestamp(t) => super::time::format_timestamp(*t),
            _ => return Err(err()),
        })),
        ("bool", None) if n == 1 => match a(0) {
            Value::Bool(b) => Ok(Value::Bool(*b)),
            Value::String(s) => match &**s {
                "true" | "True" | "TRUE" | "t" | "1" => Ok(Value::Bool(true)),
                "false" | "False" | "FALSE" | "f" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("cannot convert {s:?} to bool")),
            },
            _ => Err(err()),
        },
        ("bytes", None) if n == 1 => match a(0) {
            Value::String(s) => Ok(Value::Bytes(s.as_bytes().into())),
            Value::Bytes(b) => Ok(Value::Bytes(b.clone())),
            _ => Err(err()),
        },
        ("dyn", None) if n == 1 => Ok(a(0).clone()),
        ("type", None) if n == 1 => Ok(Value::Type(a(0).type_name())),
        // ext Strings.
        ("charAt", Some(Value::String(s))) if n == 1 => {
            let i = int_arg(a(0), name)?;
            let chars: Vec<char> = s.chars().collect();
            match usize::try_from(i) {
                Ok(i) if i < chars.len() => Ok(Value::string(&chars[i].to_string())),
                Ok(i) if i == chars.len() => Ok(Value::string("")),
                _ => Err(format!("index out of range: {i}")),
            }
        }
        ("indexOf", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sub = str_arg(a(0), name)?;
            let from = if n == 2 { int_arg(a(1), name)? } else { 0 };
            let chars: Vec<char> = s.chars().collect();
            let from = usize::try_from(from).map_err(|_| format!("index out of range: {from}"))?;
            if from > chars.len() {
                return Err(format!("index out of range: {from}"));
            }
            let hay: String = chars[from..].iter().collect();
            Ok(Value::Int(
                hay.find(sub)
                    .map_or(-1, |b| (from + hay[..b].chars().count()) as i64),
            ))
        }
        ("lastIndexOf", Some(Value::String(s))) if n == 1 => {
            let sub = str_arg(a(0), name)?;
            Ok(Value::Int(
                s.rfind(sub).map_or(-1, |b| s[..b].chars().count() as i64),
            ))
        }
        ("lowerAscii", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.to_ascii_lowercase()))
        }
        ("upperAscii", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.to_ascii_uppercase()))
        }
        ("trim", Some(Value::String(s))) if n == 0 => Ok(Value::string(s.trim())),
        ("replace", Some(Value::String(s))) if (2..=3).contains(&n) => {
            let (from, to) = (str_arg(a(0), name)?, str_arg(a(1), name)?);
            let limit = if n == 3 { int_arg(a(2), name)? } else { -1 };
            Ok(Value::string(&if limit < 0 {
                s.replace(from, to)
            } else {
                s.replacen(from, to, limit as usize)
            }))
        }
        ("split", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let sep = str_arg(a(0), name)?;
            let limit = if n == 2 { int_arg(a(1), name)? } else { -1 };
            let parts: Vec<Value> = match limit {
                0 => Vec::new(),
                l if l < 0 => s.split(sep).map(Value::string).collect(),
                l => s.splitn(l as usize, sep).map(Value::string).collect(),
            };
            Ok(list(parts))
        }
        ("substring", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let chars: Vec<char> = s.chars().collect();
            let start = int_arg(a(0), name)?;
            let end = if n == 2 {
                int_arg(a(1), name)?
            } else {
                chars.len() as i64
            };
            if start < 0 || end < start || end as usize > chars.len() {
                return Err(format!("index out of range: {start}..{end}"));
            }
            Ok(Value::string(
                &chars[start as usize..end as usize]
                    .iter()
                    .collect::<String>(),
            ))
        }
        ("join", Some(Value::List(l))) if n <= 1 => {
            let sep = if n == 1 { str_arg(a(0), name)? } else { "" };
            let parts: Result<Vec<&str>, String> = l.iter().map(|v| str_arg(v, name)).collect();
            Ok(Value::string(&parts?.join(sep)))
        }
        // Kubernetes regex.
        ("find", Some(Value::String(s))) if n == 1 => {
            let re = regex(str_arg(a(0), name)?)?;
            Ok(Value::string(re.find(s).map_or("", |m| m.as_str())))
        }
        ("findAll", Some(Value::String(s))) if (1..=2).contains(&n) => {
            let re = regex(str_arg(a(0), name)?)?;
            let limit = if n == 2 { int_arg(a(1), name)? } else { -1 };
            let it = re.find_iter(s).map(|m| Value::string(m.as_str()));
            Ok(list(if limit < 0 {
                it.collect()
            } else {
                it.take(limit as usize).collect()
            }))
        }
        // Kubernetes lists.
        ("isSorted", Some(Value::List(l))) if n == 0 => {
            let mut sorted = true;
            for w in l.windows(2) {
                match compare(&w[0], &w[1]) {
                    Some(std::cmp::Ordering::Greater) => sorted = false,
                    Some(_) => {}
                    None => return Err(err()),
                }
            }
            Ok(Value::Bool(sorted))
        }
        ("sum", Some(Value::List(l))) if n == 0 => {
            let mut acc = Value::Int(0);
            for (i, v) in l.iter().enumerate() {
                acc = if i == 0 {
                    v.clone()
                } else {
                    arith(op::ADD, &acc, v)?
                };
            }
            Ok(acc)
        }
        ("min" | "max", Some(Value::List(l))) if n == 0 => {
            let mut best: Option<&Value> = None;
            for v in l.iter() {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = compare(v, b).ok_or_else(err)?;
                        if (name == "min" && o.is_lt()) || (name == "max" && o.is_gt()) {
                            v
                        } else {
                            b
                        }
                    }
                });
            }
            best.cloned()
                .ok_or_else(|| format!("{name}() of an empty list"))
        }
        ("indexOf" | "lastIndexOf", Some(Value::List(l))) if n == 1 => {
            let pos = |v: &&Value| equals(v, a(0)) == Some(true);
            let i = if name == "indexOf" {
                l.iter().position(|v| pos(&v))
            } else {
                l.iter().rposition(|v| pos(&v))
            };
            Ok(Value::Int(i.map_or(-1, |i| i as i64)))
        }
        ("slice", Some(Value::List(l))) if n == 2 => {
            let (s, e) = (int_arg(a(0), name)?, int_arg(a(1), name)?);
            if s < 0 || e < s || e as usize > l.len() {
                return Err(format!(
                    "cannot slice({s}, {e}), list is length {}",
                    l.len()
                ));
            }
            Ok(list(l[s as usize..e as usize].to_vec()))
        }
        ("flatten", Some(Value::List(l))) if n == 0 => {
            let mut out = Vec::new();
            for v in l.iter() {
                match v {
                    Value::List(inner) => out.extend(inner.iter().cloned()),
                    other => out.push(other.clone()),
                }
            }
            Ok(list(out))
        }
        ("distinct", Some(Value::List(l))) if n == 0 => {
            let mut out: Vec<Value> = Vec::new();
            for v in l.iter() {
                if !out.iter().any(|o| equals(o, v) == Some(true)) {
                    out.push(v.clone());
                }
            }
            Ok(list(out))
        }
        ("sort", Some(Value::List(l))) if n == 0 => {
            let mut out = l.to_vec();
            out.sort_by(|x, y| compare(x, y).unwrap_or(std::cmp::Ordering::Equal));
            Ok(list(out))
        }
        ("reverse", Some(Value::List(l))) if n == 0 => Ok(list(l.iter().rev().cloned().collect())),
        ("reverse", Some(Value::String(s))) if n == 0 => {
            Ok(Value::string(&s.chars().rev().collect::<String>()))
        }
        ("includes", Some(Value::List(l))) if n == 1 => {
            Ok(Value::Bool(l.iter().any(|v| equals(v, a(0)) == Some(true))))
        }
        ("includes", Some(v)) if n == 1 => Ok(Value::Bool(equals(v, a(0)) == Some(true))),
        ("format", Some(Value::String(s))) if n == 1 => match a(0) {
            Value::List(args) => super::strings_format::format(s, args).map(|t| Value::string(&t)),
            _ => Err(err()),
        },
        ("first" | "last", Some(Value::List(l))) if n == 0 => {
            let v = if name == "first" { l.first() } else { l.last() };
            Ok(Value::Optional(v.map(|v| Box::new(v.clone()))))
        }
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
        ("validate", Some(Value::Format(f))) if n == 1 => {
            let s = str_arg(a(0), name)?;
            let ok = match *f {
                "dns1123Label" => crate::format::is_dns_label(s),
                "dns1123Subdomain" => crate::format::is_dns_subdomain(s),
                "qualifiedName" => crate::format::is_label_key(s),
                "labelValue" => crate::format::is_label_value(s),
                "uuid" => {
                    s.len() == 36
                        && s.chars().enumerate().all(|(i, c)| {
                            if [8, 13, 18, 23].contains(&i) {
                                c == '-'
                            } else {
                                c.is_ascii_hexdigit()
                            }
                        })
                }
                "dns1035Label" => is_dns1035_label(s),
                // Prefixes get a suffix appended later: a trailing '-' is fine
                // (apimachinery's maskTrailingDash).
                "dns1123LabelPrefix" => crate::format::is_dns_label(&mask_trailing_dash(s)),
                "dns1123SubdomainPrefix" => crate::format::is_dns_subdomain(&mask_trailing_dash(s)),
                "dns1035LabelPrefix" => is_dns1035_label(&mask_trailing_dash(s)),
                "uri" => super::time::parse_url(s).is_ok(),
                "byte" => is_base64(s),
                "date" => {
                    s.len() == 10 && super::time::parse_timestamp(&format!("{s}T00:00:00Z")).is_ok()
                }
                "datetime" => super::time::parse_timestamp(s).is_ok(),
                other => return Err(format!("format.{other}() is not supported by kubectl-dra")),
            };
            Ok(Value::Optional((!ok).then(|| {
                Box::new(list(vec![Value::string(&format!("invalid {f}"))]))
            })))
        }
        ("hasValue", Some(Value::Optional(o))) if n == 0 => Ok(Value::Bool(o.is_some())),
        ("value", Some(Value::Optional(o))) if n == 0 => o
            .as_deref()
            .cloned()
            .ok_or_else(|| "optional.none() dereference".into()),
        ("orValue", Some(Value::Optional(o))) if n == 1 => {
            Ok(o.as_deref().cloned().unwrap_or_else(|| a(0).clone()))
        }
        ("or", Some(Value::Optional(o))) if n == 1 => Ok(if o.is_some() {
            Value::Optional(o.clone())
        } else {
            a(0).clone()
        }),
        ("url", None) if n == 1 => super::time::parse_url(str_arg(a(0), name)?).map(Value::Url),
        ("isURL", None) if n == 1 => Ok(Value::Bool(
            super::time::parse_url(str_arg(a(0), name)?).is_ok(),
        )),
        ("getScheme", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.scheme)),
        ("getHost", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.host)),
        ("getHostname", Some(Value::Url(u))) if n == 0 => Ok(Value::string(u.hostname())),
        ("getPort", Some(Value::Url(u))) if n == 0 => Ok(Value::string(u.port())),
        ("getEscapedPath", Some(Value::Url(u))) if n == 0 => Ok(Value::string(&u.escaped_path)),
        ("getQuery", Some(Value::Url(u))) if n == 0 => Ok(Value::Map(Arc::new(MapValue {
            entries: u
                .query()
                .into_iter()
                .map(|(k, vs)| {
                    (
                        Value::string(&k),
                        list(vs.iter().map(|v| Value::string(v)).collect()),
                    )
                })
                .collect(),
        }))),
        ("duration", None) if n == 1 => match a(0) {
            Value::Duration(d) => Ok(Value::Duration(*d)),
            other => super::time::parse_duration(str_arg(other, name)?).map(Value::Duration),
        },
        ("timestamp", None) if n == 1 => match a(0) {
            Value::Timestamp(t) => Ok(Value::Timestamp(*t)),
            Value::Int(secs) => Ok(Value::Timestamp(i128::from(*secs) * 1_000_000_000)),
            other => super::time::parse_timestamp(str_arg(other, name)?).map(Value::Timestamp),
        },
        (_, Some(Value::Duration(d))) if n == 0 => super::time::duration_part(*d, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t))) if n == 0 => super::time::timestamp_part(*t, name)
            .map(Value::Int)
            .ok_or_else(err),
        (_, Some(Value::Timestamp(t))) if n == 1 => {
            let offset = super::time::zone_offset(*t, str_arg(a(0), name)?)?;
            super::time::timestamp_part(*t + i128::from(offset) * 1_000_000_000, name)
                .map(Value::Int)
                .ok_or_else(err)
        }
        _ => Err(err()),
    }
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
        ("lists", "range") if n == 1 => match &args[0] {
            Value::Int(k) if *k >= 0 => Ok(list((0..*k).map(Value::Int).collect())),
            other => Err(no_overload("lists.range", &[other])),
        },
        ("strings", "quote") if n == 1 => match &args[0] {
            Value::String(s) => Ok(Value::string(&format!("{s:?}"))),
            other => Err(no_overload("strings.quote", &[other])),
        },
        ("ip", "isCanonical") if n == 1 => match &args[0] {
            Value::String(s) => Ok(Value::Bool(
                parse_ip(s).is_ok_and(|ip| ip.to_string() == **s),
            )),
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

fn parse_ip(s: &str) -> Result<std::net::IpAddr, String> {
    if s.contains('%') {
        return Err(format!("IP address with zone value is not allowed: {s}"));
    }
    s.parse()
        .map_err(|_| format!("IP Address {s:?} parse error during conversion from string"))
}

fn parse_cidr(s: &str) -> Result<(std::net::IpAddr, u8), String> {
    let (ip, p) = s
        .split_once('/')
        .ok_or_else(|| format!("network address parse error during conversion from string: {s}"))?;
    // k8s cidr(): any failure of netip.ParsePrefix is a network address error.
    let ip = parse_ip(ip)
        .map_err(|_| format!("network address parse error during conversion from string: {s}"))?;
    let p: u8 = p
        .parse()
        .map_err(|_| format!("network address parse error during conversion from string: {s}"))?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    if p > max {
        return Err(format!(
            "network address parse error during conversion from string: {s}"
        ));
    }
    Ok((ip, p))
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
pub(crate) fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Duration(x), Value::Duration(y)) | (Value::Timestamp(x), Value::Timestamp(y)) => {
            Some(x.cmp(y))
        }
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
        (op::ADD, Timestamp(t), Duration(d)) | (op::ADD, Duration(d), Timestamp(t)) => {
            Timestamp(t + d)
        }
        (op::SUBSTRACT, Timestamp(t), Duration(d)) => Timestamp(t - d),
        (op::SUBSTRACT, Timestamp(x), Timestamp(y)) => duration(x - y)?,
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

/// RFC 1035 label: a lower-case letter, then letters, digits or '-', ending
/// alphanumeric, at most 63 characters.
fn is_dns1035_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_lowercase()
        && b[b.len() - 1] != b'-'
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn mask_trailing_dash(s: &str) -> String {
    match s.strip_suffix('-') {
        Some(head) if !head.is_empty() => format!("{head}a"),
        _ => s.to_owned(),
    }
}

/// Standard base64 with padding, as Go's `base64.StdEncoding.DecodeString` accepts it.
fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    pad <= 2
        && b[..b.len() - pad]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
}

fn duration(n: i128) -> R {
    if n.abs() > super::time::MAX_DURATION_NANOS {
        return Err("duration out of range".into());
    }
    Ok(Value::Duration(n))
}

/// `_[_]` on lists and maps. Unknown device domains read as an empty map.
pub(crate) fn index(container: &Value, key: &Value) -> R {
    match container {
        Value::List(l) => {
            let i = match key {
                Value::Int(i) => *i,
                Value::Uint(u) => i64::try_from(*u).unwrap_or(i64::MAX),
                Value::Double(d) if d.fract() == 0.0 => *d as i64,
                other => return Err(no_overload(op::INDEX, &[container, other])),
            };
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

pub(crate) fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}
