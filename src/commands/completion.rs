//! `kubectl-dra completion SHELL` and the man page, generated from the clap
//! definitions so they never drift from the flags.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::Outcome;

pub fn completion(shell: clap_complete::Shell) -> Result<Outcome, String> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kubectl-dra", &mut buf);
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&buf).into_owned(),
        code: 0,
    })
}

pub fn man() -> Result<Outcome, String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command().name("kubectl-dra"))
        .render(&mut buf)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&buf).into_owned(),
        code: 0,
    })
}
