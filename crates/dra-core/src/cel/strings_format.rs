//! `string.format(list)` of cel-go's ext strings library (ext/formatting.go):
//! its clauses `%s %d %f %e %b %o %x %X %%` with an optional precision, and
//! the static check that kube-apiserver's compile runs on literal formats.

use super::value::Value;

/// A piece of a format string: literal text, or a clause with its
/// optional precision.
enum Piece {
    Text(String),
    Clause(char, Option<usize>),
}

/// Splits a format string into text and clauses (`%%` is a literal `%`).
fn pieces(text: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            lit.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            lit.push('%');
            continue;
        }
        let mut precision = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            let p: usize = digits.parse().map_err(|_| {
                "error during formatting: unable to convert precision specifier to integer"
                    .to_owned()
            })?;
            // Bounded: a precision of millions would build a string of
            // that size per device (and Rust's formatter stops at 65,535).
            if p > MAX_PRECISION {
                return Err(format!(
                    "error during formatting: precision {p} is over kubectl-dra's limit of {MAX_PRECISION}"
                ));
            }
            precision = Some(p);
        }
        let verb = chars
            .next()
            .ok_or("error during formatting: unexpected end of string")?;
        out.push(Piece::Text(std::mem::take(&mut lit)));
        out.push(Piece::Clause(verb, precision));
    }
    out.push(Piece::Text(lit));
    Ok(out)
}

/// Formats `text` with `args`, as cel-go's `format` does at run time.
/// The largest precision a clause may ask for (see `pieces`).
const MAX_PRECISION: usize = 1000;

pub(crate) fn format(text: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut next = 0usize;
    for piece in pieces(text)? {
        match piece {
            Piece::Text(t) => out.push_str(&t),
            Piece::Clause(verb, precision) => {
                let arg = args
                    .get(next)
                    .ok_or_else(|| format!("error during formatting: index {next} out of range"))?;
                next += 1;
                out.push_str(&clause(verb, precision, arg)?);
            }
        }
    }
    Ok(out)
}

fn clause(verb: char, precision: Option<usize>, arg: &Value) -> Result<String, String> {
    let wrong = |what: &str| format!("error during formatting: {what}");
    Ok(match verb {
        's' => string_of(arg).ok_or_else(|| {
            wrong("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps")
        })?,
        'd' => match arg {
            Value::Int(i) => i.to_string(),
            Value::Uint(u) => u.to_string(),
            _ => return Err(wrong("decimal clause can only be used on integers")),
        },
        'f' | 'e' => {
            let d = match arg {
                Value::Double(d) => *d,
                Value::Int(i) => *i as f64,
                Value::Uint(u) => *u as f64,
                _ => {
                    return Err(wrong(if verb == 'f' {
                        "fixed-point clause can only be used on doubles"
                    } else {
                        "scientific clause can only be used on doubles"
                    }))
                }
            };
            let p = precision.unwrap_or(6);
            if verb == 'f' {
                format!("{d:.p$}")
            } else {
                scientific(d, p)
            }
        }
        'b' => match arg {
            Value::Int(i) => format!("{i:b}"),
            Value::Uint(u) => format!("{u:b}"),
            Value::Bool(b) => u8::from(*b).to_string(),
            _ => return Err(wrong("only integers and bools can be formatted as binary")),
        },
        'o' => match arg {
            Value::Int(i) => format!("{i:o}"),
            Value::Uint(u) => format!("{u:o}"),
            _ => return Err(wrong("octal clause can only be used on integers")),
        },
        'x' | 'X' => {
            let s = match arg {
                Value::Int(i) if *i < 0 => format!("-{:x}", i.unsigned_abs()),
                Value::Int(i) => format!("{i:x}"),
                Value::Uint(u) => format!("{u:x}"),
                Value::String(s) => s.bytes().map(|b| format!("{b:02x}")).collect(),
                Value::Bytes(b) => b.iter().map(|b| format!("{b:02x}")).collect(),
                _ => {
                    return Err(wrong(
                        "only integers, byte buffers, and strings can be formatted as hex",
                    ))
                }
            };
            if verb == 'X' {
                s.to_uppercase()
            } else {
                s
            }
        }
        other => {
            return Err(wrong(&format!(
                "could not parse formatting clause: unrecognized formatting clause \"{other}\""
            )))
        }
    })
}

/// Go's `%e`: one digit, the fraction, and a two-digit signed exponent.
fn scientific(d: f64, p: usize) -> String {
    let s = format!("{d:.p$e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(x) => ('-', x),
                None => ('+', e),
            };
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

fn string_of(v: &Value) -> Option<String> {
    Some(match v {
        Value::String(s) => s.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => d.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Value::Null => "null".to_owned(),
        Value::List(items) => {
            let parts: Option<Vec<String>> = items.iter().map(string_of).collect();
            format!("[{}]", parts?.join(", "))
        }
        _ => return None,
    })
}

/// The compile-time check of a literal format with a literal argument list
/// (cel-go's format validator, verifyTypeOneOf): a `%s` clause given a
/// value typed `any` (an attribute with DRAListTypeAttributes off) is
/// refused; `dyn` passes, as every type `%s` accepts.
pub(crate) fn static_check(text: &str, arg_is_any: &[bool]) -> Result<(), String> {
    // A format the run-time parse refuses is reported when it runs.
    let Ok(pieces) = pieces(text) else {
        return Ok(());
    };
    let verbs = pieces.iter().filter_map(|p| match p {
        Piece::Clause(verb, _) => Some(*verb),
        Piece::Text(_) => None,
    });
    for (verb, is_any) in verbs.zip(arg_is_any) {
        if verb == 's' && *is_any {
            return Err("error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given google.protobuf.Any".to_owned());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_precision_is_an_error_not_a_panic() {
        for p in ["1001", "99999", "99999999999", "99999999999999999999999"] {
            let e = format(&format!("%.{p}f"), &[Value::Double(1.0)]).unwrap_err();
            assert!(e.starts_with("error during formatting"), "{e}");
        }
        assert_eq!(format("%.3f", &[Value::Double(1.0)]).unwrap(), "1.000");
    }

    #[test]
    fn clauses_as_cel_go() {
        let f = |t: &str, a: Vec<Value>| format(t, &a);
        assert_eq!(f("%d devices", vec![Value::Int(2)]).unwrap(), "2 devices");
        assert_eq!(f("%.2f", vec![Value::Double(1.005)]).unwrap(), "1.00");
        assert_eq!(f("%x", vec![Value::Int(255)]).unwrap(), "ff");
        assert_eq!(f("%X", vec![Value::Int(255)]).unwrap(), "FF");
        assert_eq!(f("%b", vec![Value::Int(5)]).unwrap(), "101");
        assert_eq!(
            f("%e", vec![Value::Double(1234.5)]).unwrap(),
            "1.234500e+03"
        );
        assert_eq!(f("100%%", vec![]).unwrap(), "100%");
        assert!(f("%d", vec![Value::string("x")]).is_err());
        assert!(static_check("%s-x", &[true]).is_err());
        assert!(static_check("%d-x", &[true]).is_ok());
    }
}
