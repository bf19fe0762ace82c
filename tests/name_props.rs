//! Property tests for the name checks: each apimachinery message function
//! (`dra_core::name_errors`) finds a problem exactly when the predicate the
//! rest of the engine uses (`dra_core::format`) refuses the name, so a rule
//! can never report a valid name or pass an invalid one silently; and no
//! message repeats the (possibly hostile) input.

use dra_core::format;
use dra_core::gates::Version;
use dra_core::name_errors as ne;
use proptest::prelude::*;

/// Names near the edges of the formats: the characters they allow, the
/// ones they refuse, separators, and lengths around 63 and 253.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.-]{0,70}",
        "[A-Za-z0-9_.-]{0,70}",
        "[a-z0-9.-/]{0,80}",
        "[a-z]{60,66}",
        "([a-z]{60}\\.){4}[a-z]{0,20}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn messages_agree_with_the_predicates(s in name()) {
        prop_assert_eq!(ne::dns1123_label(&s).is_empty(), format::is_dns_label(&s));
        prop_assert_eq!(ne::dns1123_subdomain(&s).is_empty(), format::is_dns_subdomain(&s));
        prop_assert_eq!(ne::long_name(&s).is_empty(), format::is_dns_subdomain(&s));
        prop_assert_eq!(ne::c_identifier(&s).is_empty(), format::is_c_identifier(&s));
        for v in [Version::V1_34, Version::V1_35, Version::V1_37] {
            prop_assert_eq!(ne::label_key(v, &s).is_empty(), format::is_label_key(&s));
            prop_assert_eq!(ne::label_value(v, &s).is_empty(), format::is_label_value(&s));
        }
        prop_assert_eq!(
            ne::path_segment(&s, false).is_empty(),
            format::is_path_segment_name(&s, false)
        );
    }

    #[test]
    fn messages_never_quote_the_input(s in "[A-Za-z0-9_]{8,20}\\x1b\\[31m") {
        let all = [
            ne::dns1123_label(&s),
            ne::dns1123_subdomain(&s),
            ne::label_key(Version::V1_37, &s),
            ne::label_value(Version::V1_37, &s),
            ne::c_identifier(&s),
        ];
        for msg in all.iter().flatten() {
            prop_assert!(!msg.contains(&s), "{msg}");
            prop_assert!(!msg.contains('\x1b'), "{msg}");
        }
    }
}
