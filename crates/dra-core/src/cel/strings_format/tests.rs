//! Cases of cel-go v0.27.0 `ext/formatting_test.go` (`TestStringFormat`,
//! en_US), run through this implementation.

use super::*;
use std::sync::Arc;

fn f(text: &str, args: Vec<Value>) -> Result<String, String> {
    format(text, &args)
}

fn list(items: Vec<Value>) -> Value {
    Value::List(Arc::new(items))
}

fn map(entries: Vec<(Value, Value)>) -> Value {
    Value::Map(Arc::new(super::super::value::MapValue { entries }))
}

#[test]
fn clauses_as_cel_go_formats_them() {
    assert_eq!(f("%d devices", vec![Value::Int(2)]).unwrap(), "2 devices");
    assert_eq!(f("%.3f", vec![Value::Double(1.2345)]).unwrap(), "1.234");
    assert_eq!(f("%f", vec![Value::Double(2.71827)]).unwrap(), "2.718270");
    assert_eq!(f("%.1f", vec![Value::Double(1.0)]).unwrap(), "1.0");
    assert_eq!(
        f("%f", vec![Value::Double(1234.5)]).unwrap(),
        "1,234.500000"
    );
    assert_eq!(f("%f", vec![Value::string("Infinity")]).unwrap(), "∞");
    assert_eq!(f("%f", vec![Value::string("NaN")]).unwrap(), "NaN");
    assert_eq!(
        f("%e", vec![Value::Double(2.71827)]).unwrap(),
        "2.718270\u{202f}×\u{202f}10⁰⁰"
    );
    // The precision of %e becomes a width in cel-go: six digits always.
    assert_eq!(
        f("%.2e", vec![Value::Double(1052.032911275)]).unwrap(),
        "1.052033\u{202f}×\u{202f}10⁰³"
    );
    assert_eq!(f("%s", vec![Value::Double(2.71)]).unwrap(), "2.71");
    assert_eq!(f("%s", vec![Value::Double(0.000000002)]).unwrap(), "2e-09");
    assert_eq!(f("%x", vec![Value::Int(255)]).unwrap(), "ff");
    assert_eq!(f("%X", vec![Value::Int(255)]).unwrap(), "FF");
    assert_eq!(f("%x", vec![Value::Int(-255)]).unwrap(), "-ff");
    assert_eq!(f("%x", vec![Value::string("Hi")]).unwrap(), "4869");
    assert_eq!(f("%b", vec![Value::Int(5)]).unwrap(), "101");
    assert_eq!(f("%b", vec![Value::Int(-5)]).unwrap(), "-101");
    assert_eq!(f("%b", vec![Value::Bool(true)]).unwrap(), "1");
    assert_eq!(f("%o", vec![Value::Int(-8)]).unwrap(), "-10");
    assert_eq!(f("100%%", vec![]).unwrap(), "100%");
    assert_eq!(
        f("%%%s%%", vec![Value::string("percent")]).unwrap(),
        "%percent%"
    );
}

#[test]
fn lists_and_maps_as_cel_literals() {
    assert_eq!(
        f("%s", vec![list(vec![Value::Double(2.71)])]).unwrap(),
        "[2.710000]"
    );
    assert_eq!(
        f("%s", vec![list(vec![Value::Double(0.000000002)])]).unwrap(),
        "[0.000000]"
    );
    assert_eq!(
        f(
            "%s",
            vec![list(vec![
                Value::Double(f64::NAN),
                Value::Double(f64::INFINITY),
                Value::Double(f64::NEG_INFINITY)
            ])]
        )
        .unwrap(),
        r#"["NaN", "+Inf", "-Inf"]"#
    );
    let (ts, _) = crate::cel::time::parse_timestamp("2023-02-03T23:31:20Z").unwrap();
    assert_eq!(
        f(
            "%s",
            vec![list(vec![
                Value::string("abc"),
                Value::Double(3.25),
                Value::Null,
                list(vec![Value::Int(9), Value::Int(8)]),
                Value::Timestamp(ts, 0),
            ])]
        )
        .unwrap(),
        r#"["abc", 3.250000, null, [9, 8], timestamp("2023-02-03T23:31:20Z")]"#
    );
    assert_eq!(
        f(
            "%s",
            vec![map(vec![
                (Value::string("strKey"), Value::string("x")),
                (Value::Bool(true), Value::Int(42)),
                (Value::Int(6), Value::Duration(422_000_000_000)),
            ])]
        )
        .unwrap(),
        r#"{"strKey":"x", 6:duration("422s"), true:42}"#
    );
    assert_eq!(
        f(
            "%s",
            vec![map(vec![
                (Value::string("key1"), Value::Bytes(b"xyz"[..].into())),
                (Value::string("key3"), Value::Double(2.71827)),
            ])]
        )
        .unwrap(),
        r#"{"key1":b"xyz", "key3":2.718270}"#
    );
}

#[test]
fn run_time_errors_in_cel_go_words() {
    let e = |t: &str, a: Vec<Value>| f(t, a).unwrap_err();
    assert_eq!(
        e("%a", vec![Value::Int(1)]),
        "could not parse formatting clause: unrecognized formatting clause \"a\""
    );
    assert_eq!(
        e("%d %d %d", vec![Value::Int(0), Value::Int(1)]),
        "index 2 out of range"
    );
    // The missing argument is found before the end of the string.
    assert_eq!(e("filler %", vec![]), "index 0 out of range");
    assert_eq!(
        e("filler %", vec![Value::Int(1)]),
        "unexpected end of string"
    );
    assert_eq!(
        e("string is %b", vec![Value::string("abc")]),
        "error during formatting: only integers and bools can be formatted as binary, was given string"
    );
    assert_eq!(
        e("%d", vec![Value::Duration(1)]),
        "error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration"
    );
    assert_eq!(
        e("null: %f", vec![Value::Null]),
        "error during formatting: fixed-point clause can only be used on doubles, was given null_type"
    );
    assert_eq!(
        e("%f", vec![Value::Int(1)]),
        "error during formatting: fixed-point clause can only be used on doubles, was given int"
    );
    assert_eq!(
        e("double is %E", vec![Value::Double(0.5)]),
        "could not parse formatting clause: unrecognized formatting clause \"E\""
    );
    assert_eq!(
        e("%.34", vec![Value::Double(5.0)]),
        "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"
    );
    assert_eq!(
        e("%.f", vec![Value::Double(5.0)]),
        "could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert!(
        e("%s", vec![list(vec![Value::Int(1), Value::Optional(None)])])
            .ends_with("no formatting function for optional_type")
    );
    assert!(e("%s", vec![Value::Optional(None)]).ends_with("was given optional_type"));
}

#[test]
fn a_huge_precision_is_an_error_not_a_panic() {
    for p in ["1001", "99999", "99999999999", "99999999999999999999999"] {
        let e = f(&format!("%.{p}f"), vec![Value::Double(1.0)]).unwrap_err();
        assert!(
            e.starts_with("error during formatting") || e.starts_with("could not parse"),
            "{e}"
        );
    }
}

fn arg(ty: Type) -> StaticArg {
    StaticArg {
        ty,
        children: Vec::new(),
    }
}

#[test]
fn static_check_as_the_format_validator() {
    assert_eq!(
        static_check("%s %s", &[arg(Type::String)]).unwrap_err(),
        "index 1 out of range"
    );
    assert_eq!(
        static_check(
            "%s %s",
            &[arg(Type::String), arg(Type::String), arg(Type::String)]
        )
        .unwrap_err(),
        "too many arguments supplied to string.format (expected 2, got 3)"
    );
    assert_eq!(
        static_check("filler %", &[]).unwrap_err(),
        "unexpected end of string"
    );
    assert_eq!(
        static_check("int is %d", &[arg(Type::Double)]).unwrap_err(),
        "error during formatting: decimal clause can only be used on integers, was given double"
    );
    assert!(static_check("%f", &[arg(Type::String)]).is_ok());
    assert!(static_check("%d", &[arg(Type::Dyn)]).is_ok());
    // An attribute typed `any` (DRAListTypeAttributes off, new expressions).
    assert!(static_check("%s-x", &[arg(Type::Any)])
        .unwrap_err()
        .ends_with("was given google.protobuf.Any"));
    assert!(static_check("%d", &[arg(Type::Any)]).is_err());
    // Inside a literal list, each element is verified.
    let nested = StaticArg {
        ty: Type::list(Type::Dyn),
        children: vec![arg(Type::Int), arg(Type::Quantity)],
    };
    assert!(static_check("%s", &[nested])
        .unwrap_err()
        .ends_with("was given kubernetes.Quantity"));
}

/// Through the compiler: literal lists inside `format` may mix types (the
/// strings library exempts them from the homogeneous-literal validator),
/// and the validator's errors stop the compile.
#[test]
fn compiled_format_calls() {
    use crate::cel::{Env, Program};
    let env = Env::stored_latest();
    let compiles = |e: &str| Program::compile(e, &env).map(|_| ()).map_err(|e| e.message);
    assert_eq!(
        compiles(r#""%s has %d".format(["gpu", 2]) == "gpu has 2""#),
        Ok(())
    );
    assert_eq!(
        compiles(r#""%s".format([[1, "a"]]) == "[1, \"a\"]""#),
        Ok(())
    );
    assert!(compiles(r#"[1, "a"].size() == 2"#)
        .unwrap_err()
        .contains("expected type 'int' but found 'string'"));
    assert!(compiles(r#""%s %s".format(["a"]) == """#)
        .unwrap_err()
        .contains("index 1 out of range"));
    assert!(compiles(r#""%d".format([1, 2]) == """#)
        .unwrap_err()
        .contains("too many arguments supplied to string.format (expected 1, got 2)"));
    assert!(compiles(r#""%d".format([1.5]) == """#)
        .unwrap_err()
        .contains("decimal clause can only be used on integers, was given double"));
    assert!(
        compiles(r#""%s".format([device.capacity["d"]["memory"]]) == """#)
            .unwrap_err()
            .contains("was given kubernetes.Quantity")
    );
}
