//! Input files and the objects in them, as a cluster would store them: the
//! loader `explain`, `match`, `devices` and `lint` share.

use crate::model::{self, ApiVersion, DocumentProblem, Object};
use crate::yaml::Limits;

/// One input file.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// A document of an input file that could not be read as an object.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadProblem {
    /// The index of the file in the input.
    pub file: usize,
    /// Its 1-based line in the file (0 when not known).
    pub line: u32,
    pub problem: DocumentProblem,
}

impl LoadProblem {
    pub fn message(&self) -> String {
        self.problem.message()
    }

    /// `<file>:<line>: <message>`, for a reader's error.
    pub fn located(&self, file_name: &str) -> String {
        match self.line {
            0 => format!("{file_name}: {}", self.message()),
            line => format!("{file_name}:{line}: {}", self.message()),
        }
    }
}

/// Reads objects as a cluster stores them (for `match` and `explain`): parsed,
/// beta versions converted to v1, nothing dropped. Unreadable documents come
/// back as problems (`lint` turns them into its input findings).
pub fn load_objects(files: &[SourceFile], limits: Limits) -> (Vec<Object>, Vec<LoadProblem>) {
    let mut objects = Vec::new();
    let mut problems = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let parsed = model::parse_file(i, &f.text, limits);
        add_parsed(i, parsed, &mut objects, &mut problems);
    }
    (objects, problems)
}

/// The objects and problems of file `i` as [`load_objects`] keeps them
/// (beta versions converted to v1), for a file parsed otherwise (read in
/// pieces: [`model::StreamedFile`]).
pub fn add_parsed(
    i: usize,
    parsed: model::ParsedFile,
    objects: &mut Vec<Object>,
    problems: &mut Vec<LoadProblem>,
) {
    // A repeated key does not stop a reader: kubectl keeps its last value
    // (sigs.k8s.io/yaml's YAMLToJSON, not the strict variant), as the
    // loader does.
    let lines = parsed.problem_lines.into_iter().chain(std::iter::repeat(0));
    problems.extend(
        parsed
            .problems
            .into_iter()
            .zip(lines)
            .filter(|(p, _)| {
                !matches!(
                    p,
                    model::DocumentProblem::Load(e) if e.kind == crate::yaml::LoadErrorKind::DuplicateKey
                )
            })
            .map(|(problem, line)| LoadProblem {
                file: i,
                line,
                problem,
            }),
    );
    objects.reserve(parsed.objects.len());
    for mut obj in parsed.objects {
        if matches!(obj.api, ApiVersion::V1Beta1 | ApiVersion::V1Alpha3) {
            crate::convert::v1beta1_to_v1(obj.kind, &mut obj.root);
        }
        objects.push(obj);
    }
}
