//! Rendered Helm charts: `helm template` names each document's template in
//! a `# Source: CHART/templates/FILE.yaml` comment. Such a stream is linted
//! as one part per document, named after its template, so that every output
//! format (text, JSON, SARIF URIs, GitHub annotations) points at the
//! template, with the line within the rendered document; each finding says
//! that it is in rendered output and where in the stream it is.

/// One document of a rendered stream.
#[derive(Debug, PartialEq)]
pub struct Part {
    /// The template path (or the stream's name for a document with none).
    pub name: String,
    pub text: String,
    /// For a document with a `# Source:`: the stream's 1-based line where
    /// the document starts.
    pub rendered_at: Option<u32>,
}

/// The path a document's leading `# Source:` comment names.
fn source_of(doc: &str) -> Option<&str> {
    for line in doc.lines() {
        let t = line.trim();
        if let Some(path) = t.strip_prefix("# Source:") {
            let path = path.trim();
            return (!path.is_empty()).then_some(path);
        }
        // Only the comments before the document's content.
        if !(t.is_empty() || t.starts_with('#')) {
            return None;
        }
    }
    None
}

/// The documents of `text` when any names its template, else `None` (the
/// stream is linted as it is).
pub fn split(name: &str, text: &str) -> Option<Vec<Part>> {
    if !text.contains("# Source:") {
        return None;
    }
    // Documents start after a `---` line (and the first at line 1).
    let mut parts: Vec<(u32, String)> = vec![(1, String::new())];
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" || bare.starts_with("--- ") {
            parts.push((i as u32 + 2, String::new()));
            continue;
        }
        if let Some(last) = parts.last_mut() {
            last.1.push_str(line);
        }
    }
    if !parts.iter().any(|(_, doc)| source_of(doc).is_some()) {
        return None;
    }
    Some(
        parts
            .into_iter()
            .filter(|(_, doc)| !doc.trim().is_empty())
            .map(|(start, doc)| match source_of(&doc) {
                Some(path) => Part {
                    name: path.to_owned(),
                    rendered_at: Some(start),
                    text: doc,
                },
                // Kept at its own lines of the stream: padded to them.
                None => Part {
                    name: name.to_owned(),
                    text: "\n".repeat(start as usize - 1) + &doc,
                    rendered_at: None,
                },
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_named_after_their_templates() {
        let text = "---\n# Source: c/templates/a.yaml\nkind: A\n---\nkind: B\n---\n# Source: c/templates/c.yaml\n# more\nkind: C\n";
        let parts = split("<stdin>", text).unwrap();
        let got: Vec<(&str, Option<u32>)> = parts
            .iter()
            .map(|p| (p.name.as_str(), p.rendered_at))
            .collect();
        assert_eq!(
            got,
            [
                ("c/templates/a.yaml", Some(2)),
                ("<stdin>", None),
                ("c/templates/c.yaml", Some(7))
            ]
        );
        // A document without a template keeps its lines in the stream.
        assert_eq!(parts[1].text.lines().nth(4), Some("kind: B"));
        assert!(split("x", "kind: A\n").is_none());
        // `# Source:` inside a document's content is not its template.
        assert!(split("x", "kind: A\n# Source: c/t.yaml\n").is_none());
    }
}
