//! The lint engine: load files, decode and drop as the apiserver would, run
//! every registered rule, and filter by selection and suppression comments.
//!
//! Rules live one per file in [`rules`]; [`registry::RULES`] is the one list.

pub mod fixes;
mod prepare;
pub mod registry;
pub mod rules;
pub(crate) mod status_parts;
pub mod suppress;
mod update;
pub mod walk;

use crate::diag::{Diagnostic, ErrorType, Label, ObjectRef, Severity, Summary};
use crate::gates::FeatureGates;
use crate::model::{self, ApiVersion, DocumentProblem, Object, ObjectKind};
use crate::schema::{self, ShapeFinding};
use crate::tree::Span;
use crate::yaml::{Limits, LoadErrorKind};

// The loader and its input type live with the sources; lint re-exports
// them for the callers that know them from here.
pub use crate::sources::{load_objects, LoadProblem, SourceFile};

/// Where a rule's verdict comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The file could not be read as Kubernetes objects.
    Input,
    /// kube-apiserver decoding or field stripping.
    Decode,
    /// kube-apiserver validation: the object is rejected.
    Apiserver,
    /// Only a linter holding several objects can see it.
    Linter,
    /// kube-apiserver authorization: the request is forbidden at run time.
    Authorization,
}

impl Origin {
    pub fn describe(self) -> &'static str {
        match self {
            Origin::Input => "input",
            Origin::Decode => "apiserver decoding",
            Origin::Apiserver => "apiserver validation",
            Origin::Linter => "cross-object (linter only)",
            Origin::Authorization => "apiserver authorization",
        }
    }
}

pub type ObjectCheck = fn(&Ctx<'_>, &Object, &mut Sink<'_>);
pub type RunCheck = fn(&Ctx<'_>, &mut Sink<'_>);
/// A status write: the object as written, and the stored object it updates
/// (`None`: the object as created, with no status yet).
pub type StatusCheck = fn(&Ctx<'_>, &Object, Option<&Object>, &mut Sink<'_>);

#[derive(Clone, Copy)]
pub enum Check {
    /// Reported by the loading or decoding pass, not by a function of its own.
    Loader,
    /// Runs once per object of these kinds.
    Object(&'static [ObjectKind], ObjectCheck),
    /// Runs once over all objects (cross-object rules).
    Run(RunCheck),
    /// Runs once per object of these kinds, and only for status writes
    /// (`lint --subresource status`), when no other check runs.
    Status(&'static [ObjectKind], StatusCheck),
}

/// A lint rule: its id, documentation and check.
pub struct Rule {
    pub id: &'static str,
    /// kebab-case, naming the problem.
    pub name: &'static str,
    pub severity: Severity,
    pub origin: Origin,
    /// The Kubernetes releases the rule applies to, as checked against each
    /// release's validation code: "1.34+", "1.35+", "1.34" (one release), or
    /// "1.34+" with the limit or values differing by release (its docs say how).
    pub releases: &'static str,
    /// One line: what is wrong.
    pub summary: &'static str,
    /// Why it matters and what to do, in a few sentences.
    pub docs: &'static str,
    /// A manifest fragment that triggers the rule.
    pub example: &'static str,
    pub check: Check,
    /// The rule's automatic fix, when it has one (`lint --fix`).
    pub fix: Option<&'static crate::fix::FixSpec>,
}

/// What the rules may read: the objects as they would be stored, and the gates.
pub struct Ctx<'a> {
    pub gates: &'a FeatureGates,
    pub objects: &'a [Object],
    pub sources: &'a [SourceFile],
    /// Each distinct selector compiled once for every rule that needs it.
    pub cel: std::sync::Mutex<crate::cel::Cache>,
    pub cel_env: crate::cel::Env,
    /// Devices of `--inventory`: findings about selectors become facts.
    pub inventory: Option<&'a [crate::inventory::InventoryDevice]>,
    /// The objects a cluster stores (`lint --cluster`): a file object that
    /// matches one is an update of it. Empty: every object is a create.
    pub stored: &'a crate::stored::Stored<'a>,
    /// The typed model of `objects`, decoded when a cross-object rule first
    /// needs it.
    pub typed: std::sync::OnceLock<crate::dra::Inventory<'a>>,
    /// Which kinds, nodes and pods the input holds (the stored-state rules
    /// ask per object; built once).
    pub present: std::sync::OnceLock<Present<'a>>,
}

/// What the input holds, for the stored-state rules (DRA-H).
#[derive(Default)]
pub struct Present<'a> {
    pub kinds: std::collections::HashSet<ObjectKind>,
    pub has_pods: bool,
    pub nodes: std::collections::HashSet<&'a str>,
    /// `namespace/name` of the Pods.
    pub pods: std::collections::HashSet<(&'a str, &'a str)>,
}

impl<'a> Ctx<'a> {
    /// Which kinds, nodes and pods the input holds (built once per run).
    pub fn present(&self) -> &Present<'a> {
        self.present.get_or_init(|| {
            let mut p = Present::default();
            for o in self.objects {
                p.kinds.insert(o.kind);
                if o.kind == ObjectKind::Node {
                    p.nodes.extend(o.name());
                }
                if o.kind == ObjectKind::Workload && o.reference.kind == "Pod" {
                    p.has_pods = true;
                    if let Some(n) = o.name() {
                        p.pods.insert((o.namespace_or_default(), n));
                    }
                }
            }
            p
        })
    }

    /// The input's DRA objects as typed values (decoded once per run).
    pub fn dra(&self) -> &crate::dra::Inventory<'a> {
        self.typed
            .get_or_init(|| crate::dra::Inventory::decode(self.objects))
    }

    /// The compiled form of a selector (cached by text).
    pub fn compile(
        &self,
        expr: &str,
    ) -> std::sync::Arc<Result<crate::cel::Program, crate::cel::CompileError>> {
        // A rule that panicked while holding the cache left it whole: a
        // poisoned lock is still a usable cache.
        self.cel
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(expr, &self.cel_env)
    }

    /// Maps a position inside a string scalar (1-based line and column of
    /// the decoded text) to the file, so a CEL error underlines its token.
    pub fn expression_span(
        &self,
        obj: &Object,
        node: &crate::tree::Node,
        line: u32,
        column: u32,
    ) -> Span {
        let Some(src) = self.sources.get(obj.file) else {
            return node.span;
        };
        crate::tree::inner_span(
            &src.text,
            &crate::tree::LineIndex::new(&src.text),
            node,
            line,
            column,
        )
        .unwrap_or(node.span)
    }

    pub fn of_kind(&self, kind: ObjectKind) -> impl Iterator<Item = &'a Object> + '_ {
        self.objects.iter().filter(move |o| o.kind == kind)
    }
}

/// Collects the findings of one rule.
pub struct Sink<'r> {
    rule: &'r Rule,
    out: Vec<Diagnostic>,
}

impl<'r> Sink<'r> {
    pub fn new(rule: &'r Rule) -> Self {
        Sink {
            rule,
            out: Vec::new(),
        }
    }

    /// Reports a finding on `obj` at the field `path`.
    pub fn report(
        &mut self,
        obj: &Object,
        error_type: ErrorType,
        path: impl Into<String>,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        // A linter-only finding (type Warning) is never an apiserver
        // rejection, whatever the rule's usual severity.
        let severity = match (error_type, self.rule.severity) {
            (ErrorType::Warning, crate::diag::Severity::Error) => crate::diag::Severity::Warning,
            (_, severity) => severity,
        };
        self.out.push(Diagnostic {
            rule: self.rule.id,
            severity,
            error_type,
            field: path.into(),
            message: message.into(),
            label: None,
            notes: Vec::new(),
            span,
            secondary: Vec::new(),
            file: obj.file,
            document: obj.document,
            object: Some(obj.reference.clone()),
        });
        self.out.last_mut().expect("just pushed")
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.out
    }

    /// How many findings the rule has reported so far.
    pub fn count(&self) -> usize {
        self.out.len()
    }
}

impl Diagnostic {
    pub fn secondary(&mut self, span: Span, message: impl Into<String>) -> &mut Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
            file: None,
        });
        self
    }
    pub fn note(&mut self, note: impl Into<String>) -> &mut Self {
        self.notes.push(note.into());
        self
    }
    pub fn label_text(&mut self, label: impl Into<String>) -> &mut Self {
        self.label = Some(label.into());
        self
    }
}

/// Which rules run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// When set, only these rule ids (or prefixes such as `DRA-V0`).
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
}

impl Selection {
    pub fn allows(&self, id: &str) -> bool {
        let matches = |pat: &String| id == pat || (!pat.is_empty() && id.starts_with(pat.as_str()));
        if self.ignore.iter().any(matches) {
            return false;
        }
        self.select.as_ref().is_none_or(|s| s.iter().any(matches))
    }
}

pub struct Settings {
    pub gates: FeatureGates,
    pub selection: Selection,
    /// The selection of each file, by index, where files differ (each
    /// file's nearest configuration file); files beyond it use `selection`.
    pub per_file: Vec<Selection>,
    pub limits: Limits,
    /// Devices to check selectors against (`--inventory`).
    pub inventory: Option<Vec<crate::inventory::InventoryDevice>>,
    /// Without `inventory`: check selectors against the devices of the
    /// input's own slices (`doctor`: the input is the cluster's state).
    pub inventory_from_input: bool,
    /// Objects the target cluster stores (`lint --cluster`): files are
    /// checked as updates of those with the same kind, namespace and name.
    pub stored: Vec<Object>,
    /// `lint --subresource status`: every object is a write of its status
    /// (`kubectl apply --subresource=status`), validated as the release's
    /// `Validate*StatusUpdate` does; its spec is the stored one.
    pub status: bool,
}

impl Settings {
    /// Every rule of `gates`' release, the default limits, no inventory,
    /// nothing stored, objects created (not status writes).
    pub fn for_gates(gates: FeatureGates) -> Self {
        Settings {
            gates,
            selection: Selection::default(),
            per_file: Vec::new(),
            inventory_from_input: false,
            limits: Limits::default(),
            inventory: None,
            stored: Vec::new(),
            status: false,
        }
    }

    /// The rules and ids that apply to findings in `file`.
    pub fn selection_for(&self, file: usize) -> &Selection {
        self.per_file.get(file).unwrap_or(&self.selection)
    }
}

/// The outcome of a lint run.
pub struct LintResult {
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    pub objects: Vec<Object>,
}

fn rule(id: &str) -> &'static Rule {
    registry::find(id).unwrap_or_else(|| panic!("rule {id} is not registered"))
}

fn input_diag(id: &str, file: usize, document: usize, span: Span, message: String) -> Diagnostic {
    let r = rule(id);
    // A repeated key (the one input warning) is no error the apiserver
    // gives: kubectl keeps the last value.
    let error_type = match r.severity {
        Severity::Error => ErrorType::Invalid,
        _ => ErrorType::Warning,
    };
    Diagnostic {
        rule: r.id,
        severity: r.severity,
        error_type,
        field: String::new(),
        message,
        label: None,
        notes: Vec::new(),
        span,
        secondary: Vec::new(),
        file,
        document,
        object: None,
    }
}

/// A problem with a whole file (unreadable, too large, not text) as a finding.
pub fn file_problem(file: usize, message: String) -> Diagnostic {
    input_diag(
        rules::e005_unreadable_file::RULE.id,
        file,
        0,
        Span::default(),
        message,
    )
}

pub(crate) fn problem_to_diag(file: usize, p: DocumentProblem) -> Diagnostic {
    match p {
        DocumentProblem::Load(e) => {
            let id = match e.kind {
                LoadErrorKind::Syntax
                | LoadErrorKind::ComplexKey
                | LoadErrorKind::UnknownAnchor
                | LoadErrorKind::BadTag => rules::e001_invalid_yaml::RULE.id,
                LoadErrorKind::TooDeep | LoadErrorKind::AliasBudget => {
                    rules::e002_input_over_limit::RULE.id
                }
                LoadErrorKind::DuplicateKey => rules::e003_duplicate_key::RULE.id,
            };
            input_diag(id, file, e.document, e.span, e.message)
        }
        DocumentProblem::NotAnObject { document, span, .. } => input_diag(
            rules::e004_not_an_object::RULE.id,
            file,
            document,
            span,
            p.message(),
        ),
        DocumentProblem::MissingTypeMeta {
            document,
            field,
            span,
        } => {
            let mut d = input_diag(
                rules::e004_not_an_object::RULE.id,
                file,
                document,
                span,
                p.message(),
            );
            d.field = field.to_owned();
            d
        }
    }
}

fn shape_to_diag(obj: &Object, f: ShapeFinding, gates: &FeatureGates) -> Diagnostic {
    let (r, path, span, message, notes): (&Rule, String, Span, String, Vec<String>) = match f {
        ShapeFinding::UnknownField {
            path,
            span,
            suggestion,
            since,
        } => {
            let mut notes = Vec::new();
            if let Some(v) = since {
                notes.push(format!(
                    "the field exists from Kubernetes {v}; the target is {} (--kubernetes-version)",
                    gates.version
                ));
            }
            let leaf = path.rsplit('.').next().unwrap_or(&path).to_owned();
            let message = match suggestion {
                Some(s) => format!("unknown field \"{leaf}\" (did you mean \"{s}\"?)"),
                None => format!("unknown field \"{leaf}\""),
            };
            if leaf == "source" && path.contains("resourceClaims[") {
                notes.push("the `source: {resourceClaimName | resourceClaimTemplateName}` shape is the pre-1.31 API (resource.k8s.io/v1alpha2): set the field directly on the claim entry".into());
            }
            notes.push("kubectl's strict field validation rejects it; without it the apiserver drops it silently".into());
            (&rules::s001_unknown_field::RULE, path, span, message, notes)
        }
        ShapeFinding::WrongType {
            path,
            span,
            expected,
            got,
            ..
        } => (
            &rules::s002_wrong_type::RULE,
            path,
            span,
            format!("expected {expected}, got {got}"),
            vec!["the apiserver fails to decode the object (400 Bad Request)".into()],
        ),
        ShapeFinding::BadQuantity {
            path,
            span,
            message,
        } => {
            let r = if path.contains(".capacity[") && path.ends_with("].value") {
                &rules::v042_capacity_quantity::RULE
            } else if path.contains("ounters[") {
                &rules::v066_counter_quantity::RULE
            } else {
                &rules::s002_wrong_type::RULE
            };
            (
                r,
                path,
                span,
                message,
                vec!["the apiserver fails to decode the object (400 Bad Request)".into()],
            )
        }
        ShapeFinding::BadTime {
            path,
            span,
            message,
        } => (
            &rules::s002_wrong_type::RULE,
            path,
            span,
            message,
            vec!["the apiserver fails to decode the object (400 Bad Request); write times as RFC 3339, e.g. \"2026-01-01T00:00:00Z\"".into()],
        ),
        ShapeFinding::Dropped { path, span, gate } => {
            let since = match gate.default_on_since() {
                Some(v) if v > gates.version => format!(" (on by default from Kubernetes {v})"),
                Some(_) => String::new(),
                None => " (off by default in every supported version)".to_owned(),
            };
            let leaf = path.rsplit('.').next().unwrap_or(&path).to_owned();
            (
                &rules::d001_dropped_field::RULE,
                path,
                span,
                format!(
                    "`{leaf}` will be dropped: feature gate {gate} is off in Kubernetes {}",
                    gates.version
                ),
                vec![
                    format!("the apiserver strips the field on create{since}"),
                    format!(
                        "enable {gate} on kube-apiserver and kube-scheduler, or remove the field"
                    ),
                ],
            )
        }
    };
    let error_type = if r.id == rules::d001_dropped_field::RULE.id {
        ErrorType::Dropped
    } else {
        ErrorType::Invalid
    };
    Diagnostic {
        rule: r.id,
        severity: r.severity,
        error_type,
        field: path,
        message,
        label: None,
        notes,
        span,
        secondary: Vec::new(),
        file: obj.file,
        document: obj.document,
        object: Some(obj.reference.clone()),
    }
}

/// The most decoding findings one object, or document problems one file,
/// reports: a hostile input with a million of them would otherwise need
/// memory and output out of all proportion; the last shown says how many more.
pub const MAX_FINDINGS_PER_SOURCE: usize = 1000;

/// Lints files as kube-apiserver (and a cross-object linter) would see them.
pub fn lint(files: &[SourceFile], pre: Vec<Diagnostic>, settings: &Settings) -> LintResult {
    lint_with(files, pre, settings, Undecodable::AsTheApiserver)
}

/// What lint does with an object kube-apiserver refuses before validation:
/// a body that does not decode, or one with unknown fields under strict
/// field validation (kubectl's default).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Undecodable {
    /// Reports only what refuses it, as kube-apiserver answers 400 Bad
    /// Request before validating anything: the one decoding error it
    /// gives, else every unknown field.
    AsTheApiserver,
    /// Checks it all the same, reading what does not decode as unset and
    /// unknown fields as dropped, every decoding finding kept: `--fix`
    /// compares findings before and after its edits, and a fix that makes
    /// an object decode must not count the findings it merely reveals as
    /// new ones.
    Checked,
}

pub(crate) fn lint_with(
    files: &[SourceFile],
    pre: Vec<Diagnostic>,
    settings: &Settings,
    undecodable_objects: Undecodable,
) -> LintResult {
    use rayon::prelude::*;
    let mut diagnostics = pre;
    // Files, objects and rules are independent of each other: each stage
    // runs on all cores, and results are collected in input order.
    let parsed: Vec<model::ParsedFile> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| model::parse_file(i, &f.text, settings.limits))
        .collect();
    let mut objects: Vec<Object> = Vec::new();
    let mut skipped = 0;
    for (i, parsed) in parsed.into_iter().enumerate() {
        skipped += parsed.skipped;
        let more = parsed
            .problems
            .len()
            .saturating_sub(MAX_FINDINGS_PER_SOURCE);
        diagnostics.extend(
            parsed
                .problems
                .into_iter()
                .take(MAX_FINDINGS_PER_SOURCE)
                .map(|p| problem_to_diag(i, p)),
        );
        if more > 0 {
            if let Some(last) = diagnostics.last_mut() {
                last.notes.push(format!(
                    "{more} more problems reading this file are not shown"
                ));
            }
        }
        objects.extend(parsed.objects);
    }
    let stored = crate::stored::Stored::new(&settings.stored);
    let prepared: Vec<prepare::Prepared> = objects
        .into_par_iter()
        .map(|obj| {
            let old = stored.get(&obj);
            prepare::prepare(
                obj,
                &settings.gates,
                old,
                settings.status,
                undecodable_objects,
            )
        })
        .collect();
    let mut checked: Vec<Object> = Vec::with_capacity(prepared.len());
    // Objects refused before validation (a body that does not decode, or
    // unknown fields under strict field validation): kube-apiserver
    // validates nothing of them (400 Bad Request), so no validation
    // finding is theirs.
    // A set: looked up for every object and finding (a file of broken
    // objects must not make this quadratic).
    let mut refused: std::collections::HashSet<(usize, usize, ObjectRef)> =
        std::collections::HashSet::new();
    for p in prepared {
        diagnostics.extend(p.found);
        if let (true, Some(o), Undecodable::AsTheApiserver) =
            (p.refused, &p.object, undecodable_objects)
        {
            refused.insert((o.file, o.document, o.reference.clone()));
        }
        checked.extend(p.object);
    }
    let decodes = |o: &Object| {
        refused.is_empty() || !refused.contains(&(o.file, o.document, o.reference.clone()))
    };
    let own_inventory =
        (settings.inventory.is_none() && settings.inventory_from_input).then(|| {
            crate::inventory::devices(&checked, crate::cel::list_values_converted(&settings.gates))
        });
    let cx = Ctx {
        stored: &stored,
        gates: &settings.gates,
        objects: &checked,
        sources: files,
        cel: std::sync::Mutex::new(crate::cel::Cache::default()),
        cel_env: crate::cel::Env::new(&settings.gates),
        inventory: settings.inventory.as_deref().or(own_inventory.as_deref()),
        typed: std::sync::OnceLock::new(),
        present: std::sync::OnceLock::new(),
    };
    let rules: Vec<&Rule> = registry::RULES
        .iter()
        .copied()
        .filter(|r| {
            settings.selection.allows(r.id) || settings.per_file.iter().any(|s| s.allows(r.id))
        })
        .collect();
    let per_object: Vec<Vec<Diagnostic>> = checked
        .par_iter()
        .map(|obj| {
            let mut found = Vec::new();
            // An update is validated as the release's Validate*Update does,
            // not as a create: what it skips is worked out once per object.
            let skipped = cx
                .stored
                .get(obj)
                .map(|old| update::Skipped::of(cx.gates.version, obj, old));
            // Its decoding findings say all there is of an object that does
            // not decode: every other check would read values it lacks.
            if !decodes(obj) {
                return found;
            }
            for r in &rules {
                match r.check {
                    Check::Object(kinds, f) if !settings.status && kinds.contains(&obj.kind) => {
                        let mut sink = Sink::new(r);
                        f(&cx, obj, &mut sink);
                        let mut d = sink.into_diagnostics();
                        if let (Some(skipped), Origin::Apiserver) = (&skipped, r.origin) {
                            skipped.retain(&mut d);
                        }
                        found.extend(d);
                    }
                    Check::Status(kinds, f) if settings.status && kinds.contains(&obj.kind) => {
                        let mut sink = Sink::new(r);
                        f(&cx, obj, cx.stored.get(obj), &mut sink);
                        found.extend(sink.into_diagnostics());
                    }
                    _ => {}
                }
            }
            found
        })
        .collect();
    let cross_object: Vec<Vec<Diagnostic>> = rules
        .par_iter()
        .filter_map(|r| match r.check {
            // A status write is checked on its own object only.
            Check::Run(_) if settings.status => None,
            Check::Run(f) => {
                let mut sink = Sink::new(r);
                f(&cx, &mut sink);
                Some(sink.into_diagnostics())
            }
            Check::Loader | Check::Object(..) | Check::Status(..) => None,
        })
        .collect();
    diagnostics.extend(per_object.into_iter().flatten());
    // A cross-object rule of the apiserver's says nothing of an object
    // that does not decode either.
    diagnostics.extend(cross_object.into_iter().flatten().filter(|d| {
        let theirs = || match &d.object {
            Some(r) => refused.contains(&(d.file, d.document, r.clone())),
            None => false,
        };
        refused.is_empty()
            || !(registry::find(d.rule).is_some_and(|r| r.origin == Origin::Apiserver) && theirs())
    }));
    // Selection and suppression comments apply to every finding alike.
    diagnostics.retain(|d| settings.selection_for(d.file).allows(d.rule));
    suppress::apply(files, &checked, &mut diagnostics, settings);
    diagnostics.sort_by(|a, b| {
        (a.file, a.span.start, a.rule, &a.field).cmp(&(b.file, b.span.start, b.rule, &b.field))
    });
    diagnostics.dedup();
    let summary = Summary {
        files: files.len(),
        objects: checked.len(),
        skipped,
        errors: diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count(),
        warnings: diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count(),
    };
    LintResult {
        diagnostics,
        summary,
        objects: checked,
    }
}
