//! Property tests for what a repository writes around its manifests: the
//! configuration file and suppression comments never panic the parser, and
//! every span a suppression code reports lies inside the text (findings
//! point at it); a `# Source:` stream splits into parts that keep every
//! document line.

use dra_core::lint::suppress;
use dra_core::tree::LineIndex;
use proptest::prelude::*;

/// Text in the shapes a config or comment takes, with hostile bytes mixed in.
fn config_text() -> impl Strategy<Value = String> {
    let pieces = prop::collection::vec(
        prop_oneof![
            Just("kubernetesVersion: ".to_owned()),
            Just("featureGates: {".to_owned()),
            Just("select: [".to_owned()),
            Just("perFileIgnores:\n  ".to_owned()),
            Just("# kubectl-dra: ignore".to_owned()),
            Just("-line=".to_owned()),
            Just("-file=".to_owned()),
            Just("=".to_owned()),
            Just("DRA-V".to_owned()),
            Just("all, ".to_owned()),
            Just("\n".to_owned()),
            Just(" # ".to_owned()),
            Just("---\n".to_owned()),
            "[a-zA-Z0-9 .,:/\\[\\]{}\"'#=-]{0,12}",
            any::<String>(),
        ],
        0..24,
    );
    pieces.prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn config_parse_never_panics(text in config_text()) {
        let _ = dra_core::config::parse(&text);
    }

    #[test]
    fn suppression_spans_lie_inside_the_text(text in config_text()) {
        let index = LineIndex::new(&text);
        let chars = text.chars().count() as u32;
        for d in suppress::parse(&text, &index) {
            prop_assert!(d.span.end <= chars + 1);
            for c in &d.codes {
                prop_assert!(c.span.start <= c.span.end && c.span.end <= chars + 1, "{c:?}");
            }
        }
    }

    #[test]
    fn a_rendered_stream_keeps_every_document_line(text in config_text()) {
        let Some(parts) = kubectl_dra::rendered::split("<stdin>", &text) else {
            return Ok(());
        };
        for line in text.lines() {
            let bare = line.trim_end_matches('\r');
            if bare == "---" || bare.starts_with("--- ") || bare.trim().is_empty() {
                continue;
            }
            prop_assert!(parts.iter().any(|p| p.text.contains(bare)), "{line:?} lost");
        }
    }
}
