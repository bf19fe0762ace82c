//! Unit tests of the loader: splitting, the fast path, scalars, limits.

use super::*;

fn one(text: &str) -> Node {
    let mut l = load(text, Limits::default());
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    l.documents.remove(0).root
}

#[test]
fn a_document_the_fast_path_cannot_read_costs_only_its_piece() {
    // Over a MiB of block-style slices with one flow-style document and
    // a multi-byte character in the middle: the same documents, spans
    // and indices as saphyr alone reads.
    let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
        nodes: 300,
        gpus_per_node: 2,
        partitions_per_gpu: 3,
    });
    let mid = fleet.len() / 2 + fleet[fleet.len() / 2..].find("\n---\n").unwrap() + 1;
    let text = format!(
        "{}---\n{{kind: Flow, metadata: {{name: \"\u{e9}t\u{e9}\"}}}}\n{}",
        &fleet[..mid],
        &fleet[mid..]
    );
    assert!(text.len() > 4 * SUB_PART, "{}", text.len());
    assert!(block::load(&text, 0, Limits::default()).is_none());
    let pieces = load_pieces(&text, 0, text.len(), 0, Limits::default()).unwrap();
    assert!(
        pieces.loaded.errors.is_empty(),
        "{:?}",
        pieces.loaded.errors
    );
    let general = load_general(&text, Limits::default());
    assert_eq!(pieces.loaded, general);
    assert_eq!(load_split(&text, Limits::default(), 64 << 10), general);
}

#[test]
fn large_streams_are_split_at_document_markers_only() {
    let fleet = crate::fleet::generate(crate::fleet::FleetSpec {
        nodes: 40,
        gpus_per_node: 2,
        partitions_per_gpu: 1,
    });
    let starts = part_starts(&fleet, 4096);
    assert!(starts.len() > 2, "{starts:?}");
    for &s in &starts[1..] {
        assert!(fleet[s..].starts_with("---"), "part at {s}");
        assert_eq!(&fleet[s - 1..s], "\n");
    }
    // `----` and `---x` start no document.
    let text = format!("a: 1\n{}\n----\n---x: 1\n", "b: 2\n".repeat(10));
    assert_eq!(part_starts(&text, 4), vec![0]);
    let split = load_split(&fleet, Limits::default(), 4096);
    assert_eq!(split, load_split(&fleet, Limits::default(), usize::MAX));
    assert_eq!(split.documents.last().map(|d| d.index), Some(80));
}

#[test]
fn a_syntax_error_in_one_part_stops_the_stream_as_one_pass_does() {
    let good = "a: 1\n---\n".repeat(200);
    let text = format!("{good}b: [\n---\n{good}");
    let split = load_split(&text, Limits::default(), 64);
    assert_eq!(split, load_split(&text, Limits::default(), usize::MAX));
    assert_eq!(split.errors.len(), 1);
    assert_eq!(split.documents.len(), 200);
}

#[test]
fn the_alias_budget_counts_the_whole_file_when_split() {
    let doc = "a: &x [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*x, *x, *x]\n---\n";
    let text = doc.repeat(40);
    let limits = Limits {
        max_depth: 256,
        max_alias_nodes: 1000,
        share: false,
    };
    let split = load_split(&text, limits, 64);
    assert_eq!(split, load_split(&text, limits, usize::MAX));
    assert!(split
        .errors
        .iter()
        .any(|e| e.kind == LoadErrorKind::AliasBudget));
}

#[test]
fn spans_point_at_keys_and_values() {
    let text = "a:\n  b: [1, x]\n";
    let lc = crate::tree::LineIndex::new(text);
    let n = one(text);
    let a = n.entry("a").unwrap();
    assert_eq!(lc.line_col(a.key_span.start), (1, 1));
    let b = a.value.entry("b").unwrap();
    assert_eq!(lc.line_col(b.key_span.start), (2, 3));
    let items = b.value.as_seq().unwrap();
    assert_eq!(lc.line_col(items[1].span.start), (2, 10));
    assert_eq!(items[0].value, Value::Int(1));
    assert_eq!(items[1].as_str(), Some("x"));
}

#[test]
fn yaml11_scalars() {
    assert_eq!(resolve_plain("yes"), Value::Bool(true));
    assert_eq!(resolve_plain("Off"), Value::Bool(false));
    assert_eq!(resolve_plain("8Gi"), Value::Str("8Gi".into()));
    assert_eq!(resolve_plain("010"), Value::Int(8));
    assert_eq!(resolve_plain("1.5"), Value::Float(1.5));
    assert_eq!(resolve_plain("1e3"), Value::Float(1000.0));
    assert_eq!(resolve_plain("-"), Value::Str("-".into()));
    // go-yaml v2's resolve: strconv.ParseInt(plain, 0, 64) takes every
    // base prefix in either case; a float ParseFloat cannot hold stays
    // a string.
    assert_eq!(resolve_plain("0o17"), Value::Int(15));
    assert_eq!(resolve_plain("0X1f"), Value::Int(31));
    assert_eq!(resolve_plain("-0B101"), Value::Int(-5));
    assert_eq!(
        resolve_plain("1e999999999"),
        Value::Str("1e999999999".into())
    );
    assert_eq!(resolve_plain("1e-999999999"), Value::Float(0.0));
    assert_eq!(
        resolve_plain("99999999999999999999999999"),
        Value::Float(1e26)
    );
    let huge = "9".repeat(400);
    assert_eq!(resolve_plain(&huge), Value::Str(huge.as_str().into()));
    assert_eq!(resolve_plain("1.2.3"), Value::Str("1.2.3".into()));
    // resolve's '.' hint: strconv.ParseFloat(in) with Go's underscore
    // rule (underscoreOK), where a digit-led number has its underscores
    // removed first.
    assert_eq!(resolve_plain(".5_0"), Value::Float(0.5));
    assert_eq!(resolve_plain(".5e1_0"), Value::Float(0.5e10));
    for s in ["._5", ".5_", ".5__0", ".5_e3"] {
        assert_eq!(resolve_plain(s), Value::Str(s.into()), "{s}");
    }
    assert_eq!(resolve_plain("1_.5"), Value::Float(1.5));
    assert_eq!(one("'8'").value, Value::Str("8".into()));
    // Past int64, strconv.ParseUint(plain, 0, 64) makes a prefixed or
    // octal number a uint64 (a JSON number, held as a float); with a sign,
    // or past uint64, it stays a string.
    assert_eq!(
        resolve_plain("0xFFFFFFFFFFFFFFFF"),
        Value::Float(18446744073709551615u64 as f64)
    );
    assert_eq!(
        resolve_plain("0x8000_0000_0000_0000"),
        Value::Float(9223372036854775808u64 as f64)
    );
    assert_eq!(
        resolve_plain("01777777777777777777777"),
        Value::Float(18446744073709551615u64 as f64)
    );
    for text in [
        "-0xFFFFFFFFFFFFFFFF",
        "+0xFFFFFFFFFFFFFFFF",
        "0x10000000000000000",
    ] {
        assert_eq!(resolve_plain(text), Value::Str(text.into()), "{text}");
    }
}

#[test]
fn merge_keys_are_expanded() {
    let n = one("base: &b {x: 1, z: 2}\nobj:\n  <<: *b\n  z: 3\n");
    let obj = n.get("obj").unwrap();
    assert_eq!(obj.get("x").unwrap().value, Value::Int(1));
    assert_eq!(obj.get("z").unwrap().value, Value::Int(3));
    // As sigs.k8s.io/yaml: a plain `y` key is the boolean true, keyed "true".
    assert!(one("y: 1\n").get("true").is_some());
    assert!(obj.get("<<").is_none());
}

#[test]
fn alias_bomb_is_refused() {
    let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let prev = (b'a' + i - 1) as char;
        let cur = (b'a' + i) as char;
        s.push_str(&format!("{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let l = load(&s, Limits::default());
    assert_eq!(l.errors[0].kind, LoadErrorKind::AliasBudget);
    assert!(l.documents.is_empty());
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let s = "- ".repeat(100_000) + "x\n";
    let l = load(&s, Limits::default());
    assert_eq!(l.errors[0].kind, LoadErrorKind::TooDeep);
    let s = "[".repeat(10_000);
    let l = load(&s, Limits::default());
    assert!(!l.errors.is_empty());
}

#[test]
fn duplicate_keys_and_multi_docs() {
    let text = "a: 1\na: 2\n---\nb: 1\n";
    let l = load(text, Limits::default());
    assert_eq!(l.errors.len(), 1);
    assert_eq!(l.errors[0].kind, LoadErrorKind::DuplicateKey);
    assert_eq!(
        crate::tree::LineIndex::new(text)
            .line_col(l.errors[0].span.start)
            .0,
        2
    );
    assert_eq!(l.documents.len(), 2);
    assert_eq!(l.documents[1].index, 1);
}

#[test]
fn syntax_error_keeps_earlier_documents() {
    let l = load("a: 1\n---\nb: [\n", Limits::default());
    assert_eq!(l.documents.len(), 1);
    assert_eq!(l.errors[0].kind, LoadErrorKind::Syntax);
}

/// An empty sequence item (`- `, `- # comment`) sits where saphyr's
/// scanner stopped, the end of its line (found by fuzzing yaml_paths).
#[test]
fn empty_items_sit_where_saphyr_puts_them() {
    for t in [
        "- ",
        "-",
        "- \n",
        "-  ",
        "- # c",
        "a:\n- ",
        "- \n- x\n",
        "-   \n",
        "- \t",
        "x:\n  - ",
        "- \r\n- x\r\n",
        "- # c\r\n",
    ] {
        assert_eq!(
            load_general(t, Limits::default()),
            load_split(t, Limits::default(), usize::MAX),
            "{t:?}"
        );
    }
}

#[test]
fn an_empty_document_before_a_part_ends_at_the_next_marker() {
    // One pass puts an empty document on the `---` that follows it; a part
    // that ends there must too (found by fuzzing yaml_paths on 72b08f0).
    // The first document's line is 62 bytes: the marker after it is within
    // 64 bytes of the start and so not a part start, the one after the
    // empty document is.
    let first = format!("k: {}\n", "v".repeat(58));
    for empty in ["---\n", "--- # c\n", "---\n# c\n"] {
        for rest in ["---", "---\na: 1\n", "---\n---\n"] {
            let text = format!("{first}{empty}{rest}{}", "\n# filler".repeat(20));
            let general = load_general(&text, Limits::default());
            let split = load_split(&text, Limits::default(), 64);
            assert_eq!(split, general, "{empty:?} {rest:?}");
        }
    }
}

#[test]
fn spans_after_a_directive_with_non_ascii_text_are_in_characters() {
    // saphyr counts a reserved directive's name and parameters in bytes
    // (found by fuzzing lint_bytes: a finding pointed past the end).
    for directive in [
        "%RESERVED é€ ünï",
        "%YAML 1.2 # é€",
        "%TAG ! tag:é.example.com,2000:",
        "%'# ��� # ��",
    ] {
        for eol in ["\n", "\r\n"] {
            let text = format!("{directive}{eol}---{eol}key: välue{eol}other: [é, x]{eol}");
            let loaded = load_general(&text, Limits::default());
            if !loaded.errors.is_empty() {
                continue;
            }
            let chars: Vec<char> = text.chars().collect();
            let at = |needle: &str| {
                let byte = text.find(needle).unwrap();
                text[..byte].chars().count() as u32
            };
            let root = &loaded.documents[0].root;
            let key = root.entry("other").unwrap();
            assert_eq!(key.key_span.start, at("other"), "{directive:?}");
            let x = &root.get("other").unwrap().as_seq().unwrap()[1];
            assert_eq!(x.span.start, at("x]"), "{directive:?}");
            assert!(root.span.end as usize <= chars.len());
            assert_eq!(load_split(&text, Limits::default(), 16), loaded);
        }
    }
}

/// The earlier key's line in the message, and the later value kept, also
/// past the key-map threshold and with many repeats.
#[test]
fn repeated_keys_name_the_first_line() {
    let mut text = String::from("a: 1\n");
    for i in 0..100 {
        text.push_str(&format!("k{i}: v\n"));
    }
    text.push_str("a: 2\na: 3\n");
    let l = load(&text, Limits::default());
    assert_eq!(l.errors.len(), 2);
    // Each repeat names the definition before it.
    assert!(l.errors[0].message.contains("line 1;"), "{:?}", l.errors);
    assert!(l.errors[1].message.contains("line 102;"), "{:?}", l.errors);
    let root = &l.documents[0].root;
    assert_eq!(root.get("a").and_then(|n| n.as_i64()), Some(3));
    assert_eq!(root.as_map().map(<[_]>::len), Some(101));
}

/// saphyr-parser counts flow levels in a u8: 256 nested `[` is the input
/// limit (DRA-E002), not a syntax error (DRA-E001).
#[test]
fn deep_flow_nesting_is_a_limit() {
    let text = format!("a: {}{}\n", "[".repeat(300), "]".repeat(300));
    let l = load(&text, Limits::default());
    assert_eq!(l.errors[0].kind, LoadErrorKind::TooDeep, "{:?}", l.errors);
}

/// A block value the shared loader remembers (issue 37) is reused only
/// where reading it again would pass the depth limit: the same lines met
/// deeper (under compact nested sequences, at the same column) are too
/// deep here, as they are to a plain load.
#[test]
fn a_remembered_value_keeps_the_depth_limit() {
    let value = format!("{}v: {{}}\n", " ".repeat(10));
    let shallow = format!("a:\n{}k:\n{value}", " ".repeat(8));
    let deep = format!("- - - - k:\n{value}");
    let text = format!("{shallow}---\n{deep}");
    for max_depth in [3, 4, 5, 6, 7, 256] {
        let limits = Limits {
            max_depth,
            ..Limits::default()
        };
        let plain = load(&text, limits);
        let shared = load(
            &text,
            Limits {
                share: true,
                ..limits
            },
        );
        assert_eq!(shared.errors, plain.errors, "max_depth {max_depth}");
        let json = |l: &Loaded| {
            l.documents
                .iter()
                .map(|d| d.root.to_json())
                .collect::<Vec<_>>()
        };
        assert_eq!(json(&shared), json(&plain), "max_depth {max_depth}");
    }
    // The deep document is read at all with room enough.
    let plain = load(&text, Limits::default());
    assert!(plain.errors.is_empty());
    assert_eq!(plain.documents.len(), 2);
}

#[test]
fn keys_that_are_not_strings_become_the_text_sigs_k8s_yaml_gives_them() {
    // convertToJSONableObject: ints by strconv.Itoa, floats by
    // FormatFloat(f, 'g', -1, 32), booleans as true/false.
    let root =
        one("010: a\n1.0: b\non: c\n1.5e6: d\n1000000000000000000000000000000000000: e\n.inf: f\n");
    let Value::Map(entries) = &root.value else {
        panic!("{root:?}")
    };
    let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["8", "1", "true", "1.5e+06", "1e+36", ".inf"]);
}

#[test]
fn a_null_key_is_refused_as_kubectl_refuses_it() {
    // sigs.k8s.io/yaml: "unsupported map key of type <nil>".
    for text in ["~: a\n", "a: {null: b}\n", "a:\n  ? \n  : b\n"] {
        let l = load(text, Limits::default());
        assert_eq!(l.errors.len(), 1, "{text:?}: {:?}", l.errors);
        assert_eq!(l.errors[0].kind, LoadErrorKind::ComplexKey, "{text:?}");
    }
}

#[test]
fn a_uint64_key_is_refused_as_kubectl_refuses_it() {
    // go-yaml v2 resolves these to uint64 (ParseInt fails, ParseUint
    // reads them); sigs.k8s.io/yaml: "unsupported map key of type: uint64".
    for text in [
        "18446744073709551615: a\n",
        "a: {0xFFFFFFFFFFFFFFFF: b}\n",
        "a:\n  9_223_372_036_854_775_808: b\n",
        "a:\n  01777777777777777777777: b\n",
    ] {
        let l = load(text, Limits::default());
        assert_eq!(l.errors.len(), 1, "{text:?}: {:?}", l.errors);
        assert_eq!(l.errors[0].kind, LoadErrorKind::ComplexKey, "{text:?}");
    }
    // An int64, a value, a quoted key, a sign, or past uint64 (a float
    // then, "1.8446744e+19") are no uint64 keys.
    for text in [
        "9223372036854775807: a\n",
        "a: 18446744073709551615\n",
        "'18446744073709551615': a\n",
        "-18446744073709551615: a\n",
        "18446744073709551616: a\n",
        "!!str 18446744073709551615: a\n",
    ] {
        let l = load(text, Limits::default());
        assert!(l.errors.is_empty(), "{text:?}: {:?}", l.errors);
    }
}

#[test]
fn explicit_tags_as_go_yaml_decodes_them() {
    let root = one("a: !!int \"5\"\nb: !foo 5\nc: !!binary aGVsbG8=\nd: !!float 2\ne: ! true\nf: !<tag:yaml.org,2002:bool> 'on'\n");
    assert_eq!(
        root.to_json(),
        serde_json::json!({"a": 5, "b": "5", "c": "hello", "d": 2.0, "e": "true", "f": true})
    );
    // go-yaml fails the document: "cannot decode !!str `abc` as a !!int".
    for text in [
        "a: !!int abc\n",
        "a: !!binary '%%%'\n",
        "a: !!null x\n",
        "!!bool 1: a\n",
    ] {
        let l = load(text, Limits::default());
        assert_eq!(l.errors.len(), 1, "{text:?}: {:?}", l.errors);
        assert_eq!(l.errors[0].kind, LoadErrorKind::BadTag, "{text:?}");
    }
    // A tagged !!int key past int64 is a uint64 too; a custom tag keeps text.
    let l = load("!!int 18446744073709551615: a\n", Limits::default());
    assert_eq!(l.errors[0].kind, LoadErrorKind::ComplexKey);
    assert!(load("!x 18446744073709551615: a\n", Limits::default())
        .errors
        .is_empty());
}
