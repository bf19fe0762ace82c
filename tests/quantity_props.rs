//! Property tests for quantities (`dra_core::quantity`), read as
//! apimachinery's ParseQuantity reads them: any text in the grammar with a
//! known suffix parses, arbitrary text never panics, and a binary suffix
//! multiplies the number by its power of two.

use dra_core::quantity::Quantity;
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
}
