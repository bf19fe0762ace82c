//! A spinner on stderr for reads that take more than half a second, only
//! when stderr is a terminal and the output is not JSON.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(Clone, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
    counts: Arc<Mutex<Vec<(String, usize)>>>,
    started: Option<Instant>,
}

impl Progress {
    pub fn new(enabled: bool) -> Self {
        use std::io::IsTerminal;
        if !enabled || !std::io::stderr().is_terminal() {
            return Progress::default();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} reading {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress {
            bar: Some(bar),
            counts: Arc::default(),
            started: Some(Instant::now()),
        }
    }

    /// A counter for one list.
    pub fn task(&self, what: &str) -> Task {
        if let Ok(mut c) = self.counts.lock() {
            c.push((what.to_owned(), 0));
        }
        Task {
            progress: self.clone(),
            what: what.to_owned(),
        }
    }

    fn redraw(&self) {
        let (Some(bar), Some(started)) = (&self.bar, self.started) else {
            return;
        };
        if bar.is_hidden() && started.elapsed() >= Duration::from_millis(500) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        if let Ok(c) = self.counts.lock() {
            let parts: Vec<String> = c.iter().map(|(w, n)| format!("{w} {n}")).collect();
            bar.set_message(parts.join(", "));
        }
    }

    /// How far each list got: `resourceslices 1500, nodes 200`.
    pub fn counts(&self) -> String {
        self.counts
            .lock()
            .map(|c| {
                c.iter()
                    .map(|(w, n)| format!("{w} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub struct Task {
    progress: Progress,
    what: String,
}

impl Task {
    pub fn set(&self, n: usize) {
        if let Ok(mut c) = self.progress.counts.lock() {
            if let Some(e) = c.iter_mut().find(|(w, _)| *w == self.what) {
                e.1 = n;
            }
        }
        self.progress.redraw();
    }
}
