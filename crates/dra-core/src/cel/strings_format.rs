//! `string.format(list)` of cel-go's ext strings library as Kubernetes
//! declares it (`ext.Strings(ext.StringsVersion(2))`, so cel-go v0.27.0's
//! `ext/formatting.go`, not `formatting_v2.go`): the clauses
//! `%s %d %f %e %b %o %x %X %%`, the errors in its words and order, and the
//! static check its validator runs on a literal format over a literal list.

use super::go_fmt;
use super::types::Type;
use super::value::Value;

/// A formatting clause after `%` (its precision matters only to `%f`).
#[derive(Clone, Copy)]
enum Clause {
    String,
    Decimal,
    Fixed(Option<usize>),
    Scientific,
    Binary,
    Hex(bool),
    Octal,
}

/// The largest `%f` precision kubectl-dra formats (Go has none: a precision
/// of millions would build a string that long for every device).
const MAX_PRECISION: usize = 1000;

/// `parseFormatString`: walks `text`, handing each clause with its argument
/// index to `each`. At run time (`runtime`) a missing argument is found
/// before the end of the string is (cel-go's `stringArgList.Arg`); the static
/// checker's `Arg` never fails, so there the end of the string comes first.
fn walk(
    text: &str,
    n_args: usize,
    runtime: bool,
    mut each: impl FnMut(usize, Clause) -> Result<String, String>,
) -> Result<(String, usize), String> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let (mut i, mut arg) = (0usize, 0usize);
    while i < b.len() {
        if b[i] != b'%' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        if runtime && arg >= n_args {
            return Err(format!("index {arg} out of range"));
        }
        if i + 1 >= b.len() {
            return Err("unexpected end of string".into());
        }
        if arg >= n_args {
            return Err(format!("index {arg} out of range"));
        }
        let (read, clause) = parse_clause(&b[i + 1..])
            .map_err(|e| format!("could not parse formatting clause: {e}"))?;
        let text = each(arg, clause).map_err(|e| format!("error during formatting: {e}"))?;
        out.extend_from_slice(text.as_bytes());
        i += 1 + read;
        arg += 1;
    }
    Ok((String::from_utf8_lossy(&out).into_owned(), arg))
}

/// `parseFormattingClause`: an optional `.precision`, then the verb (one
/// byte, as cel-go reads it).
fn parse_clause(rest: &[u8]) -> Result<(usize, Clause), String> {
    let mut i = 0;
    let mut precision = None;
    if rest[0] == b'.' {
        i = 1;
        loop {
            if i >= rest.len() {
                return Err(
                    "error while parsing precision: could not find end of precision specifier"
                        .into(),
                );
            }
            if !rest[i].is_ascii_digit() {
                break;
            }
            i += 1;
        }
        let digits = std::str::from_utf8(&rest[1..i]).unwrap_or("");
        precision = Some(atoi(digits).map_err(|e| {
            format!(
                "error while parsing precision: error while converting precision to integer: {e}"
            )
        })?);
    }
    let verb = rest[i];
    let clause = match verb {
        b's' => Clause::String,
        b'd' => Clause::Decimal,
        b'f' => Clause::Fixed(precision),
        b'e' => Clause::Scientific,
        b'b' => Clause::Binary,
        b'x' => Clause::Hex(false),
        b'X' => Clause::Hex(true),
        b'o' => Clause::Octal,
        other => {
            return Err(format!(
                "unrecognized formatting clause \"{}\"",
                char::from(other)
            ))
        }
    };
    Ok((i + 1, clause))
}

/// `strconv.Atoi` on digits, with its two errors.
fn atoi(digits: &str) -> Result<usize, String> {
    if digits.is_empty() {
        return Err(format!("strconv.Atoi: parsing {digits:?}: invalid syntax"));
    }
    match digits.parse::<i64>() {
        Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Err(_) => Err(format!(
            "strconv.Atoi: parsing {digits:?}: value out of range"
        )),
    }
}

/// Formats `text` with `args`, as cel-go's `format` does at run time.
pub(crate) fn format(text: &str, args: &[Value]) -> Result<String, String> {
    walk(text, args.len(), true, |i, clause| run(clause, &args[i])).map(|(s, _)| s)
}

fn run(clause: Clause, arg: &Value) -> Result<String, String> {
    let was = arg.type_name();
    match clause {
        Clause::String => format_string(arg),
        Clause::Decimal => decimal(arg)
            .ok_or_else(|| format!("decimal clause can only be used on integers, was given {was}")),
        Clause::Fixed(precision) => {
            let p = precision.unwrap_or(6);
            if p > MAX_PRECISION {
                return Err(format!(
                    "precision {p} is over kubectl-dra's limit of {MAX_PRECISION}"
                ));
            }
            float_or_special(arg)
                .map(|d| go_fmt::en_fixed(d, p))
                .ok_or_else(|| {
                    format!("fixed-point clause can only be used on doubles, was given {was}")
                })
        }
        Clause::Scientific => float_or_special(arg)
            .map(go_fmt::en_scientific)
            .ok_or_else(|| {
                format!("scientific clause can only be used on doubles, was given {was}")
            }),
        Clause::Binary => match arg {
            Value::Int(i) => Ok(go_radix(*i < 0, i.unsigned_abs(), 2)),
            Value::Uint(u) => Ok(go_radix(false, *u, 2)),
            Value::Bool(b) => Ok(if *b { "1" } else { "0" }.into()),
            _ => Err(format!(
                "only integers and bools can be formatted as binary, was given {was}"
            )),
        },
        Clause::Hex(upper) => {
            let s = match arg {
                Value::Int(i) => go_radix(*i < 0, i.unsigned_abs(), 16),
                Value::Uint(u) => go_radix(false, *u, 16),
                Value::String(s) => s.bytes().map(|b| format!("{b:02x}")).collect(),
                Value::Bytes(b) => b.iter().map(|b| format!("{b:02x}")).collect(),
                _ => {
                    return Err(format!(
                        "only integers, byte buffers, and strings can be formatted as hex, was given {was}"
                    ))
                }
            };
            Ok(if upper { s.to_uppercase() } else { s })
        }
        Clause::Octal => match arg {
            Value::Int(i) => Ok(go_radix(*i < 0, i.unsigned_abs(), 8)),
            Value::Uint(u) => Ok(go_radix(false, *u, 8)),
            _ => Err(format!(
                "octal clause can only be used on integers, was given {was}"
            )),
        },
    }
}

/// Go's `%b`, `%o`, `%x` of an integer: a sign, then the magnitude.
fn go_radix(negative: bool, magnitude: u64, radix: u32) -> String {
    let digits = match radix {
        2 => format!("{magnitude:b}"),
        8 => format!("{magnitude:o}"),
        _ => format!("{magnitude:x}"),
    };
    if negative {
        format!("-{digits}")
    } else {
        digits
    }
}

fn decimal(arg: &Value) -> Option<String> {
    match arg {
        Value::Int(i) => Some(i.to_string()),
        Value::Uint(u) => Some(u.to_string()),
        _ => None,
    }
}

/// `%f` and `%e` take doubles, and the strings `NaN`, `Infinity` and
/// `-Infinity` (converted to doubles).
fn float_or_special(arg: &Value) -> Option<f64> {
    match arg {
        Value::Double(d) => Some(*d),
        Value::String(s) => match &**s {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// `FormatString`: the `%s` form of a value.
fn format_string(arg: &Value) -> Result<String, String> {
    Ok(match arg {
        Value::List(items) => format_list(items)?,
        Value::Map(m) | Value::Domains(m) => format_map(&m.entries)?,
        Value::String(s) => s.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => go_fmt::g(*d),
        Value::Bool(b) => b.to_string(),
        Value::Timestamp(t, offset) => super::time::format_timestamp(*t, *offset),
        Value::Duration(d) => super::time::format_duration(*d),
        Value::Type(name) => (*name).to_owned(),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s.to_owned(),
            Err(_) => {
                return Err(
                    "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string"
                        .into(),
                )
            }
        },
        Value::Null => "null".into(),
        other => {
            return Err(format!(
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
                other.type_name()
            ))
        }
    })
}

/// `clauseForType` then `quoteForCEL`: a value inside a formatted list or
/// map, written as a CEL literal.
fn member(v: &Value) -> Result<String, String> {
    Ok(match v {
        Value::Int(_) | Value::Uint(_) => decimal(v).unwrap_or_default(),
        Value::String(_) => go_fmt::quote(&format_string(v)?),
        Value::Bytes(_) => format!("b{}", go_fmt::quote(&format_string(v)?)),
        Value::Bool(_) | Value::Null | Value::Type(_) => format_string(v)?,
        Value::Timestamp(t, offset) => format!(
            "timestamp({})",
            go_fmt::quote(&super::time::format_timestamp(*t, *offset))
        ),
        Value::Duration(d) => format!(
            "duration({})",
            go_fmt::quote(&super::time::format_duration(*d))
        ),
        Value::List(items) => format_list(items)?,
        Value::Map(m) | Value::Domains(m) => format_map(&m.entries)?,
        // fmt's "%.6f", not the locale's: the result stays a CEL literal.
        Value::Double(d) if d.is_nan() => go_fmt::quote("NaN"),
        Value::Double(d) if d.is_infinite() => {
            go_fmt::quote(if *d > 0.0 { "+Inf" } else { "-Inf" })
        }
        Value::Double(d) => format!("{d:.6}"),
        other => return Err(format!("no formatting function for {}", other.type_name())),
    })
}

fn format_list(items: &[Value]) -> Result<String, String> {
    let parts: Result<Vec<String>, String> = items.iter().map(member).collect();
    Ok(format!("[{}]", parts?.join(", ")))
}

/// `formatMap`: keys (strings and bools as `%s`, integers as `%d`) sorted
/// as written.
fn format_map(entries: &[(Value, Value)]) -> Result<String, String> {
    let mut pairs = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        let key = match k {
            Value::String(_) => go_fmt::quote(&format_string(k)?),
            Value::Bool(_) => format_string(k)?,
            Value::Int(_) | Value::Uint(_) => decimal(k).unwrap_or_default(),
            other => {
                return Err(format!(
                    "no formatting function for map key of type {}",
                    other.type_name()
                ))
            }
        };
        pairs.push((key, member(v)?));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let body: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
    Ok(format!("{{{}}}", body.join(", ")))
}

/// A literal list element as the static check sees it: its checked type,
/// and (for a list or map literal) its own elements, keys and values in
/// order.
pub(crate) struct StaticArg {
    pub ty: Type,
    pub children: Vec<StaticArg>,
}

/// The static check cel-go's format validator runs on a literal format
/// string over a literal list (`stringFormatChecker`): the string parses,
/// each clause's argument has a type it accepts (`dyn` passes every check),
/// and no argument is left over.
pub(crate) fn static_check(text: &str, args: &[StaticArg]) -> Result<(), String> {
    let (_, used) = walk(text, args.len(), false, |i, clause| {
        let arg = &args[i];
        let accepts: &[Kind] = match clause {
            Clause::String => return verify_string(arg).map(|_| String::new()),
            Clause::Decimal | Clause::Octal => &[Kind::Int, Kind::Uint],
            Clause::Fixed(_) | Clause::Scientific => &[Kind::Double, Kind::String],
            Clause::Binary => &[Kind::Int, Kind::Uint, Kind::Bool],
            Clause::Hex(_) => &[Kind::Int, Kind::Uint, Kind::String, Kind::Bytes],
        };
        if one_of(&arg.ty, accepts) {
            return Ok(String::new());
        }
        let what = match clause {
            Clause::Decimal => "decimal clause can only be used on integers",
            Clause::Octal => "octal clause can only be used on integers",
            Clause::Fixed(_) => "fixed-point clause can only be used on doubles",
            Clause::Scientific => "scientific clause can only be used on doubles",
            Clause::Binary => "only integers and bools can be formatted as binary",
            _ => "only integers, byte buffers, and strings can be formatted as hex",
        };
        Err(format!("{what}, was given {}", type_name(&arg.ty)))
    })?;
    if args.len() > used {
        return Err(format!(
            "too many arguments supplied to string.format (expected {used}, got {})",
            args.len()
        ));
    }
    Ok(())
}

/// `verifyString`: the argument's kind, then (for a literal list or map)
/// each element, key and value.
fn verify_string(arg: &StaticArg) -> Result<(), String> {
    use Kind::*;
    let kinds = [
        List, Map, Int, Uint, Double, Bool, String, Timestamp, Bytes, Duration, TypeT, Null,
    ];
    if !one_of(&arg.ty, &kinds) {
        return Err(format!(
            "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
            type_name(&arg.ty)
        ));
    }
    arg.children.iter().try_for_each(verify_string)
}

/// The kinds `verifyTypeOneOf` compares (parameters are not looked into).
#[derive(PartialEq, Eq, Clone, Copy)]
enum Kind {
    List,
    Map,
    Int,
    Uint,
    Double,
    Bool,
    String,
    Timestamp,
    Bytes,
    Duration,
    TypeT,
    Null,
}

fn one_of(ty: &Type, kinds: &[Kind]) -> bool {
    let kind = match ty {
        Type::Dyn | Type::Free => return true,
        Type::List(_) => Kind::List,
        Type::Map(..) => Kind::Map,
        Type::Int => Kind::Int,
        Type::Uint => Kind::Uint,
        Type::Double => Kind::Double,
        Type::Bool => Kind::Bool,
        Type::String => Kind::String,
        Type::Timestamp => Kind::Timestamp,
        Type::Bytes => Kind::Bytes,
        Type::Duration => Kind::Duration,
        Type::TypeT => Kind::TypeT,
        Type::Null => Kind::Null,
        _ => return false,
    };
    kinds.contains(&kind)
}

/// `Type.TypeName()` of a checked type, as the validator's errors name it:
/// the type's own name, without parameters, `any` as its proto name.
fn type_name(ty: &Type) -> String {
    match ty {
        Type::Any => "google.protobuf.Any".into(),
        Type::Error => "*error*".into(),
        Type::List(_) => "list".into(),
        Type::Map(..) => "map".into(),
        Type::Optional(_) => "optional_type".into(),
        other => other.name(),
    }
}

#[cfg(test)]
mod tests;
