//! `lint --fix`: the fixes the findings of a run offer, and applying them
//! as minimal edits of the files. Every fix is checked by linting again: one
//! after which a finding appears that was not there before is not applied.

use super::{lint_with, registry, Settings, SourceFile, Undecodable};
use crate::diag::Diagnostic;
use crate::fix::{Applicability, FixInput};
use crate::gates::FeatureGates;
use crate::migrate::edit::{self, Edit};
use crate::tree::LineIndex;

/// A fix offered for a finding.
#[derive(Clone, Debug)]
pub struct Offer {
    /// Index of the finding in the run's diagnostics.
    pub diagnostic: usize,
    pub file: usize,
    pub rule: &'static str,
    pub applicability: Applicability,
    pub description: &'static str,
    pub edits: Vec<Edit>,
    /// The edits change YAML an alias repeats (`&anchor` ... `*anchor`):
    /// never applied, since it would change the other objects too.
    pub through_alias: bool,
}

/// The fixes the findings of a run offer, in finding order.
pub fn offers(
    files: &[SourceFile],
    diagnostics: &[Diagnostic],
    gates: &FeatureGates,
) -> Vec<Offer> {
    let mut inputs: Vec<Option<FixInput<'_>>> = (0..files.len()).map(|_| None).collect();
    let mut out = Vec::new();
    for (i, d) in diagnostics.iter().enumerate() {
        let Some(spec) = registry::find(d.rule).and_then(|r| r.fix) else {
            continue;
        };
        let Some(file) = files.get(d.file) else {
            continue;
        };
        let input = inputs[d.file].get_or_insert_with(|| FixInput::new(&file.text, gates));
        if let Some(edits) = (spec.build)(input, d).filter(|e| !e.is_empty()) {
            let through_alias = edit::touches_shared(&edits, &input.shared);
            out.push(Offer {
                through_alias,
                diagnostic: i,
                file: d.file,
                rule: d.rule,
                applicability: spec.applicability,
                description: spec.description,
                edits,
            });
        }
    }
    out
}

/// A fix applied (or refused), for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub file: usize,
    pub rule: &'static str,
    /// 1-based line of the finding it fixed.
    pub line: u32,
    pub description: &'static str,
}

/// The files after `--fix`, and what was done.
#[derive(Debug, Default)]
pub struct FixRun {
    pub texts: Vec<String>,
    pub applied: Vec<Applied>,
    /// Fixes not applied: they would have brought a new finding.
    pub refused: Vec<Applied>,
    /// Fixes not applied: they would edit YAML that aliases repeat.
    pub through_alias: Vec<Applied>,
}

/// How many times `--fix` may lint the files again to check its fixes.
const MAX_LINT_RUNS: usize = 64;

/// A finding, positions left out (edits move them).
fn key(d: &Diagnostic) -> (String, usize, String, String, String) {
    (
        d.rule.to_owned(),
        d.file,
        d.object
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
        d.field.clone(),
        d.message.clone(),
    )
}

/// Applies the fixes the findings offer (unsafe ones too when
/// `unsafe_fixes`), each only if linting the result finds nothing that was
/// not found before.
pub fn run(files: &[SourceFile], settings: &Settings, unsafe_fixes: bool) -> FixRun {
    let before = lint_with(files, Vec::new(), settings, Undecodable::Checked);
    let mut offers: Vec<Offer> = offers(files, &before.diagnostics, &settings.gates)
        .into_iter()
        .filter(|o| unsafe_fixes || o.applicability == Applicability::Safe)
        .collect();
    // Several findings may offer the same edits (one conversion for the
    // whole object): keep the first.
    let mut seen: Vec<(usize, Vec<Edit>)> = Vec::new();
    offers.retain(|o| {
        let k = (o.file, o.edits.clone());
        !seen.contains(&k) && {
            seen.push(k);
            true
        }
    });
    let (shared, offers): (Vec<Offer>, Vec<Offer>) =
        offers.into_iter().partition(|o| o.through_alias);
    // A set: the check runs over every finding of every lint run.
    let known: std::collections::HashSet<_> = before.diagnostics.iter().map(key).collect();
    // One line index per file, built when a fix of it is reported (one per
    // offer made --fix quadratic in the number of fixes).
    let indexes: Vec<std::cell::OnceCell<LineIndex>> =
        files.iter().map(|_| std::cell::OnceCell::new()).collect();
    let line = |o: &Offer| {
        let d = &before.diagnostics[o.diagnostic];
        indexes[o.file]
            .get_or_init(|| LineIndex::new(&files[o.file].text))
            .line_col(d.span.start)
            .0
    };
    let applied_of = |o: &Offer| Applied {
        file: o.file,
        rule: o.rule,
        line: line(o),
        description: o.description,
    };
    // Texts with the given offers applied, or None when edits overlap.
    let with = |chosen: &[&Offer]| -> Option<Vec<SourceFile>> {
        files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let edits: Vec<Edit> = chosen
                    .iter()
                    .filter(|o| o.file == i)
                    .flat_map(|o| o.edits.iter().cloned())
                    .collect();
                Some(SourceFile {
                    name: f.name.clone(),
                    text: edit::apply(&f.text, &edits)?,
                })
            })
            .collect()
    };
    let clean = |candidate: &[SourceFile]| {
        lint_with(candidate, Vec::new(), settings, Undecodable::Checked)
            .diagnostics
            .iter()
            .all(|d| known.contains(&key(d)))
    };
    // All at once; when that brings a new finding, halves, each tried on
    // top of what is kept (so a few bad fixes cost a few lint runs each,
    // not one run per fix), with a bound on the runs.
    let mut chosen: Vec<&Offer> = Vec::new();
    let mut refused = Vec::new();
    let mut runs = 0usize;
    let mut todo: Vec<Vec<&Offer>> = vec![offers.iter().collect()];
    while let Some(group) = todo.pop() {
        if group.is_empty() {
            continue;
        }
        if runs >= MAX_LINT_RUNS {
            refused.extend(group.iter().map(|o| applied_of(o)));
            continue;
        }
        runs += 1;
        let mut next = chosen.clone();
        next.extend(group.iter().copied());
        match with(&next) {
            Some(candidate) if clean(&candidate) => chosen = next,
            _ if group.len() == 1 => refused.push(applied_of(group[0])),
            _ => {
                let (a, b) = group.split_at(group.len() / 2);
                // Popped first: the first half.
                todo.push(b.to_vec());
                todo.push(a.to_vec());
            }
        }
    }
    // Keep the fixes in file order.
    chosen.sort_by_key(|o| o.diagnostic);
    let texts = with(&chosen)
        .map(|fs| fs.into_iter().map(|f| f.text).collect())
        .unwrap_or_else(|| files.iter().map(|f| f.text.clone()).collect());
    FixRun {
        texts,
        applied: chosen.iter().map(|o| applied_of(o)).collect(),
        refused,
        through_alias: shared.iter().map(applied_of).collect(),
    }
}
