//! The verdict as text. The verdict itself, its causes and its JSON are
//! typed data in the core (`dra_core::verdict`); this only words them.

use dra_core::selector_miss::Scope;
use dra_core::verdict::{CauseKind, Verdict};

use crate::render::terminal::{one_line, paint};

pub use dra_core::verdict::{shortfall, Verdict as Summary};

const RED: &str = "1;31";
const GREEN: &str = "1;32";
const BOLD: &str = "1";

/// The verdict in words.
pub trait Words {
    fn text(&self, names: &str, color: bool) -> String;
}

impl Words for Verdict {
    /// The summary lines: the verdict (coloured when `color`), then one
    /// line per cause. Input (names, errors) is escaped before painting, so
    /// it cannot bring its own colour.
    fn text(&self, names: &str, color: bool) -> String {
        let plain = crate::render::terminal::strict(&lines(self, names, false)).into_owned();
        let mut out = String::with_capacity(plain.len() + 64);
        let width = width();
        for (i, line) in plain.lines().enumerate() {
            // Wrapped on a terminal, at most 100 columns (issue 31): a
            // continuation is indented under the text it continues. Piped
            // output keeps one line per fact, for grep.
            let wrapped = match width {
                Some(w) => wrap(line, w),
                None => vec![line.to_owned()],
            };
            if i == 0 && color {
                let sgr = if self.schedulable() { GREEN } else { RED };
                for w in &wrapped {
                    out.push_str(&format!("\x1b[{sgr}m{w}\x1b[0m\n"));
                }
                continue;
            }
            for (k, w) in wrapped.iter().enumerate() {
                match w.strip_prefix("Closest:") {
                    Some(rest) if color && k == 0 => {
                        out.push_str(&format!("\x1b[{BOLD}mClosest:\x1b[0m{rest}\n"))
                    }
                    _ => {
                        out.push_str(w);
                        out.push('\n');
                    }
                }
            }
        }
        out
    }
}

fn lines(v: &Verdict, names: &str, color: bool) -> String {
    let mut out = gated_lines(v, names, color);
    if let Some(other) = &v.scheduler {
        out.push_str(&format!(
            "  Its schedulerName is {}: this is kube-scheduler's verdict, and only a kube-scheduler profile of that name decides alike; another scheduler places it by its own rules.\n",
            one_line(other)
        ));
    }
    out
}

fn gated_lines(v: &Verdict, names: &str, color: bool) -> String {
    if v.gated.is_empty() {
        return device_lines(v, names, color);
    }
    // Held back before PreFilter: the gates are the verdict; what the
    // scheduler decides once they are removed follows, indented.
    let gates = one_line(&v.gated.join(", ")).into_owned();
    let verdict = format!(
        "{names} stays Pending: it has scheduling gates ({gates}), so the scheduler does not try it until they are removed."
    );
    let mut out = format!(
        "{}\n  Once they are removed:\n",
        paint(&verdict, RED, color)
    );
    for line in device_lines(v, names, color).lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn device_lines(v: &Verdict, names: &str, color: bool) -> String {
    let s = v;
    let mut out = String::new();
    let n = s.total;
    let nodes = |k: usize| if k == 1 { "node" } else { "nodes" };
    if let Some(stop) = &s.pre_filter {
        let how = match (stop.error, stop.kind.pre_enqueue()) {
            (true, _) => "the scheduler's PreFilter fails with an error (the attempt is retried) before it tries any node.",
            // dynamicresources.go PreEnqueue runs foreachPodResourceClaim.
            (false, true) => "the scheduler holds it out of its scheduling queue (the DRA plugin's PreEnqueue check; PreFilter checks the same), so no node is tried.",
            (false, false) => "the scheduler's PreFilter marks it unschedulable before it tries any node.",
        };
        let fate = if s.pod {
            "stays Pending"
        } else {
            "cannot be scheduled"
        };
        let verdict = format!("{names} {fate}: {how}");
        out.push_str(&format!(
            "{}\n  {}\n",
            paint(&verdict, RED, color),
            one_line(&stop.message)
        ));
        if let Some(h) = &s.hint {
            out.push_str(&format!("  {}\n", one_line(h)));
        }
        return out;
    }
    if let Some(f) = &s.not_prepared {
        let node = one_line(f.node.as_deref().unwrap_or("its node")).into_owned();
        let when = match (&f.last_seen, f.count) {
            (Some(t), n) if n > 1 => format!(" (last at {}, {n} times)", one_line(t)),
            (Some(t), _) => format!(" (at {})", one_line(t)),
            (None, _) => String::new(),
        };
        let (why, check) = match &f.failure {
            dra_core::prepare::Failure::DriverNotRegistered { driver } => {
                let driver = one_line(driver);
                (
                    format!("DRA driver {driver} is not registered there{when}: its kubelet plugin is not running on {node} (or has not registered)"),
                    format!("Check the {driver} kubelet-plugin pod on {node} and its logs: kubectl get pods -A -o wide --field-selector spec.nodeName={node}"),
                )
            }
            dra_core::prepare::Failure::Other => (
                format!("the kubelet said{when}: {}", one_line(&f.message)),
                "The message is the kubelet's or the driver's kubelet plugin's: its logs on that node say more.".to_owned(),
            ),
        };
        let verdict = format!(
            "{names} is scheduled on {node} but will not start: the kubelet cannot prepare its devices: {why}."
        );
        out.push_str(&format!("{}\n  {check}\n", paint(&verdict, RED, color)));
        return out;
    }
    if let Some(b) = &s.bypass {
        let claims = one_line(&b.unallocated.join(", ")).into_owned();
        let verdict = format!(
                "{names} will not start: it was created with spec.nodeName {}, so the scheduler is bypassed and nothing allocates {claims}; the kubelet waits until its claims are allocated and reserved for it.",
                one_line(&b.node)
            );
        out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
        let then = if s.fatal.is_none() && !s.allocated.is_empty() {
            "the scheduler would allocate the claims there.".to_owned()
        } else if let Some(f) = &s.fatal {
            format!(
                "even then the scheduler fails with an error: {}",
                one_line(&f.error)
            )
        } else {
            match s.causes.first() {
                Some(c) => format!("even then they do not fit there: {}", one_line(&c.reason)),
                None => "even then they do not fit there.".to_owned(),
            }
        };
        out.push_str(&format!(
                "  Create it with nodeSelector kubernetes.io/hostname: {} instead of spec.nodeName to go through the scheduler: {then}\n",
                one_line(&b.node)
            ));
        return out;
    }
    if let Some(f) = &s.fatal {
        let (node, error) = (&f.node, &f.error);
        let on = f
            .device
            .as_ref()
            .map_or(String::new(), |d| format!(" (device {d})"));
        let verdict = format!(
                "{names} {}: on {node}{on} the scheduler fails with an error, which aborts the attempt on every node.",
                if s.pod { "stays Pending" } else { "cannot be scheduled" }
            );
        out.push_str(&format!("{}\n  {error}\n", paint(&verdict, RED, color)));
        if f.kind == dra_core::allocate::ErrorKind::Timeout {
            out.push_str("  Since Kubernetes 1.36 a filter timeout is an error for the whole attempt (before, it only ruled the node out): this is what keeps the pod pending; the scheduler retries it with backoff.\n");
        }
        if let Some(h) = &s.hint {
            out.push_str(&format!("  {h}\n"));
        }
        if !s.allocated.is_empty() {
            let k = s.allocated.len();
            out.push_str(&format!(
                "  Without the error it would fit on {k} {}: {}.\n",
                nodes(k),
                s.allocated
                    .iter()
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    } else if !s.allocated.is_empty() {
        let k = s.allocated.len();
        let shown: Vec<&str> = s.allocated.iter().take(3).map(String::as_str).collect();
        let more = if k > 3 {
            format!(", +{}", k - 3)
        } else {
            String::new()
        };
        let verdict = format!(
            "{names} {} {k} of {n} {}: {}{more}.",
            if s.pod {
                "can be scheduled: its claims fit on"
            } else {
                "fits on"
            },
            nodes(n),
            shown.join(", ")
        );
        out.push_str(&format!("{}\n", paint(&verdict, GREEN, color)));
        for e in &s.evictions {
            let from = e.device_taint_rule.as_ref().map_or(String::new(), |r| {
                format!(" (from DeviceTaintRule {})", one_line(r))
            });
            let when = if e.at_once {
                "But it will be evicted as soon as it runs"
            } else {
                "It will be evicted when the toleration runs out"
            };
            out.push_str(&format!(
                "  {when}: device {} has the taint {}{from} since {}, which its request tolerates for only {}s.\n",
                one_line(&e.device),
                one_line(&e.taint),
                one_line(&e.time_added),
                e.toleration_seconds
            ));
        }
        for w in &s.binding_waits {
            let since = match &w.allocated_at {
                Some(at) => format!(
                    "{}s after its allocation at {}",
                    w.timeout_seconds,
                    one_line(at)
                ),
                None => format!("{}s after allocating it", w.timeout_seconds),
            };
            out.push_str(&format!(
                "  It binds only when device {} of claim {} reports {} True: kube-scheduler waits for that before it binds the pod (the pod stays Pending, event BindingConditionsPending), for up to {since}.\n",
                one_line(&w.device),
                one_line(&w.claim),
                one_line(&w.waiting_for.join(", "))
            ));
        }
        // The scheduler said otherwise: something other than the claims
        // keeps the pod pending (or the cluster changed since).
        if let Some((reason, message)) = &s.last_attempt {
            out.push_str(&format!(
                    "  Yet the scheduler's last attempt left the pod pending ({}): {} Its claims are not what keeps it pending, unless the cluster changed since.\n",
                    one_line(reason),
                    one_line(message)
                ));
        }
    } else if s.undecided > 0 {
        let tried = n - s.undecided;
        let verdict = format!(
                "{names} {} on the {tried} of {n} {} tried; {} were not tried (the search budget for all nodes ran out).",
                cannot(s.pod),
                nodes(n),
                s.undecided
            );
        out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
    } else if s.pod && n > 0 && excluded_nodes(s) == n {
        // Every node is ruled out before DynamicResources runs (taints,
        // affinity, NodeResourcesFit): the claims are not the cause.
        let verdict = format!(
            "{names} stays Pending: none of the {n} {} can take the pod; each is ruled out before its claims are tried.",
            nodes(n)
        );
        out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
    } else if s.pod && excluded_nodes(s) > 0 {
        // Some nodes are ruled out before DynamicResources runs, the
        // claims fail on the rest: each cause where it applies.
        let x = excluded_nodes(s);
        let verdict = format!(
            "{names} stays Pending: {x} of the {n} {} {} ruled out before its claims are tried, and its claims cannot be allocated on the other {}.",
            nodes(n),
            if x == 1 { "is" } else { "are" },
            n - x
        );
        out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
    } else {
        let verdict = format!("{names} {} on any of {n} {}.", cannot(s.pod), nodes(n));
        out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
    }
    // Faults of the release's scheduler that decide the answer.
    for f in &s.release_faults {
        out.push_str(&format!("  {}\n", one_line(&f.text())));
    }
    // What the release's scheduler ignores, and why: it changes nothing.
    for i in &s.ignored {
        let why = if i.by_default {
            format!("off by default in Kubernetes {}", i.release)
        } else {
            "turned off by --feature-gates".to_owned()
        };
        let line = match i.field {
            Some(field) => format!(
                "  {} {}: its {field} are not applied: kube-scheduler ignores device taints while {} is off ({why}).\n",
                i.kind,
                one_line(&i.name),
                i.gate
            ),
            None => format!(
                "  {} {} is not applied: kube-scheduler ignores {}s while {} is off ({why}).\n",
                i.kind,
                one_line(&i.name),
                i.kind,
                i.gate
            ),
        };
        out.push_str(&line);
    }
    // Where the devices are, when no node has any: the cause itself.
    for s in &s.stranded {
        out.push_str(&format!("  {s}\n"));
    }
    if let Some((node, why)) = s.fits_where_excluded.first() {
        let k = s.fits_where_excluded.len();
        let also = if k > 1 {
            format!(
                " (and on {} more such node{})",
                k - 1,
                if k == 2 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  The claims would fit on {node}{also}, where the pod cannot run: {why}.\n"
        ));
    }
    for (claim, nodes_ok) in &s.allocated_claims {
        let only = match nodes_ok.as_slice() {
            [] => "none of the nodes tried".to_owned(),
            [one] => format!("only {one}"),
            more => format!(
                "only {} of the nodes tried ({})",
                more.len(),
                more.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            ),
        };
        out.push_str(&format!(
            "  claim {claim} is already allocated: its allocation admits {only}.\n"
        ));
    }
    let failing: usize = s.causes.iter().map(|c| c.nodes.len()).sum();
    if failing > 0 && !s.allocated.is_empty() && s.fatal.is_none() {
        out.push_str(&format!("Not on {failing} {}:\n", nodes(failing)));
    }
    let width = s
        .causes
        .iter()
        .map(|c| c.nodes.len())
        .max()
        .unwrap_or(0)
        .to_string()
        .len();
    for c in &s.causes {
        let k = c.nodes.len();
        out.push_str(&format!(
            "  {k:>width$} {:<5}  {}  (e.g. {})\n",
            nodes(k),
            // A CEL compile error's source snippet follows in the node's own
            // section; the table keeps its first line.
            c.reason.lines().next().unwrap_or_default(),
            c.nodes[0]
        ));
        if let Some(m) = &c.selector_miss {
            out.push_str(&format!(
                "    {}\n",
                one_line(&m.text(if c.kind == CauseKind::NoClassDevices {
                    Scope::Inventory
                } else {
                    Scope::Nodes
                }))
            ));
        }
    }
    if s.allocated.is_empty() && s.fatal.is_none() && n > 1 {
        if let Some(c) = &s.closest {
            let (node, short) = (&c.node, c.missing_devices);
            let how = if short == 0 {
                "each request has enough devices, but not together".to_owned()
            } else {
                format!("{short} device{} short", if short == 1 { "" } else { "s" })
            };
            out.push_str(&format!(
                "{} {node} ({how}).\n",
                paint("Closest:", BOLD, color)
            ));
        }
    }
    if s.unchecked > 0 {
        out.push_str(&format!(
                "Not checked on {} {} without a Node object: the pod's nodeSelector, node affinity and the node's taints.\n",
                s.unchecked,
                nodes(s.unchecked)
            ));
    }
    out
}

/// "cannot be allocated", and for a pod its fate first.
/// How many nodes the pod's own constraints or NodeResourcesFit rule out.
fn excluded_nodes(v: &Verdict) -> usize {
    v.causes
        .iter()
        .filter(|c| c.kind == dra_core::verdict::CauseKind::PodExcluded)
        .map(|c| c.nodes.len())
        .sum()
}

fn cannot(pod: bool) -> &'static str {
    if pod {
        "stays Pending: its claims cannot be allocated"
    } else {
        "cannot be allocated"
    }
}

/// Explain's lines are kept to at most this many columns on a terminal.
const WIDTH: usize = 100;

/// The width to wrap at: `COLUMNS` when set, else 100 on a terminal; none
/// (no wrapping) when stdout is a pipe or a file. Never above 100.
fn width() -> Option<usize> {
    use std::io::IsTerminal;
    match std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
    {
        Some(c) => Some(c.clamp(40, WIDTH)),
        None => std::io::stdout().is_terminal().then_some(WIDTH),
    }
}

/// One line wrapped at `width`: a cause line (`  3 nodes  reason`)
/// continues under its reason, any other under its own text, two further in.
fn wrap(line: &str, width: usize) -> Vec<String> {
    if textwrap::core::display_width(line) <= width {
        return vec![line.to_owned()];
    }
    let lead = line.len() - line.trim_start().len();
    let rest = &line[lead..];
    // "3 nodes  " / "1 node   ": the count column of a cause line.
    let cause = rest
        .split_once("  ")
        .filter(|(count, _)| {
            count.split_once(' ').is_some_and(|(n, w)| {
                n.chars().all(|c| c.is_ascii_digit()) && w.starts_with("node")
            })
        })
        .map(|(count, after)| lead + count.len() + 2 + (after.len() - after.trim_start().len()));
    let hang = " ".repeat(cause.unwrap_or(lead + 2).min(width / 2));
    // Breaks at spaces only: a name (`nvidia.com/gpu`, a taint) stays whole.
    let options = textwrap::Options::new(width)
        .subsequent_indent(&hang)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .break_words(false);
    textwrap::wrap(line, options)
        .into_iter()
        .map(|c| c.into_owned())
        .collect()
}
