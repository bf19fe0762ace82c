//! Reading a field, key or index of a value as cel-go's attribute
//! qualifiers do (interpreter/attributes.go): plain selection, presence
//! tests (`has()`), optional selection (`x.?f`, `x[?k]`) and the fields of
//! an optional value.

use std::sync::Arc;

use super::functions::{self, R};
use super::value::{MapValue, Value};

/// `x.f`: a missing key is an error.
pub(super) fn select(operand: &Value, field: &str) -> R {
    match operand {
        Value::Device(d) => match field {
            "driver" => Ok(d.driver.clone()),
            "attributes" => Ok(d.attributes.clone()),
            "capacity" => Ok(d.capacity.clone()),
            "allowMultipleAllocations" => Ok(Value::Bool(d.allow_multiple_allocations)),
            _ => Err(format!("no such key: {field}")),
        },
        Value::Map(m) => m
            .get_str(field)
            .cloned()
            .ok_or_else(|| format!("no such key: {field}")),
        Value::Domains(m) => Ok(m
            .get_str(field)
            .cloned()
            .unwrap_or_else(|| Value::Map(Arc::new(MapValue::default())))),
        // cel-go qualifies a dyn value by the field name as a key
        // (interpreter/attributes.go refQualify).
        Value::List(_) => Err("unsupported index type 'string' in list".to_owned()),
        _ => Err(format!("no such key: {field}")),
    }
}

/// `has(x.f)`: cel-go's presence test (interpreter/attributes.go
/// refQualify with presenceTest). Kubernetes leaves
/// EnableErrorOnBadPresenceTest off, so a value that holds no fields
/// (a string, an int, null) has none rather than failing; an optional
/// operand is tested inside (none has nothing).
pub(super) fn has(operand: &Value, field: &str) -> Result<bool, String> {
    let operand = match operand {
        Value::Optional(None) => return Ok(false),
        Value::Optional(Some(v)) => &**v,
        v => v,
    };
    // The common cases read the field by name: `has()` runs on every
    // device, and a key value would cost an allocation each time.
    match operand {
        Value::Map(m) => Ok(m.get_str(field).is_some()),
        // An unknown domain reads as an empty map: present.
        Value::Domains(_) => Ok(true),
        _ => Ok(qualify_if_present(operand, &Value::string(field))?.is_some()),
    }
}

/// cel-go's QualifyIfPresent (interpreter/attributes.go refQualify): the
/// entry, element or field if present; a value that holds none is
/// absent (EnableErrorOnBadPresenceTest is off in Kubernetes); an
/// index of the wrong type for a list is an error.
pub(super) fn qualify_if_present(v: &Value, key: &Value) -> Result<Option<Value>, String> {
    Ok(match v {
        Value::Map(m) => m.get(key).cloned(),
        // An unknown domain reads as an empty map.
        Value::Domains(m) => Some(
            m.get(key)
                .cloned()
                .unwrap_or_else(|| Value::Map(Arc::new(MapValue::default()))),
        ),
        Value::List(l) => {
            let i = functions::list_index(key)?;
            usize::try_from(i).ok().and_then(|i| l.get(i)).cloned()
        }
        Value::Device(_) => match key {
            Value::String(f) => select(v, f).ok(),
            _ => None,
        },
        _ => None,
    })
}

/// `x.?f`, `x[?k]`, and a field or index of an optional `x`: the value
/// if present as an optional, none when `x` is none.
pub(super) fn opt_get(operand: &Value, key: &Value) -> R {
    let inner = match operand {
        Value::Optional(None) => return Ok(Value::Optional(None)),
        Value::Optional(Some(v)) => &**v,
        v => v,
    };
    Ok(Value::Optional(
        qualify_if_present(inner, key)?.map(Box::new),
    ))
}

#[cfg(test)]
mod tests {
    /// The value of a selector on a device with one attribute
    /// (`d.example.com/model: A100`), in the newest stored environment.
    fn eval(expr: &str) -> Result<bool, String> {
        crate::cel::functions::run_on("name: d\nattributes:\n  model: {string: A100}\n", expr)
    }

    /// cel-go checkSelectField and applyQualifiers: a field or index of an
    /// optional value is read inside it and gives an optional (none when
    /// absent or when the operand is none), so the chain after `[?d]` or
    /// `.?f` needs no further `?` (cel-spec optionals.textproto
    /// optional_chaining_*).
    #[test]
    fn fields_of_an_optional_are_optional() {
        for (expr, want) in [
            (
                r#"device.attributes[?"d.example.com"].model.orValue("") == "A100""#,
                true,
            ),
            (
                r#"device.attributes[?"x.example.com"].model.hasValue()"#,
                false,
            ),
            (
                r#"optional.of({"c": {"i": "v"}}).c.i.orValue("") == "v""#,
                true,
            ),
            (
                r#"optional.of({"c": {}}).c["missing"].orValue("z") == "z""#,
                true,
            ),
            (r#"optional.none().c.hasValue()"#, false),
            (r#"optional.of([1, 2])[1].value() == 2"#, true),
            (r#"optional.of([1, 2])[5].hasValue()"#, false),
            (r#"{"a": {"b": 1}}.?a.b.value() == 1"#, true),
            (
                r#"has(optional.of({"c": 1}).c) && !has(optional.of({"c": 1}).d)"#,
                true,
            ),
        ] {
            assert_eq!(eval(expr), Ok(want), "{expr}");
        }
        // The checker types them: an optional has no `==` with a string.
        assert!(eval(r#"device.attributes[?"d.example.com"].model == "A100""#)
            .unwrap_err()
            .contains("found no matching overload for '_==_' applied to '(optional_type(dyn), string)'"));
    }

    /// refQualify without EnableErrorOnBadPresenceTest (Kubernetes does not
    /// set it): a presence test or optional selection on a value that
    /// holds no fields is absent, not an error; on a list it is the list's
    /// index error (types.IndexOrError).
    #[test]
    fn presence_on_a_value_without_fields_is_false() {
        assert_eq!(eval(r#"has(dyn("s").x)"#), Ok(false));
        assert_eq!(eval(r#"has(dyn(null).x)"#), Ok(false));
        assert_eq!(eval(r#"dyn(1).?x.hasValue()"#), Ok(false));
        assert_eq!(
            eval(r#"has(dyn([1]).x)"#),
            Err("unsupported index type 'string' in list".into())
        );
        assert_eq!(eval(r#"dyn("s").x == 1"#), Err("no such key: x".into()));
        // The DRA attribute map answers every domain (compile.go mapper.Find).
        assert_eq!(eval("has(device.attributes.nodomain)"), Ok(true));
        assert_eq!(
            eval(r#"has(device.attributes["d.example.com"].model)"#),
            Ok(true)
        );
        assert_eq!(
            eval(r#"has(device.attributes["d.example.com"].other)"#),
            Ok(false)
        );
    }

    /// types.IndexOrError: a double or uint index converts without loss,
    /// anything else is refused with its type.
    #[test]
    fn list_indexes_as_cel_go_takes_them() {
        assert_eq!(eval("[7, 8][dyn(1.0)] == 8"), Ok(true));
        assert_eq!(eval("[7, 8][dyn(1u)] == 8"), Ok(true));
        assert_eq!(
            eval("[7, 8][dyn(1.5)] == 8"),
            Err("unsupported index value 1.5 in list".into())
        );
        assert_eq!(
            eval("[7, 8][dyn('a')] == 8"),
            Err("unsupported index type 'string' in list".into())
        );
    }

    /// evalMap fills a Go map: a repeated key keeps the later value, an
    /// absent optional entry removes an earlier one; the checker types an
    /// optional entry by the optional's value (checkCreateMap).
    #[test]
    fn map_literals_as_cel_go_builds_them() {
        assert_eq!(eval(r#"{"a": 1, "a": 2}["a"] == 2"#), Ok(true));
        assert_eq!(
            eval(r#"{"a": 1, ?"a": optional.none()}.size() == 0"#),
            Ok(true)
        );
        assert_eq!(eval(r#"{?"a": optional.of(1)}["a"] == 1"#), Ok(true));
        assert_eq!(
            eval(r#"[?optional.of(1), ?optional.none()] == [1]"#),
            Ok(true)
        );
        // Past 16 entries keys are found by hash: the same answers.
        let many: Vec<String> = (0..40).map(|i| format!("'k{i}': {i}")).collect();
        let big = format!(
            "{{{}, 'k3': 100, ?'k5': optional.none(), 'k40': 40}}",
            many.join(", ")
        );
        assert_eq!(
            eval(&format!(
                "{big}.size() == 40 && {big}['k3'] == 100 && !('k5' in {big})"
            )),
            Ok(true)
        );
        assert_eq!(
            eval(r#"{?"a": 1}"#).unwrap_err(),
            "expected type 'optional_type(int)' but found 'int'"
        );
    }

    /// Type names cel-go resolves: the registry's google.protobuf.Duration
    /// and Timestamp, the optional library's optional_type.
    #[test]
    fn type_names() {
        for expr in [
            "type(duration('1s')) == google.protobuf.Duration",
            "type(timestamp('2024-01-01T00:00:00Z')) == google.protobuf.Timestamp",
            "type(optional.none()) == optional_type",
            "[1].all(google, type(google) == int)",
        ] {
            assert_eq!(eval(expr), Ok(true), "{expr}");
        }
    }
}
