//! Property tests: no input makes the engine panic. Arbitrary bytes, and
//! mutations of valid manifests (cut, duplicated, bytes flipped, keys and
//! values swapped), go through the whole lint path in-process.

use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{lint, Settings, SourceFile};
use dra_core::yaml::{load_general, load_split, Limits};
use proptest::prelude::*;

fn lint_text(text: String) {
    let settings = Settings::for_gates(FeatureGates::defaults(Version::LATEST));
    let chars = text.chars().count() as u32;
    let files = [SourceFile {
        name: "x.yaml".into(),
        text,
    }];
    let r = lint(&files, Vec::new(), &settings);
    // The inventory readers over the same objects, as a cluster stores them.
    let (objects, _) = dra_core::sources::load_objects(&files, Limits::default());
    let rows = dra_core::usage::device_rows(
        &objects,
        &dra_core::gates::FeatureGates::defaults(dra_core::gates::Version::LATEST),
    );
    assert_eq!(
        rows.len(),
        dra_core::inventory::devices(&objects, true).len(),
        "one row per device"
    );
    let _ = dra_core::usage::invalid_pools(&objects);
    // Every finding points inside the file.
    for d in &r.diagnostics {
        assert!(
            d.span.start <= chars && d.span.end <= chars + 1,
            "{d:?} outside {chars} chars"
        );
    }
}

/// A seed manifest and the same with one line edited (indentation, empty
/// values, quotes, comments, an item or key added).
fn edited(seed: usize, line: usize, edit: usize, word: &str) -> (String, String) {
    let seeds = seeds();
    let base = &seeds[seed % seeds.len()];
    let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
    let n = line % lines.len().max(1);
    if let Some(l) = lines.get_mut(n) {
        let edited = match edit {
            0 => format!("  {l}"),
            1 => l.trim_start_matches(' ').to_owned(),
            2 => l.split(':').next().unwrap_or("").to_owned() + ":",
            3 => format!("{l} # {word}"),
            4 => format!("{l}   "),
            5 => l.replacen(": ", ": '", 1) + "'",
            6 => l.replacen(": ", ": \"", 1) + "\"",
            7 => format!("- {l}"),
            8 => l.replacen("- ", "-   ", 1),
            9 => l.replacen(": ", ": []", 1),
            10 => format!("{l}\n# {word}\n"),
            _ => format!("{l}\n{word}: {word}"),
        };
        *l = edited;
    }
    (base.clone(), lines.join("\n"))
}

fn seeds() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["examples", "testdata/fixtures/render"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            out.push(std::fs::read_to_string(e.path()).unwrap());
        }
    }
    out
}

/// A stream of several manifests, as a fleet file holds them, with noise
/// inserted at one place (so documents also break, merge and nest).
fn stream(first: usize, count: usize, at: usize, insert: &str) -> String {
    let seeds = seeds();
    let mut s = String::new();
    for i in 0..count {
        s.push_str(&seeds[(first + i) % seeds.len()]);
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(["---\n", "--- \n", "---\r\n", "\n---\n", "...\n---\n"][i % 5]);
    }
    let mut chars: Vec<char> = s.chars().collect();
    let at = at % (chars.len() + 1);
    chars.splice(at..at, insert.chars());
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Parsing a stream in parts, in parallel, and through the block fast
    /// path where it applies, gives exactly what one saphyr pass gives:
    /// documents, their indices, spans and errors.
    #[test]
    fn split_and_fast_loading_equal_one_saphyr_pass(first in 0usize..1000, count in 1usize..8, part in 1usize..600, at in 0usize..100_000, insert in "[ :\\-\\[\\]{}&*!|>'\"#,a-z0-9\n]{0,12}") {
        let text = stream(first, count, at, &insert);
        let general = load_general(&text, Limits::default());
        prop_assert_eq!(&general, &load_split(&text, Limits::default(), usize::MAX));
        prop_assert_eq!(&general, &load_split(&text, Limits::default(), part));
    }

    /// Line-level edits of block manifests (indentation, empty values,
    /// quotes, comments), where the fast path applies more often.
    #[test]
    fn fast_path_equals_saphyr_on_edited_lines(seed in 0usize..1000, line in 0usize..200, edit in 0usize..12, word in "[a-z0-9]{0,6}") {
        let text = edited(seed, line, edit, &word).1;
        prop_assert_eq!(load_general(&text, Limits::default()), load_split(&text, Limits::default(), usize::MAX));
    }

    /// Loaded shared, as inventory readers load (issue 37), a stream reads
    /// as it does loaded for `lint`: the same errors, values and objects'
    /// spans. The manifest comes unedited, edited, then edited again, so
    /// that the block values the shared loader remembers meet near misses
    /// and exact repeats at other depths.
    #[test]
    fn a_shared_load_reads_as_a_plain_load(seed in 0usize..1000, line in 0usize..200, edit in 0usize..12, word in "[a-z0-9]{0,6}", nest in 0usize..3) {
        let (base, changed) = edited(seed, line, edit, &word);
        let nested: String = changed.lines().map(|l| format!("{}{l}\n", "  ".repeat(nest))).collect();
        let text = format!("{base}\n---\n{changed}\n---\n{changed}\n---\nwrap:\n{nested}\n---\nwrap:\n{nested}");
        let plain = dra_core::yaml::load(&text, Limits::default());
        let shared = dra_core::yaml::load(&text, Limits { share: true, ..Limits::default() });
        prop_assert_eq!(&shared.errors, &plain.errors);
        prop_assert_eq!(shared.documents.len(), plain.documents.len());
        for (s, p) in shared.documents.iter().zip(&plain.documents) {
            prop_assert_eq!(s.index, p.index);
            prop_assert_eq!(s.root.span, p.root.span);
            prop_assert_eq!(s.root.to_json(), p.root.to_json());
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,400}") {
        lint_text(s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..400)) {
        lint_text(String::from_utf8_lossy(&b).into_owned());
    }

    #[test]
    fn mutated_manifests_never_panic(seed in 0usize..1000, cut in 0usize..10_000, at in 0usize..10_000, insert in "[ :\\-\\[\\]{}&*!|>'\"#,a-z0-9\n]{0,12}") {
        let seeds = seeds();
        let base = &seeds[seed % seeds.len()];
        let chars: Vec<char> = base.chars().collect();
        let cut = cut % (chars.len() + 1);
        let at = at % (chars.len() + 1);
        let (lo, hi) = (cut.min(at), cut.max(at));
        // Remove a range, then insert YAML-ish noise where it was.
        let mut s: String = chars[..lo].iter().collect();
        s.push_str(&insert);
        s.extend(chars[hi..].iter());
        lint_text(s);
    }

    #[test]
    fn values_of_the_wrong_type_never_panic(seed in 0usize..1000, line in 0usize..200, value in prop_oneof![Just("[]"), Just("{}"), Just("null"), Just("-1"), Just("1.5"), Just("yes"), Just("\"\""), Just("[{a: 1}]"), Just("99999999999999999999999")]) {
        let seeds = seeds();
        let base = &seeds[seed % seeds.len()];
        let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
        let n = line % lines.len().max(1);
        if let Some(l) = lines.get_mut(n) {
            if let Some(i) = l.find(": ") {
                l.truncate(i + 2);
                l.push_str(value);
            }
        }
        lint_text(lines.join("\n"));
    }
}
