//! `kubectl dra rules [ID]`: the registry, as a table, as Markdown, or one rule explained.

use dra_core::lint::registry::{self, RULES};

use crate::cli::RulesArgs;
use crate::Outcome;

/// The Markdown rule table of docs/rules.md (a test keeps it current).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "| Rule | Name | Severity | Origin | Releases | What it finds |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for r in RULES {
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} |\n",
            r.id,
            r.name,
            r.severity,
            r.origin.describe(),
            r.releases,
            r.summary.replace('|', "\\|")
        ));
    }
    s
}

pub fn run(args: &RulesArgs) -> Result<Outcome, String> {
    if args.markdown {
        return Ok(Outcome {
            stdout: markdown_table(),
            code: 0,
        });
    }
    let Some(key) = &args.rule else {
        let mut s = String::new();
        for r in RULES {
            s.push_str(&format!(
                "{:<9} {:<8} {:<45} {}\n",
                r.id,
                r.severity.to_string(),
                r.name,
                r.summary
            ));
        }
        return Ok(Outcome { stdout: s, code: 0 });
    };
    let retired = registry::RETIRED
        .iter()
        .find(|(id, name, _)| id.eq_ignore_ascii_case(key) || name.eq_ignore_ascii_case(key));
    if let Some((id, name, why)) = retired {
        return Err(format!("{id} {name} is retired: {why}"));
    }
    let r = registry::find(key).ok_or_else(|| {
        let names = RULES.iter().map(|r| r.name);
        match dra_core::suggest::did_you_mean(key, names) {
            Some(s) => format!("unknown rule {key:?} (did you mean {s}?)"),
            None => format!("unknown rule {key:?}; `kubectl dra rules` lists them"),
        }
    })?;
    let example: String = r.example.lines().map(|l| format!("    {l}\n")).collect();
    let s = format!(
        "{} {} ({}, {}; Kubernetes {})\n\n{}\n\n{}\n\nExample:\n{}",
        r.id,
        r.name,
        r.severity,
        r.origin.describe(),
        r.releases,
        r.summary,
        r.docs,
        example
    );
    Ok(Outcome { stdout: s, code: 0 })
}
