use super::*;

fn q(s: &str) -> Quantity {
    Quantity::parse(s).unwrap()
}

fn ranged(min: &str, max: Option<&str>, step: Option<&str>) -> Capacity {
    Capacity {
        name: "bandwidth".into(),
        value: q("100"),
        default: None,
        valid_values: Vec::new(),
        range: Some((q(min), max.map(q), step.map(q))),
    }
}

/// consumable_capacity.go at kubernetes/dynamic-resource-allocation
/// 3d03671: roundUpRange and violateValidRange read request, min and step
/// with Quantity.Value(), so 400m on a 300m step from 0 rounds to 1 (whole
/// units: 1, 0 and 1) and 700m from 200m on 100m steps to 1 as well.
#[test]
fn a_range_is_rounded_in_whole_units_without_the_gate() {
    let c = ranged("0", None, Some("300m"));
    assert_eq!(c.units(false), Units::Whole);
    assert_eq!(c.round_up(q("400m"), Units::Whole), q("1"));
    assert!(c.allows(q("1"), Units::Whole));
    let c = ranged("200m", Some("1"), Some("100m"));
    assert_eq!(c.round_up(q("250m"), Units::Whole), q("1"));
    assert_eq!(c.round_up(q("100m"), Units::Whole), q("200m"));
    // Whole units read 1.5 as 2: 2 - 0 is a multiple of a step of 1.
    let c = ranged("0", None, Some("1"));
    assert_eq!(c.round_up(q("1.5"), Units::Whole), q("2"));
    assert!(c.allows(q("1.5"), Units::Whole));
}

/// With DRAFractionalCapacityRange on and a fractional range, milli-units
/// (the gate-aware copies' useMilli); a whole range stays in whole units.
#[test]
fn a_fractional_range_is_rounded_in_milli_units_with_the_gate() {
    let c = ranged("0", None, Some("300m"));
    assert_eq!(c.units(true), Units::Milli);
    assert_eq!(c.round_up(q("400m"), Units::Milli), q("600m"));
    assert!(!c.allows(q("400m"), Units::Milli));
    assert!(c.allows(q("600m"), Units::Milli));
    assert_eq!(ranged("1", None, Some("2")).units(true), Units::Whole);
    // A step below a milli-unit keeps whole units.
    assert_eq!(ranged("0", None, Some("0.0001")).units(true), Units::Whole);
}
