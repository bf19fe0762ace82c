use super::*;

fn go(s: &str) -> GoAmount {
    GoAmount::parse(s).unwrap_or_else(|| panic!("{s}"))
}

fn int(value: i64, scale: i32) -> GoAmount {
    GoAmount::Int { value, scale }
}

fn dec(unscaled: &str, scale: i32) -> GoAmount {
    GoAmount::Dec {
        unscaled: unscaled.parse().unwrap(),
        scale,
    }
}

/// ParseQuantity's two forms: the int64 fast path while the digits fit
/// its precision and the scale is not below nano, inf.Dec otherwise,
/// rounded up to exactly nano scale (binary values capped at 2^63-1).
#[test]
fn parses_into_the_form_parse_quantity_chooses() {
    for (text, want) in [
        ("0", int(0, 0)),
        ("1", int(1, 0)),
        ("1.0", int(10, -1)),
        ("00.5", int(5, -1)),
        ("-1.5", int(-15, -1)),
        ("100m", int(100, -3)),
        ("1Ki", int(1024, 0)),
        ("1Gi", int(1 << 30, 0)),
        ("100E", int(100, 18)),
        ("1000E", int(1000, 18)),
        ("1e100000", int(1, 100000)),
        ("10000000000000000k", int(10_000_000_000_000_000, 3)),
        (
            "9223372036854775807",
            dec("9223372036854775807000000000", 9),
        ),
        (
            "9223372036854775808",
            dec("9223372036854775808000000000", 9),
        ),
        (
            "18446744073709551616",
            dec("18446744073709551616000000000", 9),
        ),
        ("1.0Ki", dec("1024000000000", 9)),
        ("1.00Ki", dec("1024000000000", 9)),
        ("1.5e-10", dec("1", 9)),
        ("-1.5e-10", dec("-1", 9)),
        ("0.0000000000000000000", dec("0", 19)),
        ("16Ei", dec("9223372036854775807", 0)),
        ("-16Ei", dec("-9223372036854775807", 0)),
    ] {
        assert_eq!(GoAmount::parse(text), Some(want), "{text}");
    }
    assert_eq!(GoAmount::parse("1Zi"), None);
    // Nineteen digits and an exponent of a million: Go would build a
    // power of ten a million digits wide; not modelled.
    assert_eq!(GoAmount::parse("1.000000000000000000e1000000"), None);
}

/// Value() of each form, with the overflow the upstream tests name
/// (validation_device_capacity_test.go: "a positive multiple of 2^64,
/// whose Value() reads as 0"; C37 validateInt64Range: "below zero it does
/// not round as documented once the quantity is decimal-backed").
#[test]
fn value_wraps_or_reads_zero_as_each_form_does() {
    for (text, want) in [
        ("1", 1),
        ("1.5", 2),
        ("-1.5", -2),
        ("100m", 1),
        ("1Gi", 1 << 30),
        ("100E", 0),
        ("1000E", 0),
        ("1e100000", 0),
        ("2e100000", 0),
        ("18446744073709551616", 0),
        ("18446744073709551617", 1),
        ("9223372036854775807", i64::MAX),
        ("9223372036854775808", i64::MIN),
        (
            "10000000000000000k",
            10_000_000_000_000_000i64.wrapping_mul(1000),
        ),
        ("1.5e-10", 1),
        ("-1.5e-10", 1),
    ] {
        assert_eq!(go(text).value(), want, "{text}");
    }
    // The same -1.5 once Cmp has made it an inf.Dec reads 0.
    assert_eq!(go("-1.5").as_dec().value(), 0);
    // 1e19 as an inf.Dec: 1 * int64(math.Pow10(19)), MinInt64 on amd64.
    assert_eq!(go("1e19").as_dec().value(), i64::MIN);
    assert_eq!(go("1e19").value(), 0);
    assert_eq!(go("1.5").milli_value(), 1500);
    assert_eq!(go("1.0Ki").milli_value(), 1_024_000);
    assert_eq!(go("10P").milli_value(), 0);
}

/// Cmp turns its receiver into an inf.Dec when either side is one.
#[test]
fn cmp_converts_its_receiver_when_either_side_is_a_dec() {
    let mut a = go("-1.5");
    a.touched_by_cmp(&go("2"));
    assert_eq!(a, int(-15, -1));
    a.touched_by_cmp(&go("9223372036854775808"));
    assert_eq!(a, dec("-15", 1));
}

/// AsDec().String() keys: C37's quantityKeyAsDec.
#[test]
fn dec_keys_tell_apart_what_asdec_prints_apart() {
    let key = |s: &str| go(s).dec_key();
    assert_eq!(key("1.0Ki"), key("1.00Ki"));
    assert_eq!(key("1Ki"), key("1024"));
    assert_eq!(key("1e3"), key("1000"));
    assert_eq!(key("1e100000"), key("1e100000"));
    assert_ne!(key("1e100000"), key("2e100000"));
    assert_ne!(key("1"), key("1.0"));
    assert_ne!(key("0"), key("0.0"));
    assert_ne!(key("100m"), key("0.1"));
    assert_eq!(key("0.1"), key("0.1"));
    assert_ne!(key("9223372036854775807"), key("9223372036854775808"));
    assert_ne!(key("100E"), key("1000E"));
    // An inf.Dec from the slow path prints nine decimals.
    assert_ne!(key("1536"), key("1.5Ki"));
}
