//! `kubectl-dra`: the thin edge. Parses flags, reads files, calls the pure
//! engine in `dra-core`, renders, and maps the outcome to an exit code:
//! 0 no errors, 1 errors (or warnings with --strict), 2 usage or unreadable input.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use kubectl_dra::{cli, commands, render};

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

// The engine builds millions of small tree nodes on all cores; mimalloc's
// per-thread heaps allocate and free them markedly faster than glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Stack of each worker thread: CEL and YAML trees are walked recursively
/// (within the parsers' depth limits), and a 10,240-character expression can
/// nest thousands of operators. Virtual memory only until used.
const WORKER_STACK: usize = 256 << 20;

fn main() -> ExitCode {
    // No transparent huge pages: mimalloc asks for them, and a fault on one
    // zeroes 2 MiB, after the kernel compacts memory to find it when memory
    // is fragmented (after a build, on a busy laptop). On a 20,000-node
    // inventory that cost 1.3-2.3 s of system time for `explain` and 7-10 s
    // for `lint`, against 0.7-1.0 s and 3 s with 4 KiB pages, the user time
    // the same (issue 37; docs/performance.md). A failure changes nothing.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    // Before any parallel work; if a pool exists already, it stays.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build_global();
    let cli = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // The command runs on a thread with the workers' stack: the main
    // thread's 8 MiB is not enough for the deepest trees the parsers admit.
    let result = std::thread::Builder::new()
        .name("kubectl-dra".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(cli))
        .map_err(|e| format!("cannot start: {e}"))
        .and_then(|h| {
            h.join()
                .unwrap_or_else(|_| Err("internal error".to_owned()))
        });
    finish(result)
}

fn run(cli: cli::Cli) -> Result<kubectl_dra::Outcome, String> {
    match cli.command {
        cli::Command::Lint(args) => commands::lint::run(&args),
        cli::Command::Rules(args) => commands::rules::run(&args),
        cli::Command::Config(args) => commands::config::run(&args),
        cli::Command::Doctor(args) => commands::doctor::run(&args),
        cli::Command::Capacity(args) => commands::capacity::run(&args),
        cli::Command::Match(args) => commands::matching::run(&args),
        cli::Command::Rbac(args) => commands::rbac::run(&args),
        cli::Command::Convert(args) => commands::convert::run(&args),
        cli::Command::Devices(args) => commands::devices::run(&args),
        cli::Command::Snapshot(args) => commands::snapshot::run(&args),
        cli::Command::Completion(args) => commands::completion::completion(args.shell),
        cli::Command::Man => commands::completion::man(),
        cli::Command::Server => commands::server::run(),
        cli::Command::Complete { words } => commands::complete::complete(&words),
        cli::Command::Explain(args) => match &args.what {
            cli::ExplainWhat::Claim(a) => commands::explain::run(a),
            cli::ExplainWhat::Pod(a) => commands::explain::run_pod(a),
            cli::ExplainWhat::Pods(a) => commands::explain::run_pods(a),
        },
    }
}

fn finish(result: Result<kubectl_dra::Outcome, String>) -> ExitCode {
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // Input never reaches a terminal raw, nor a pipe that may end
            // in one (a pager, a CI log): colour passes only when this run
            // painted.
            let text = render::terminal::safe(&out.stdout, render::terminal::painted());
            // A closed pipe (`| head`) is not an error.
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
            ExitCode::from(out.code)
        }
        Err(msg) => {
            // Errors quote input (names, server bodies): escaped always; a
            // closed stderr is not a reason to panic.
            // No credential either: a proxy URL's password, a token.
            let msg = kubectl_dra::cluster::error::without_url_credentials(&msg);
            let msg = render::terminal::safe(&msg, false);
            let _ = writeln!(std::io::stderr(), "error: {msg}");
            ExitCode::from(2)
        }
    }
}
