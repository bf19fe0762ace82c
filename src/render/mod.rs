//! Renderers: the only place findings become text. Each format has its own
//! file and its own snapshot tests.

pub mod github;
pub mod json;
pub mod sarif;
pub mod text;

use dra_core::diag::{Diagnostic, Summary};
use dra_core::gates::FeatureGates;

/// Everything a renderer needs about a finished lint run.
pub struct Report<'a> {
    /// Display names of the files, by file index.
    pub names: &'a [String],
    /// File texts, by file index (empty for unreadable files).
    pub texts: &'a [String],
    pub diagnostics: &'a [Diagnostic],
    pub summary: Summary,
    pub gates: &'a FeatureGates,
}

impl Report<'_> {
    pub fn file_name(&self, d: &Diagnostic) -> &str {
        self.names.get(d.file).map_or("<unknown>", String::as_str)
    }

    /// "Kubernetes 1.37, default gates" or "..., gates: A=true".
    pub fn target(&self) -> String {
        let overrides: Vec<String> = self
            .gates
            .overrides()
            .map(|(g, on)| format!("{g}={on}"))
            .collect();
        if overrides.is_empty() {
            format!("Kubernetes {}, default gates", self.gates.version)
        } else {
            format!(
                "Kubernetes {}, gates {}",
                self.gates.version,
                overrides.join(",")
            )
        }
    }
}

/// Converts a character index into a byte offset of `text`.
pub fn byte_offset(text: &str, char_index: u32) -> usize {
    text.char_indices()
        .nth(char_index as usize)
        .map_or(text.len(), |(b, _)| b)
}
