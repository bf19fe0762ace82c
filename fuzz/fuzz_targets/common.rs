//! What the lint targets share: one lint run and the checks on its findings.

use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{self, Settings, SourceFile};
use dra_core::yaml::Limits;

/// Lints `text` as one file, as objects and as status writes; every
/// finding must point inside it.
pub fn lint_text(text: &str) {
    lint_as(text, false);
    lint_as(text, true);
}

fn lint_as(text: &str, status: bool) {
    let settings = Settings {
        status,
        ..Settings::for_gates(FeatureGates::defaults(Version::V1_37))
    };
    let files = [SourceFile {
        name: "fuzz.yaml".into(),
        text: text.to_owned(),
    }];
    let result = lint::lint(&files, Vec::new(), &settings);
    let chars = text.chars().count() as u32;
    for d in &result.diagnostics {
        assert!(
            d.span.start <= d.span.end || d.span.end == 0,
            "inverted span {d:?}"
        );
        assert!(
            d.span.start <= chars && d.span.end <= chars,
            "span outside the file: {d:?}"
        );
        assert!(!d.message.is_empty(), "empty message: {d:?}");
    }
    // The fixes the findings offer and the conversions: edits inside the
    // text, on character boundaries; nothing converted, nothing changed.
    for o in dra_core::lint::fixes::offers(&files, &result.diagnostics, &settings.gates) {
        for e in &o.edits {
            assert!(e.start <= e.end && e.end <= text.len(), "{o:?}");
            assert!(
                text.is_char_boundary(e.start) && text.is_char_boundary(e.end),
                "{o:?}"
            );
        }
    }
    for to in ["v1", "v1beta1"] {
        let c = dra_core::migrate::convert(text, to, &settings.gates);
        if c.converted.is_empty() {
            assert_eq!(c.text, text, "changed with nothing converted");
        }
    }
    // The inventory readers (`devices`, `match`, the invalid pools) over
    // the same objects as a cluster stores them: typed decoding of any
    // shape never panics.
    let (objects, _) = dra_core::sources::load_objects(&files, Limits::default());
    let rows = dra_core::usage::device_rows(&objects, &settings.gates);
    let listed = dra_core::inventory::devices(&objects, true);
    assert_eq!(rows.len(), listed.len(), "one row per device");
    let _ = dra_core::usage::invalid_pools(&objects);
}
