//! Property tests for quantities (`dra_core::quantity`), read as
//! apimachinery's ParseQuantity reads them: any text in the grammar with a
//! known suffix parses, arbitrary text never panics, and a binary suffix
//! multiplies the number by its power of two; apimachinery's own form of
//! the value (`GoAmount`) reads as the exact value wherever int64 holds it.

use dra_core::quantity::{GoAmount, Quantity};
use proptest::prelude::*;

/// Text in parseQuantityString's grammar whose suffix the suffixer knows.
fn well_formed() -> impl Strategy<Value = String> {
    let sign = prop_oneof![Just(""), Just("+"), Just("-")];
    // With no digit, a decimal exponent below nano is ErrNumeric (the unit
    // tests cover that edge): here the number has one.
    let number = "[0-9]{1,22}(\\.[0-9]{0,22})?|\\.[0-9]{1,22}";
    let suffix = prop_oneof![
        Just(String::new()),
        prop::sample::select(vec!["n", "u", "m", "k", "M", "G", "T", "P", "E"])
            .prop_map(String::from),
        prop::sample::select(vec!["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]).prop_map(String::from),
        "[eE][+-]?[0-9]{1,4}",
    ];
    (sign, number, suffix).prop_map(|(s, n, x)| format!("{s}{n}{x}"))
}

/// Two-digit numbers with the suffixes that spell one value many ways.
fn short() -> impl Strategy<Value = String> {
    let number = "[0-9]{1,2}(\\.[0-9]{0,2})?";
    let suffix = prop::sample::select(vec!["", "m", "k", "Ki", "e3", "e0", "e-3", "n"]);
    (number, suffix).prop_map(|(n, x)| format!("{n}{x}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn the_grammar_with_a_known_suffix_parses(text in well_formed()) {
        prop_assert!(Quantity::parse(&text).is_ok(), "{text:?}");
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,40}|[0-9.eEinumkKMGTP+-]{0,40}") {
        let _ = Quantity::parse(&text);
        let _ = Quantity::parse_field(&text);
    }

    /// `<n>Ki` is n x 1024 (below the 2^63-1 cap); `<n>k` is n x 1000.
    #[test]
    fn suffixes_scale_the_number(n in 0u64..1_000_000_000_000) {
        let kibi = Quantity::parse(&format!("{n}Ki")).expect("parses");
        let kilo = Quantity::parse(&format!("{n}k")).expect("parses");
        prop_assert_eq!(kibi, Quantity::parse(&(u128::from(n) * 1024).to_string()).expect("parses"));
        prop_assert_eq!(kilo, Quantity::parse(&(u128::from(n) * 1000).to_string()).expect("parses"));
    }

    /// Where the value is a non-negative int64, Value() and MilliValue()
    /// of either form are the exact value rounded up, and Cmp's conversion
    /// to an inf.Dec changes nothing (the forms differ only past int64 and
    /// below zero).
    #[test]
    fn go_forms_read_the_exact_value_within_int64(text in well_formed()) {
        let exact = Quantity::parse(&text).expect("parses");
        let Some(go) = GoAmount::parse(&text) else { return Ok(()) };
        let limit = Quantity::from_int(1 << 52);
        if !exact.is_negative() && exact <= limit {
            prop_assert_eq!(i128::from(go.value()), exact.value(), "{:?}", text);
            prop_assert_eq!(i128::from(go.milli_value()), exact.milli_value(), "{:?}", text);
            prop_assert_eq!(go.as_dec().value(), go.value(), "{:?}", text);
        }
    }

    /// Two quantities with one AsDec().String() key have one value, and
    /// one written alike in int64 form (same digits after the point, no
    /// suffix) has one key. Short texts, so that values often coincide.
    #[test]
    fn one_dec_key_is_one_value(a in short(), b in short()) {
        let (x, y) = (GoAmount::parse(&a).expect("parses"), GoAmount::parse(&b).expect("parses"));
        let (qa, qb) = (Quantity::parse(&a).expect("parses"), Quantity::parse(&b).expect("parses"));
        if x.dec_key() == y.dec_key() {
            prop_assert_eq!(qa, qb, "{} {}", a, b);
        }
        let point = |t: &str| t.split_once('.').map_or(0, |(_, f)| f.len());
        let plain = |t: &str| t.bytes().all(|c| c.is_ascii_digit() || c == b'.');
        if qa == qb && plain(&a) && plain(&b) && point(&a) == point(&b) {
            prop_assert_eq!(x.dec_key(), y.dec_key(), "{} {}", a, b);
        }
    }

    #[test]
    fn go_forms_never_panic(text in ".{0,40}|[0-9.eEinumkKMGTP+-]{0,40}") {
        if let Some(go) = GoAmount::parse(&text) {
            let _ = (go.value(), go.milli_value(), go.as_dec().value(), go.dec_key());
        }
    }
}
