//! Suppression comments: one grammar for the comments, `--select`,
//! `--ignore` and the config file, three scopes, and every code that names
//! no rule or suppresses nothing reported (ruff's RUF100 is the model).
//!
//! ```yaml
//! # kubectl-dra: ignore-file=DRA-A001        every finding of the file
//! # kubectl-dra: ignore=DRA-V209, unguarded-attribute-lookup
//! #                                          the object the comment is in
//! name: x  # kubectl-dra: ignore-line=DRA-V001   this line; alone on a
//! #                                          line, the next line
//! ```
//!
//! Codes are rule ids (`DRA-V209`), id prefixes (`DRA-V2`, `dra-v`), rule
//! names (`unguarded-attribute-lookup`) or `all`, in any case, separated by
//! commas or spaces; a further `#` starts a remark on why.

use crate::diag::{Diagnostic, ObjectRef};
use crate::model::Object;
use crate::sources::SourceFile;

use super::{input_diag, rules, Selection, Settings};
use crate::tree::{LineIndex, Span};

use super::registry::{RETIRED, RULES};

/// What a code stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Codes {
    All,
    /// The rule ids it names (one for an id or a name, more for a prefix).
    Ids(Vec<&'static str>),
}

impl Codes {
    pub fn covers(&self, rule: &str) -> bool {
        match self {
            Codes::All => true,
            Codes::Ids(ids) => ids.contains(&rule),
        }
    }
}

/// Reads one code: `all`, a rule id or id prefix, or a rule name, in any
/// case. `None` when it names no rule.
///
/// ```
/// use dra_core::lint::suppress::{resolve, Codes};
/// assert_eq!(resolve("invalid-device-class-name"), Some(Codes::Ids(vec!["DRA-V140"])));
/// assert_eq!(resolve("dra-v140"), resolve("DRA-V140"));
/// assert_eq!(resolve("DRA-"), None);
/// // Retired: accepted, and stands for no rule.
/// assert_eq!(resolve("DRA-A003"), Some(Codes::Ids(vec![])));
/// ```
pub fn resolve(code: &str) -> Option<Codes> {
    let code = code.trim();
    if code.eq_ignore_ascii_case("all") {
        return Some(Codes::All);
    }
    if let Some(r) = RULES.iter().find(|r| r.name.eq_ignore_ascii_case(code)) {
        return Some(Codes::Ids(vec![r.id]));
    }
    // A retired rule names nothing to suppress, but a config written for an
    // earlier kubectl-dra must not stop working.
    if RETIRED
        .iter()
        .any(|(id, name, _)| id.eq_ignore_ascii_case(code) || name.eq_ignore_ascii_case(code))
    {
        return Some(Codes::Ids(Vec::new()));
    }
    // A prefix must at least name the family: `DRA-` alone would be `all`
    // spelt differently, and a bare `D` a typo.
    if code.len() < 5
        || !code
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("DRA-"))
    {
        return None;
    }
    let ids: Vec<&'static str> = RULES
        .iter()
        .filter(|r| {
            r.id.get(..code.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(code))
        })
        .map(|r| r.id)
        .collect();
    (!ids.is_empty()).then_some(Codes::Ids(ids))
}

/// Reads a list of codes (`--select`, `--ignore`, the config file) into the
/// rule ids they stand for, or the first code that names no rule.
pub fn resolve_all(codes: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for c in codes {
        match resolve(c) {
            Some(Codes::All) => out.push("DRA-".to_owned()),
            Some(Codes::Ids(ids)) => out.extend(ids.into_iter().map(str::to_owned)),
            None => return Err(c.trim().to_owned()),
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `ignore-line=`: findings that start on `line`.
    Line(u32),
    /// `ignore=`: findings of the object whose lines hold the comment.
    Object,
    /// `ignore-file=`: every finding of the file.
    File,
}

/// One code of a comment.
#[derive(Clone, Debug)]
pub struct Code {
    pub text: String,
    pub span: Span,
    pub codes: Option<Codes>,
}

/// One suppression comment.
#[derive(Clone, Debug)]
pub struct Directive {
    pub scope: Scope,
    /// The 1-based line of the comment.
    pub line: u32,
    pub codes: Vec<Code>,
    /// The span of the directive's word (for a word that is not one).
    pub span: Span,
    /// The word, when it is no directive (`ignroe=`).
    pub unknown: Option<String>,
}

/// How many suppression comments one file may hold (each is matched
/// against every finding of the file).
const MAX_DIRECTIVES: usize = 10_000;

/// The suppression comments of a file's text.
pub fn parse(text: &str, index: &LineIndex) -> Vec<Directive> {
    let mut out = Vec::new();
    if !text.contains("kubectl-dra:") {
        return out;
    }
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if out.len() >= MAX_DIRECTIVES {
            break;
        }
        let Some(hash) = comment_start(line) else {
            continue;
        };
        let comment = &line[hash + 1..];
        let Some(at) = comment.find("kubectl-dra:") else {
            continue;
        };
        // Only the comment's own first word: `# see kubectl-dra: ...` in
        // prose is not a directive.
        if !comment[..at].trim().is_empty() {
            continue;
        }
        let rest_at = hash + 1 + at + "kubectl-dra:".len();
        let rest = line[rest_at..].trim_end_matches(['\n', '\r']);
        let word_len = rest.len() - rest.trim_start().len();
        let body = rest.trim_start();
        let (word, codes_text, codes_at) = match body.find(['=', ':']) {
            Some(eq) => (
                body[..eq].trim(),
                &body[eq + 1..],
                rest_at + word_len + eq + 1,
            ),
            None => (body.trim(), "", rest_at + rest.len()),
        };
        let line_no = i as u32 + 1;
        let alone = line[..hash].trim().is_empty();
        let scope = match word.to_ascii_lowercase().as_str() {
            "ignore" => Some(Scope::Object),
            "ignore-file" => Some(Scope::File),
            "ignore-line" if alone => Some(Scope::Line(line_no + 1)),
            "ignore-line" => Some(Scope::Line(line_no)),
            _ => None,
        };
        let word_at = rest_at + word_len;
        let word_span = span_of(index, line_no, line, word_at, word.len());
        // A further `#` starts a remark: `ignore=DRA-V001  # why`.
        let codes_text = codes_text.split('#').next().unwrap_or_default();
        let mut codes = Vec::new();
        let mut at = 0usize;
        for piece in codes_text.split([',', ' ', '\t']) {
            let here = at;
            at += piece.len() + 1;
            if piece.trim().is_empty() {
                continue;
            }
            codes.push(Code {
                text: piece.trim().to_owned(),
                span: span_of(index, line_no, line, codes_at + here, piece.len()),
                codes: resolve(piece),
            });
        }
        out.push(Directive {
            scope: scope.unwrap_or(Scope::Object),
            line: line_no,
            codes,
            span: word_span,
            unknown: scope.is_none().then(|| word.to_owned()),
        });
    }
    out
}

/// Where a line's comment starts: a `#` at the line's start or after
/// blank space, outside quotes (YAML's rule).
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let (mut single, mut double) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'\\' if double => {}
            b'#' if !single && !double && (i == 0 || bytes[i - 1].is_ascii_whitespace()) => {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// The span of `len` bytes at byte `at` of line `line_no` (1-based), in
/// characters as every span counts.
fn span_of(index: &LineIndex, line_no: u32, line: &str, at: usize, len: usize) -> Span {
    let base = index.index_of(line_no, 1).unwrap_or(0);
    let at = at.min(line.len());
    let end = (at + len).min(line.len());
    let start = base + line.get(..at).map_or(0, |s| s.chars().count()) as u32;
    let chars = line.get(at..end).map_or(0, |s| s.chars().count()) as u32;
    Span::new(start, start + chars)
}

/// One file's directives, and which codes suppressed something.
pub struct FileSuppressions {
    pub directives: Vec<Directive>,
    /// Per directive, per code: whether it suppressed a finding.
    pub used: Vec<Vec<bool>>,
}

impl FileSuppressions {
    pub fn new(directives: Vec<Directive>) -> Self {
        let used = directives
            .iter()
            .map(|d| vec![false; d.codes.len()])
            .collect();
        Self { directives, used }
    }

    /// Whether a finding is suppressed; `line` is its first line, and
    /// `object_lines` the lines of the object it is about (when known).
    /// Every code that covers it counts as used.
    pub fn suppresses(
        &mut self,
        d: &Diagnostic,
        line: u32,
        object_lines: Option<(u32, u32)>,
    ) -> bool {
        let mut hit = false;
        for (i, dir) in self.directives.iter().enumerate() {
            if dir.unknown.is_some() {
                continue;
            }
            let applies = match dir.scope {
                Scope::File => true,
                Scope::Line(l) => l == line,
                Scope::Object => object_lines.is_some_and(|(a, b)| a <= dir.line && dir.line <= b),
            };
            if !applies {
                continue;
            }
            for (j, c) in dir.codes.iter().enumerate() {
                if c.codes.as_ref().is_some_and(|codes| codes.covers(d.rule)) {
                    self.used[i][j] = true;
                    hit = true;
                }
            }
        }
        hit
    }
}

/// Drops the findings that `# kubectl-dra: ignore...` comments suppress,
/// and reports the comments' codes that name no rule (DRA-X002) or
/// suppress nothing (DRA-X001) among the rules selected.
pub(super) fn apply(
    sources: &[SourceFile],
    objects: &[Object],
    diagnostics: &mut Vec<Diagnostic>,
    settings: &Settings,
) {
    let mut per_file: Vec<Option<(FileSuppressions, crate::tree::LineIndex)>> = sources
        .iter()
        .map(|s| {
            if !s.text.contains("kubectl-dra:") {
                return None;
            }
            let index = crate::tree::LineIndex::new(&s.text);
            let found = parse(&s.text, &index);
            (!found.is_empty()).then(|| (FileSuppressions::new(found), index))
        })
        .collect();
    if per_file.iter().all(Option::is_none) {
        return;
    }
    diagnostics.retain(|d| {
        let Some(Some((sup, index))) = per_file.get_mut(d.file) else {
            return true;
        };
        let line = index.line_col(d.span.start).0;
        // The object the finding is about: the one of its document with the
        // same reference (a List holds several per document).
        let object = objects
            .iter()
            .filter(|o| o.file == d.file && o.document == d.document)
            .find(|o| same_object(o, d))
            .map(|o| o.lines);
        !sup.suppresses(d, line, object)
    });
    for (file, entry) in per_file.into_iter().enumerate() {
        let Some((sup, _)) = entry else { continue };
        let selection = settings.selection_for(file);
        for (i, dir) in sup.directives.iter().enumerate() {
            if let Some(word) = &dir.unknown {
                if selection.allows(rules::x002_unknown_suppression::RULE.id) {
                    diagnostics.push(input_diag(
                        rules::x002_unknown_suppression::RULE.id,
                        file,
                        0,
                        dir.span,
                        format!(
                            "unknown directive {word:?}: use ignore=, ignore-line= or ignore-file="
                        ),
                    ));
                }
                continue;
            }
            for (j, code) in dir.codes.iter().enumerate() {
                let (id, message) = match &code.codes {
                    None => (
                        rules::x002_unknown_suppression::RULE.id,
                        format!("{:?} names no rule (see `kubectl dra rules`)", code.text),
                    ),
                    Some(codes) if !sup.used[i][j] && selected(codes, selection) => (
                        rules::x001_unused_suppression::RULE.id,
                        format!(
                            "unused suppression: no {} finding {}",
                            code.text,
                            scope_words(dir.scope)
                        ),
                    ),
                    Some(_) => continue,
                };
                if selection.allows(id) {
                    diagnostics.push(input_diag(id, file, 0, code.span, message));
                }
            }
        }
    }
}

/// Whether every rule a code stands for is selected (a code for a rule the
/// run leaves out cannot be found unused).
fn selected(codes: &Codes, selection: &Selection) -> bool {
    match codes {
        Codes::All => selection.select.is_none() && selection.ignore.is_empty(),
        Codes::Ids(ids) => ids.iter().all(|id| selection.allows(id)),
    }
}

fn scope_words(scope: Scope) -> String {
    match scope {
        Scope::File => "in this file".to_owned(),
        Scope::Object => "in this object".to_owned(),
        Scope::Line(l) => format!("on line {l}"),
    }
}

fn same_object(o: &Object, d: &Diagnostic) -> bool {
    d.object
        .as_ref()
        .is_none_or(|r: &ObjectRef| *r == o.reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_ids_prefixes_names_or_all_in_any_case() {
        assert_eq!(resolve("DRA-E004"), Some(Codes::Ids(vec!["DRA-E004"])));
        assert_eq!(resolve("dra-e004"), Some(Codes::Ids(vec!["DRA-E004"])));
        assert_eq!(resolve("Not-An-Object"), Some(Codes::Ids(vec!["DRA-E004"])));
        assert_eq!(resolve("ALL"), Some(Codes::All));
        let Some(Codes::Ids(e)) = resolve("dra-e") else {
            panic!()
        };
        assert!(e.len() >= 5 && e.iter().all(|id| id.starts_with("DRA-E")));
        assert_eq!(resolve("DRA-"), None);
        assert_eq!(resolve("DRA-Z9"), None);
        assert_eq!(resolve("V209"), None);
        assert_eq!(resolve("not-a-rule"), None);
        assert_eq!(
            resolve_all(&["not-an-object".into()]),
            Ok(vec!["DRA-E004".to_owned()])
        );
        assert_eq!(resolve_all(&["x".into()]), Err("x".to_owned()));
    }

    #[test]
    fn scopes_and_spans() {
        let text = "# kubectl-dra: ignore-file=dra-a001\nkind: X # kubectl-dra: ignore-line = DRA-E004, nope\n# kubectl-dra: ignore-line=all\nname: 'a # kubectl-dra: ignore=DRA-E004'\n# kubectl-dra: ignroe=DRA-E004\n#   kubectl-dra:ignore=DRA-E003 DRA-E001\n# see kubectl-dra: ignore=all\n";
        let index = LineIndex::new(text);
        let d = parse(text, &index);
        assert_eq!(d.len(), 5, "{d:?}");
        assert_eq!(d[0].scope, Scope::File);
        assert_eq!(d[1].scope, Scope::Line(2));
        assert_eq!(d[1].codes.len(), 2);
        assert_eq!(d[1].codes[1].text, "nope");
        assert!(d[1].codes[1].codes.is_none());
        let s = d[1].codes[1].span;
        assert_eq!(&text[s.start as usize..s.end as usize], "nope");
        assert_eq!(d[2].scope, Scope::Line(4));
        assert_eq!(d[3].unknown.as_deref(), Some("ignroe"));
        assert_eq!(d[4].scope, Scope::Object);
        assert_eq!(d[4].codes.len(), 2);
    }

    #[test]
    fn a_remark_after_the_codes_is_no_code() {
        let text = "name: x  # kubectl-dra: ignore-line=DRA-V001, DRA-V002  # kept: see #12\n";
        let d = parse(text, &LineIndex::new(text));
        let codes: Vec<&str> = d[0].codes.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(codes, ["DRA-V001", "DRA-V002"]);
    }
}
