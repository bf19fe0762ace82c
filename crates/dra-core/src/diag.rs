//! Findings as data. Checks report [`Diagnostic`]s; only the CLI renders them.

use std::fmt;

use serde::Serialize;

use crate::tree::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// The apiserver's field error type (`k8s.io/apimachinery/pkg/util/validation/field`),
/// or `Dropped` for a field stripped because its gate is off, or `Warning` for
/// a finding only a linter can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ErrorType {
    Required,
    Invalid,
    TooMany,
    TooLong,
    Duplicate,
    NotSupported,
    Forbidden,
    TypeInvalid,
    NotFound,
    Dropped,
    Warning,
    /// `field.InternalError`: what the apiserver could not do (a CEL program
    /// that cannot be built).
    InternalError,
    /// Not an error: the registry strategy resets the field on create and
    /// update (PrepareForCreate, GetResetFields), so the object is not stored
    /// as written.
    Reset,
}

impl ErrorType {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Required => "Required",
            ErrorType::Invalid => "Invalid",
            ErrorType::TooMany => "TooMany",
            ErrorType::TooLong => "TooLong",
            ErrorType::Duplicate => "Duplicate",
            ErrorType::NotSupported => "NotSupported",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TypeInvalid => "TypeInvalid",
            ErrorType::NotFound => "NotFound",
            ErrorType::Dropped => "Dropped",
            ErrorType::Warning => "Warning",
            ErrorType::InternalError => "InternalError",
            ErrorType::Reset => "Reset",
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which object a finding is about, as `kubectl` names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ObjectRef {
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: Option<String>,
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        match (&self.namespace, &self.name) {
            (Some(ns), Some(n)) => write!(f, " {ns}/{n}"),
            (None, Some(n)) => write!(f, " {n}"),
            _ => Ok(()),
        }
    }
}

/// A secondary place a finding points at ("... and devices here").
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    /// Set when the label is in another file than the primary span.
    pub file: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// The rule id, e.g. `DRA-V071`.
    pub rule: &'static str,
    pub severity: Severity,
    pub error_type: ErrorType,
    /// The apiserver's field path, e.g. `spec.devices[0].name`; empty for file-level findings.
    pub field: String,
    pub message: String,
    /// What the caret under the primary span says.
    pub label: Option<String>,
    /// Extra lines: what it means and what to do.
    pub notes: Vec<String>,
    pub span: Span,
    pub secondary: Vec<Label>,
    /// Index of the file in the lint run.
    pub file: usize,
    /// 0-based index of the YAML document in its file.
    pub document: usize,
    pub object: Option<ObjectRef>,
}

impl Diagnostic {
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }
}

/// Totals for a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub objects: usize,
    /// YAML documents that are no Kubernetes object, skipped.
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
}
