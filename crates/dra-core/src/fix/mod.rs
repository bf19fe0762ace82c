//! The fixes rules declare (the rule's `fix:`): what each reads and the
//! minimal edits it makes for a finding. A fix is safe (certain to keep what
//! the user meant) or unsafe (applied with `--unsafe-fixes`). Offering and
//! applying them, linting again after each, is `lint --fix`
//! ([`crate::lint::fixes`]), so that rules can name their fixes without this
//! module depending on the linter.

pub mod builders;

use serde::Serialize;

use crate::diag::Diagnostic;
use crate::gates::FeatureGates;
use crate::migrate::edit::{Edit, Source};
use crate::model::{parse_file, Object};
use crate::tree::{Entry, Node, Span, Value};

/// Whether a fix may be applied without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps what the manifest means (or what it evidently meant).
    Safe,
    /// Changes what the manifest means: `--unsafe-fixes`.
    Unsafe,
}

/// A rule's fix.
pub struct FixSpec {
    pub applicability: Applicability,
    /// What the fix does, in a few words.
    pub description: &'static str,
    /// The edits for one finding of the rule, when this finding can be
    /// fixed.
    pub build: fn(&FixInput<'_>, &Diagnostic) -> Option<Vec<Edit>>,
}

/// What a fix may read: the file as written (parsed again: before the
/// conversion and the dropping of gated fields) and the target release.
pub struct FixInput<'a> {
    pub src: Source<'a>,
    pub objects: Vec<Object>,
    pub gates: &'a FeatureGates,
    /// Byte ranges of the nodes aliases repeat.
    pub shared: Vec<(usize, usize)>,
}

impl<'a> FixInput<'a> {
    pub fn new(text: &'a str, gates: &'a FeatureGates) -> Self {
        let parsed = parse_file(0, text, Default::default());
        let src = Source::new(text);
        let shared = src.byte_ranges(&parsed.shared);
        FixInput {
            src,
            objects: parsed.objects,
            gates,
            shared,
        }
    }

    /// The object a finding is about.
    pub fn object(&self, d: &Diagnostic) -> Option<&Object> {
        let r = d.object.as_ref()?;
        // Objects come in document order: the finding's document is found
        // by bisection, not by a scan per finding.
        let first = self.objects.partition_point(|o| o.document < d.document);
        self.objects[first..]
            .iter()
            .take_while(|o| o.document == d.document)
            .find(|o| &o.reference == r)
    }

    /// The node whose span is `span`, in the finding's object.
    pub fn node_at(&self, d: &Diagnostic, span: Span) -> Option<&Node> {
        let mut stack = vec![&self.object(d)?.root];
        while let Some(n) = stack.pop() {
            if n.span == span {
                return Some(n);
            }
            match &n.value {
                Value::Seq(items) => stack.extend(items.iter()),
                Value::Map(entries) => stack.extend(entries.iter().map(|e| &e.value)),
                _ => {}
            }
        }
        None
    }

    /// The mapping entry whose key is at `span`, with the mapping.
    pub fn entry_at(&self, d: &Diagnostic, span: Span) -> Option<(&Node, &Entry)> {
        let mut stack = vec![&self.object(d)?.root];
        while let Some(n) = stack.pop() {
            match &n.value {
                Value::Seq(items) => stack.extend(items.iter()),
                Value::Map(entries) => {
                    if let Some(e) = entries.iter().find(|e| e.key_span == span) {
                        return Some((n, e));
                    }
                    stack.extend(entries.iter().map(|e| &e.value));
                }
                _ => {}
            }
        }
        None
    }
}
