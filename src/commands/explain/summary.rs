//! The verdict across nodes, as the scheduler reaches it, and its causes.
//!
//! An error on any node (a CEL runtime error, an invalid pool an All request
//! needs, ...) makes the DynamicResources filter return an error status, and
//! the scheduling framework then aborts the attempt for every node
//! (`findNodesThatPassFilters`): the pod stays pending even where the
//! claims would fit. Otherwise the claims fit where any node allocates them.

use dra_core::allocate::{Funnel, Outcome, SearchCost};
use serde_json::{json, Value};

use super::text::blocking_reason;
use crate::render::terminal::{one_line, paint};

const RED: &str = "1;31";
const GREEN: &str = "1;32";
const BOLD: &str = "1";

/// Nodes that fail for the same reason.
pub struct Cause {
    pub reason: String,
    pub nodes: Vec<String>,
}

pub struct Summary {
    /// Nodes the pod may use and the allocator tried, plus those excluded.
    pub total: usize,
    pub allocated: Vec<String>,
    /// The first node where the scheduler fails with an error, the error,
    /// and the device a selector failed on.
    pub fatal: Option<(String, String, Option<String>)>,
    /// When the fatal error is a search that ran out of budget: where the
    /// steps went.
    pub fatal_search: Option<SearchCost>,
    /// How to fix the fatal error, when kubectl-dra can tell.
    pub hint: Option<String>,
    /// Sorted by node count, most first.
    pub causes: Vec<Cause>,
    /// The unsatisfiable node missing the fewest devices, with how many and why.
    pub closest: Option<(String, usize, String)>,
    /// Nodes without a Node object, where the pod's node constraints were not checked.
    pub unchecked: usize,
    /// Nodes not tried: the command's search budget ran out first.
    pub undecided: usize,
    /// The pod's claims allocated before, each with the tried nodes its
    /// allocation admits: they restrict the pod before any device is sought.
    pub allocated_claims: Vec<(String, Vec<String>)>,
    /// When requests find no device on any node: devices of their classes
    /// that no node can use, and why.
    pub stranded: Vec<String>,
    /// Nodes the pod's own constraints exclude where the claims would be
    /// allocated, with the constraint (asked only when they fit nowhere else).
    pub fits_where_excluded: Vec<(String, String)>,
    /// Set when the scheduler's PreFilter stops the pod before any node is
    /// tried (then nothing else is).
    pub pre_filter: Option<dra_core::prefilter::Stop>,
    /// Set when the pod was created with spec.nodeName and claims nothing
    /// will allocate: the rest says what the scheduler would do instead.
    pub bypass: Option<dra_core::prefilter::Bypass>,
    /// The scheduler's own last word on the pod (its PodScheduled
    /// condition when False): (reason, message).
    pub last_attempt: Option<(String, String)>,
}

/// Devices a node lacks: per request, what it needs minus what survives
/// the whole funnel.
pub fn shortfall(funnels: &[Funnel]) -> usize {
    funnels
        .iter()
        .map(|f| {
            f.needed
                .saturating_sub(f.steps().last().map_or(0, |s| s.count))
        })
        .sum()
}

impl Summary {
    /// `timeout_fatal`: whether the release's scheduler treats a filter
    /// timeout as an error for the attempt (the 1.37 line returns
    /// `statusError("node N: timed out ...")`) or, as before, as this node
    /// being unschedulable (`statusUnschedulable`).
    pub fn build(
        per_node: &[(String, Outcome)],
        excluded: &[(String, String)],
        unchecked: usize,
        timeout_fatal: bool,
    ) -> Summary {
        let mut causes: Vec<Cause> = Vec::new();
        let mut add =
            |reason: String, node: &str| match causes.iter_mut().find(|c| c.reason == reason) {
                Some(c) => c.nodes.push(node.to_owned()),
                None => causes.push(Cause {
                    reason,
                    nodes: vec![node.to_owned()],
                }),
            };
        let mut allocated = Vec::new();
        let mut undecided = 0;
        let mut fatal = None;
        let mut fatal_search = None;
        let mut closest: Option<(String, usize, String)> = None;
        for (node, o) in per_node {
            match o {
                Outcome::Allocated { .. } => allocated.push(node.clone()),
                Outcome::Undecided { .. } => {
                    undecided += 1;
                    add("not tried: the search budget for all nodes ran out first (use --node to try one)".into(), node);
                }
                Outcome::Error { error, .. }
                    if !timeout_fatal
                        && error.starts_with("timed out trying to allocate devices") =>
                {
                    add(error.clone(), node);
                }
                Outcome::Error {
                    error,
                    device,
                    search,
                } => {
                    if fatal.is_none() {
                        fatal = Some((node.clone(), error.clone(), device.clone()));
                        fatal_search = search.clone();
                    }
                    add(format!("error: {error}"), node);
                }
                Outcome::Unsatisfiable {
                    reasons,
                    funnels,
                    constraints,
                } => {
                    let why = blocking_reason(reasons, funnels, constraints);
                    let short = shortfall(funnels);
                    // A node ruled out before any device was sought (a claim
                    // allocated for another node) is not close.
                    let tried = !funnels.is_empty() || !constraints.is_empty();
                    if tried && closest.as_ref().is_none_or(|(_, s, _)| short < *s) {
                        closest = Some((node.clone(), short, why.clone()));
                    }
                    add(why, node);
                }
            }
        }
        for (node, reason) in excluded {
            add(format!("the pod cannot run there: {reason}"), node);
        }
        causes.sort_by_key(|c| std::cmp::Reverse(c.nodes.len()));
        Summary {
            total: per_node.len() + excluded.len(),
            allocated,
            fatal,
            fatal_search,
            hint: None,
            causes,
            closest,
            unchecked,
            undecided,
            allocated_claims: Vec::new(),
            stranded: Vec::new(),
            fits_where_excluded: Vec::new(),
            pre_filter: None,
            bypass: None,
            last_attempt: None,
        }
    }

    /// Whether the pod gets its devices somewhere.
    pub fn fits(&self) -> bool {
        self.pre_filter.is_none()
            && self.bypass.is_none()
            && self.fatal.is_none()
            && !self.allocated.is_empty()
    }

    /// The summary lines: the verdict (coloured when `color`), then one
    /// line per cause. Input (names, errors) is escaped before painting, so
    /// it cannot bring its own colour.
    pub fn text(&self, names: &str, color: bool) -> String {
        let plain = crate::render::terminal::strict(&self.lines(names, false)).into_owned();
        if !color {
            return plain;
        }
        let mut out = String::with_capacity(plain.len() + 32);
        for (i, line) in plain.split_inclusive('\n').enumerate() {
            let (body, end) = match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            };
            if i == 0 {
                let sgr = if self.fits() { GREEN } else { RED };
                out.push_str(&format!("\x1b[{sgr}m{body}\x1b[0m{end}"));
            } else if let Some(rest) = body.strip_prefix("Closest:") {
                out.push_str(&format!("\x1b[{BOLD}mClosest:\x1b[0m{rest}{end}"));
            } else {
                out.push_str(line);
            }
        }
        out
    }

    fn lines(&self, names: &str, color: bool) -> String {
        let mut out = String::new();
        let n = self.total;
        let nodes = |k: usize| if k == 1 { "node" } else { "nodes" };
        if let Some(stop) = &self.pre_filter {
            let how = match stop.error {
                true => "the scheduler's PreFilter fails with an error (the attempt is retried) before it tries any node.",
                false => "the scheduler's PreFilter marks it unschedulable before it tries any node.",
            };
            let verdict = format!("{names} cannot be scheduled: {how}");
            out.push_str(&format!(
                "{}\n  {}\n",
                paint(&verdict, RED, color),
                one_line(&stop.message)
            ));
            if let Some(h) = &self.hint {
                out.push_str(&format!("  {}\n", one_line(h)));
            }
            return out;
        }
        if let Some(b) = &self.bypass {
            let claims = one_line(&b.unallocated.join(", ")).into_owned();
            let verdict = format!(
                "{names} will not start: it was created with spec.nodeName {}, so the scheduler is bypassed and nothing allocates {claims}; the kubelet waits until its claims are allocated and reserved for it.",
                one_line(&b.node)
            );
            out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
            let then = if self.fatal.is_none() && !self.allocated.is_empty() {
                "the scheduler would allocate the claims there.".to_owned()
            } else if let Some((_, error, _)) = &self.fatal {
                format!(
                    "even then the scheduler fails with an error: {}",
                    one_line(error)
                )
            } else {
                match self.causes.first() {
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
        if let Some((node, error, device)) = &self.fatal {
            let on = device
                .as_ref()
                .map_or(String::new(), |d| format!(" (device {d})"));
            let verdict = format!(
                "{names} cannot be scheduled: on {node}{on} the scheduler fails with an error, which aborts the attempt on every node."
            );
            out.push_str(&format!("{}\n  {error}\n", paint(&verdict, RED, color)));
            if let Some(h) = &self.hint {
                out.push_str(&format!("  {h}\n"));
            }
            if !self.allocated.is_empty() {
                let k = self.allocated.len();
                out.push_str(&format!(
                    "  Without the error it would fit on {k} {}: {}.\n",
                    nodes(k),
                    self.allocated
                        .iter()
                        .take(3)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        } else if !self.allocated.is_empty() {
            let k = self.allocated.len();
            let shown: Vec<&str> = self.allocated.iter().take(3).map(String::as_str).collect();
            let more = if k > 3 {
                format!(", +{}", k - 3)
            } else {
                String::new()
            };
            let verdict = format!(
                "{names} fits on {k} of {n} {}: {}{more}.",
                nodes(n),
                shown.join(", ")
            );
            out.push_str(&format!("{}\n", paint(&verdict, GREEN, color)));
            // The scheduler said otherwise: something other than the claims
            // keeps the pod pending (or the cluster changed since).
            if let Some((reason, message)) = &self.last_attempt {
                out.push_str(&format!(
                    "  Yet the scheduler's last attempt left the pod pending ({}): {} Its claims are not what keeps it pending, unless the cluster changed since.\n",
                    one_line(reason),
                    one_line(message)
                ));
            }
        } else if self.undecided > 0 {
            let tried = n - self.undecided;
            let verdict = format!(
                "{names} cannot be allocated on the {tried} of {n} {} tried; {} were not tried (the search budget for all nodes ran out).",
                nodes(n),
                self.undecided
            );
            out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
        } else {
            let verdict = format!("{names} cannot be allocated on any of {n} {}.", nodes(n));
            out.push_str(&format!("{}\n", paint(&verdict, RED, color)));
        }
        // Where the devices are, when no node has any: the cause itself.
        for s in &self.stranded {
            out.push_str(&format!("  {s}\n"));
        }
        if let Some((node, why)) = self.fits_where_excluded.first() {
            let k = self.fits_where_excluded.len();
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
        for (claim, nodes_ok) in &self.allocated_claims {
            let only = match nodes_ok.as_slice() {
                [] => "none of the nodes tried".to_owned(),
                [one] => one.clone(),
                more => format!(
                    "{} of the nodes tried ({})",
                    more.len(),
                    more.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
                ),
            };
            out.push_str(&format!(
                "  claim {claim} is already allocated: its allocation admits only {only}.\n"
            ));
        }
        let failing: usize = self.causes.iter().map(|c| c.nodes.len()).sum();
        if failing > 0 && !self.allocated.is_empty() && self.fatal.is_none() {
            out.push_str(&format!("Not on {failing} {}:\n", nodes(failing)));
        }
        let width = self
            .causes
            .iter()
            .map(|c| c.nodes.len())
            .max()
            .unwrap_or(0)
            .to_string()
            .len();
        for c in &self.causes {
            let k = c.nodes.len();
            out.push_str(&format!(
                "  {k:>width$} {:<5}  {}  (e.g. {})\n",
                nodes(k),
                c.reason,
                c.nodes[0]
            ));
        }
        if self.allocated.is_empty() && self.fatal.is_none() && n > 1 {
            if let Some((node, short, _)) = &self.closest {
                let how = if *short == 0 {
                    "each request has enough devices, but not together".to_owned()
                } else {
                    format!("{short} device{} short", if *short == 1 { "" } else { "s" })
                };
                out.push_str(&format!(
                    "{} {node} ({how}).\n",
                    paint("Closest:", BOLD, color)
                ));
            }
        }
        if self.unchecked > 0 {
            out.push_str(&format!(
                "Not checked on {} {} without a Node object: the pod's nodeSelector, node affinity and the node's taints.\n",
                self.unchecked,
                nodes(self.unchecked)
            ));
        }
        out
    }

    /// The same facts as JSON fields.
    pub fn json(&self) -> Value {
        json!({
            "schedulable": self.fits(),
            "nodes": self.total,
            "allocated": self.allocated.len(),
            "allocatedOn": self.allocated,
            "fatalError": self.fatal.as_ref().map(|(node, error, device)| json!({
                "node": node, "error": error, "device": device, "fix": self.hint,
                "search": self.fatal_search,
            })),
            "causes": self.causes.iter().map(|c| json!({
                "reason": c.reason, "nodes": c.nodes.len(), "example": c.nodes[0],
            })).collect::<Vec<_>>(),
            "closest": self.closest.as_ref().map(|(node, short, why)| json!({
                "node": node, "missingDevices": short, "reason": why,
            })),
            "allocatedClaims": self.allocated_claims.iter().map(|(claim, nodes)| json!({
                "claim": claim, "admits": nodes,
            })).collect::<Vec<_>>(),
            "stranded": self.stranded,
            "fitsWhereExcluded": self.fits_where_excluded.iter().map(|(node, why)| json!({
                "node": node, "reason": why,
            })).collect::<Vec<_>>(),
            "uncheckedNodes": self.unchecked,
            "undecidedNodes": self.undecided,
            "bypassed": self.bypass.as_ref().map(|b| json!({
                "nodeName": b.node, "unallocated": b.unallocated,
            })),
            "lastAttempt": self.last_attempt.as_ref().map(|(reason, message)| json!({
                "reason": reason, "message": message,
            })),
            "preFilter": self.pre_filter.as_ref().map(|s| json!({
                "message": s.message, "error": s.error, "fix": self.hint,
            })),
        })
    }
}
