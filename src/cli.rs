//! Command-line interface, kubectl style.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "kubectl-dra",
    bin_name = "kubectl dra",
    version,
    long_version = concat!(env!("CARGO_PKG_VERSION"), "\nchecks Kubernetes 1.34 to 1.37 (resource.k8s.io/v1); default 1.37"),
    about = "Lint and explain Kubernetes Dynamic Resource Allocation (DRA) objects as kube-apiserver and kube-scheduler would",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check DRA manifests (and the Pods that use claims) as kube-apiserver would.
    Lint(LintArgs),
    /// List the rules, or explain one rule with an example.
    Rules(RulesArgs),
    /// Evaluate a CEL selector against every device of the ResourceSlices given.
    Match(MatchArgs),
    /// Dry-run the scheduler's allocator: which devices a claim gets, or why none.
    Explain(ExplainArgs),
    /// Check the cluster's inventory and claims as stored for what makes pods pend or devices leak.
    Doctor(DoctorArgs),
    /// How many more copies of a claim or template fit, per node, and what stops the next.
    Capacity(CapacityArgs),
    /// The device inventory: one row per device with node, driver, pool, and who holds it.
    Devices(DevicesArgs),
    /// Write what `explain -f` needs from the live cluster to one multi-document YAML file.
    Snapshot(SnapshotArgs),
    /// Move resource.k8s.io manifests to another API version (v1 by default) as minimal edits that keep comments and layout.
    Convert(ConvertArgs),
    /// Show the settings lint uses for a path and where each comes from (.kubectl-dra.yaml or the default).
    Config(ConfigArgs),
    /// Run the language server (LSP over stdio): lint's findings, fixes and rule docs in the editor.
    Server,
    /// Print the least-privilege ClusterRole of a DRA driver, controller, allocator or of kubectl-dra itself.
    Rbac(RbacArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completion(CompletionArgs),
    /// Print the man page (roff).
    #[command(hide = true)]
    Man,
    /// Completion protocol of kubectl plugins (`kubectl_complete-dra`).
    #[command(name = "__complete", hide = true)]
    Complete {
        /// The words typed after `kubectl dra`, the last one possibly empty.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        words: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RbacFor {
    /// A node-local driver (kubelet plugin in a DaemonSet): associated-node verbs.
    Driver,
    /// A control-plane or multi-node controller that writes status.devices: arbitrary-node verbs.
    Controller,
    /// A scheduler or allocation controller: status.allocation and status.reservedFor.
    Allocator,
    /// kubectl-dra itself: read-only.
    KubectlDra,
}

#[derive(Args, Debug)]
pub struct RbacArgs {
    /// Whose ClusterRole to print.
    #[arg(long = "for", value_enum, value_name = "ROLE")]
    pub persona: RbacFor,
    /// The driver name the role may write device status for (resourceNames).
    #[arg(long, value_name = "NAME", default_value = "dra.example.com")]
    pub driver: String,
    #[command(flatten)]
    pub target: Target,
}

#[derive(Args, Debug)]
pub struct CompletionArgs {
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(subcommand)]
    pub what: ExplainWhat,
}

#[derive(Subcommand, Debug)]
pub enum ExplainWhat {
    /// Allocate these claims together (as for one pod, in this order).
    Claim(ExplainClaimArgs),
    /// Allocate a pod's claims, with the claims its templates would generate.
    Pod(ExplainPodArgs),
    /// Every pending pod that uses claims, each decided as `explain pod`, grouped by root cause.
    Pods(ExplainPodsArgs),
}

#[derive(Args, Debug, Clone)]
pub struct ExplainPodsArgs {
    /// Pods of every namespace.
    #[arg(short = 'A', long = "all-namespaces")]
    pub all_namespaces: bool,

    /// Only pods whose labels match this selector (`app=train,tier!=web`).
    #[arg(short = 'l', long = "selector", value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// One line for every pod (by default the first 20).
    #[arg(long)]
    pub all: bool,

    /// Place the pods one after another in the scheduler's queue order
    /// (priority, then creation time), each placement holding its devices
    /// for the next, instead of deciding each pod alone.
    #[arg(long = "in-order")]
    pub in_order: bool,

    #[command(flatten)]
    pub common: ExplainCommon,
}

#[derive(Args, Debug)]
pub struct ExplainPodArgs {
    /// The Pod, as NAME or NAMESPACE/NAME.
    pub pod: String,

    #[command(flatten)]
    pub common: ExplainCommon,
}

#[derive(Args, Debug, Clone)]
pub struct ExplainCommon {
    /// Inventory files (ResourceSlices, DeviceClasses, Nodes, ResourceClaims, templates, Pods) or a `kubectl dra snapshot`; without -f, the live cluster.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub files: Vec<PathBuf>,

    /// Namespace of names given without one [default: the kubeconfig context's, or the snapshot's; else default].
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    /// The node to try; without it, every node is tried.
    #[arg(long)]
    pub node: Option<String>,

    /// How long the search may run on each node, as the scheduler's filter
    /// timeout (DRASchedulerFilterTimeout, 10s by default); 0: only the step budget.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    pub timeout: std::time::Duration,

    #[arg(short = 'o', long = "output", value_enum, default_value_t = MatchOutput::Text)]
    pub output: MatchOutput,

    /// Show the per-node detail of every node tried, not only the closest few.
    #[arg(long = "all-nodes", alias = "verbose")]
    pub all_nodes: bool,

    /// When to use colours in text output (NO_COLOR is honoured).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub target: Target,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    #[command(flatten)]
    pub what_if: WhatIf,

    /// `explain pods`: JSON without the per-node detail (it grows with the
    /// fleet, times the pods): the verdict and where the pod would go.
    #[arg(skip)]
    pub slim: bool,
}

#[derive(Args, Debug)]
pub struct ExplainClaimArgs {
    /// Claims as NAME or NAMESPACE/NAME.
    #[arg(required = true, value_name = "CLAIM")]
    pub claims: Vec<String>,

    #[command(flatten)]
    pub common: ExplainCommon,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MatchOutput {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The CEL expression, as in a selector's `cel.expression` (may start
    /// with `-`, as `-1 < x` does).
    #[arg(allow_hyphen_values = true)]
    pub expression: String,

    /// Files or directories with ResourceSlices (and DeviceClasses for --class), or a snapshot; `-` reads stdin. Without -f, the live cluster.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub files: Vec<PathBuf>,

    /// Apply this DeviceClass's selectors first, as the allocator does.
    #[arg(long, value_name = "NAME")]
    pub class: Option<String>,

    #[arg(short = 'o', long = "output", value_enum, default_value_t = MatchOutput::Text)]
    pub output: MatchOutput,

    #[command(flatten)]
    pub target: Target,

    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// A subresource `lint` can check a write of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Subresource {
    /// The status: a ResourceClaim's allocation, reservedFor and device
    /// statuses, a DeviceTaintRule's conditions.
    Status,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Source snippets with the offending key or value underlined.
    Text,
    /// The stable JSON contract for CI.
    Json,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow annotations.
    Github,
    /// GitLab Code Quality report (`artifacts:reports:codequality`).
    Gitlab,
    /// JUnit XML: a testsuite per file, a failed testcase per finding.
    Junit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The cluster being modelled: its Kubernetes version and feature gates.
#[derive(Args, Debug, Clone, Default)]
pub struct Target {
    /// Kubernetes version whose validation, CEL environment, allocator and gate defaults apply (1.34 to 1.37) [default: the cluster's or snapshot's version, else 1.37].
    #[arg(long = "kubernetes-version", value_name = "VERSION")]
    pub kubernetes_version: Option<String>,

    /// Feature gates on top of the version's defaults, as kube-apiserver and kube-scheduler take them: Name=true,Other=false.
    #[arg(long = "feature-gates", value_name = "GATES")]
    pub feature_gates: Vec<String>,
}

/// What-if: the inventory as it would be after a change (nothing is ever
/// written to the cluster).
#[derive(Args, Debug, Clone, Default)]
pub struct WhatIf {
    /// What-if: objects added, or replacing those of the same kind and name (a DeviceTaintRule, slices, classes, claims).
    #[arg(long = "apply", value_name = "FILE")]
    pub apply: Vec<PathBuf>,
    /// What-if: this object removed (KIND/NAME or KIND/NAMESPACE/NAME, e.g. devicetaintrule/maintenance).
    #[arg(long = "delete", value_name = "KIND/NAME")]
    pub delete: Vec<String>,
    /// What-if: this node cordoned, as `kubectl drain` leaves it (no new pods; its devices stay held).
    #[arg(long = "drain", value_name = "NODE")]
    pub drain: Vec<String>,
    /// What-if: this node gone, with the ResourceSlices bound to it.
    #[arg(long = "remove-node", value_name = "NODE")]
    pub remove_node: Vec<String>,
    /// What-if: N more nodes like --like NODE (its labels, taints and node-local slices in fresh pools, nothing allocated); `auto` (explain pods): the fewest that make the pending pods fit.
    #[arg(long = "add-nodes", value_name = "N|auto", value_parser = parse_add_nodes, requires = "like")]
    pub add_nodes: Option<AddNodes>,
    /// The node --add-nodes copies.
    #[arg(long = "like", value_name = "NODE", requires = "add_nodes")]
    pub like: Option<String>,
}

/// How many nodes `--add-nodes` adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddNodes {
    Count(usize),
    /// The fewest that make the pending pods fit (`explain pods`).
    Auto,
}

/// Copies beyond this would be a typo, not a plan (and a long run).
pub const MAX_ADD_NODES: usize = 10_000;

fn parse_add_nodes(s: &str) -> Result<AddNodes, String> {
    if s == "auto" {
        return Ok(AddNodes::Auto);
    }
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_ADD_NODES).contains(&n) => Ok(AddNodes::Count(n)),
        _ => Err(format!(
            "expected a number of nodes from 1 to {MAX_ADD_NODES}, or auto"
        )),
    }
}

impl WhatIf {
    pub fn is_empty(&self) -> bool {
        self.apply.is_empty()
            && self.delete.is_empty()
            && self.drain.is_empty()
            && self.remove_node.is_empty()
            && self.add_nodes.is_none()
    }
}

/// How to reach a live cluster, as kubectl takes it.
#[derive(Args, Debug, Clone)]
pub struct ClusterArgs {
    /// Path to the kubeconfig file [default: $KUBECONFIG, then ~/.kube/config, then the in-cluster service account].
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// The kubeconfig cluster to use. For `lint`, `--cluster` alone checks the files against the live cluster.
    #[arg(long = "cluster", value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    pub cluster: Option<String>,
    /// The kubeconfig user to use.
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// How long to wait for each request to the cluster (e.g. 30s, 2m; 0 waits forever).
    #[arg(long = "request-timeout", value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub request_timeout: std::time::Duration,
    /// How long the whole cluster read may take, every list and page (0: no limit).
    #[arg(long = "read-deadline", value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    pub read_deadline: std::time::Duration,
    /// Log level, as kubectl's `-v`: from 6, each request to the cluster
    /// (method, URL, status, time) is logged to stderr.
    #[arg(short = 'v', long = "v", value_name = "LEVEL", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=10))]
    pub verbosity: u8,
}

impl ClusterArgs {
    pub fn cluster_name(&self) -> Option<String> {
        self.cluster.clone().filter(|c| !c.is_empty())
    }
}

/// Reads a Go duration as kubectl's `--request-timeout` does (`30s`, `2m`,
/// `1m30s`, `1h2m3.5s`, `500ms`, `250us`, `10ns`), or plain seconds (`30`).
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let text = s.trim();
    let bad =
        || format!("invalid duration {text:?}: use a Go duration such as 30s, 2m, 1m30s or 1h");
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = text.parse().map_err(|_| bad())?;
        return Ok(std::time::Duration::from_secs(n));
    }
    let mut rest = text;
    let mut secs = 0f64;
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .ok_or_else(bad)?;
        let n: f64 = rest[..num_len].parse().map_err(|_| bad())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "ns" => 1e-9,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "" => return Err(bad()),
            u => {
                return Err(format!(
                    "invalid duration {text:?}: unknown unit {u:?} (use ns, us, ms, s, m or h)"
                ))
            }
        };
        secs += n * scale;
        rest = &rest[unit_len..];
    }
    std::time::Duration::try_from_secs_f64(secs)
        .map_err(|e| format!("invalid duration {text:?}: {e}"))
}

#[cfg(test)]
mod duration_tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn go_durations_as_kubectl_reads_them() {
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(
            parse_duration("1h2m3.5s"),
            Ok(Duration::from_secs_f64(3723.5))
        );
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        for bad in ["", "1x", "m", "1m30", "-1s", "1..2s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Files or directories (searched for *.yaml, *.yml, *.json); `-` reads stdin.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    /// The API version to convert to (any the target release serves for the kind).
    #[arg(long, value_name = "VERSION", default_value = "v1", value_parser = ["v1", "v1beta2", "v1beta1", "v1alpha3", "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1", "resource.k8s.io/v1alpha3"])]
    pub to: String,

    #[command(flatten)]
    pub target: Target,

    /// Print a unified diff instead of the converted files.
    #[arg(long, conflicts_with = "write")]
    pub diff: bool,

    /// Edit the files in place.
    #[arg(long)]
    pub write: bool,
}

#[derive(Args, Debug)]
pub struct LintArgs {
    /// Files or directories (searched for *.yaml, *.yml, *.json); `-` reads stdin.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub target: Target,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,

    /// Only run these rules (ids, id prefixes or rule names, comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    pub select: Option<Vec<String>>,

    /// Skip these rules (ids, id prefixes or rule names, comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    pub ignore: Vec<String>,

    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub strict: bool,

    /// The configuration file for every path [default: the nearest
    /// .kubectl-dra.yaml from each file's directory up to the repository root].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Read no configuration file.
    #[arg(long = "no-config", conflicts_with = "config")]
    pub no_config: bool,

    /// Exit 0 even when there are findings (exit 2 for unreadable input
    /// stays): report without failing the job.
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,

    /// Print the findings and nothing else: no summary line (text output).
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Instead of the findings, how many each rule has, most first
    /// (text output).
    #[arg(long, conflicts_with_all = ["fix"])]
    pub statistics: bool,

    /// Write the report to this file instead of stdout (through the safe
    /// writer: a temporary file renamed over it); the exit code is the same.
    #[arg(long = "output-file", value_name = "PATH", conflicts_with = "diff")]
    pub output_file: Option<PathBuf>,

    /// Globs the directory walk leaves out, replacing the defaults
    /// (node_modules, .git); `.gitignore`, `.ignore` and hidden files are always honoured.
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub exclude: Option<Vec<String>>,

    /// Globs the directory walk leaves out, added to the defaults.
    #[arg(long = "extend-exclude", value_delimiter = ',', value_name = "GLOBS")]
    pub extend_exclude: Vec<String>,

    /// List the rules and exit.
    #[arg(long = "list-rules")]
    pub list_rules: bool,

    /// When to use colours in text output (NO_COLOR is honoured).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Largest file `lint` reads (`64Mi` by default; `512Mi`, `2Gi` or a
    /// byte count). Inventory inputs (`--inventory`, `--stored`, and `-f` of
    /// explain, devices and match) have no such limit.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "64Mi")]
    pub max_file_size: u64,

    /// Apply the safe fixes the findings offer (each checked by linting again), then report what is left.
    #[arg(long)]
    pub fix: bool,

    /// Apply the unsafe fixes too (they change what the manifest means: a renamed device, a removed field).
    #[arg(long = "unsafe-fixes", requires = "fix")]
    pub unsafe_fixes: bool,

    /// With --fix: print a unified diff of the fixes instead of writing them.
    #[arg(long, requires = "fix")]
    pub diff: bool,

    /// ResourceSlices to check selectors against: how many devices publish an
    /// attribute, which selectors match nothing or raise errors.
    #[arg(long, value_name = "PATH")]
    pub inventory: Option<Vec<PathBuf>>,

    /// Check each object as a write of this subresource, as `kubectl apply
    /// --subresource=status` sends it: only its status is validated (the
    /// release's Validate*StatusUpdate), as an update of the `--stored` /
    /// `--cluster` object when there is one, else of the object without status.
    #[arg(long, value_enum, value_name = "NAME", conflicts_with = "fix")]
    pub subresource: Option<Subresource>,

    /// Objects as the cluster stores them (a `kubectl dra snapshot` or `kubectl get -o yaml`):
    /// a file object with the same kind, namespace and name is checked as an update of it
    /// (immutable fields, resourceVersion and uid, a binding's roleRef). `--cluster` reads the
    /// DRA objects from the live cluster.
    #[arg(long, value_name = "PATH")]
    pub stored: Option<Vec<PathBuf>>,

    /// With `--cluster`: the live cluster's version, feature gates, DeviceClasses and devices are the target.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DevicesOutput {
    Text,
    Wide,
    Json,
    Yaml,
    /// One `DRIVER/POOL/DEVICE` per line (the device's ID in an allocation result).
    Name,
    /// Comma-separated values with a header line.
    Csv,
}

/// A column `devices --sort-by` orders by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceSort {
    Node,
    Driver,
    Pool,
    Device,
    State,
}

/// `--sort-by`: a column name, or kubectl's JSONPath form of the row's
/// field (`.node`, `{.state}`), case-insensitive.
fn parse_device_sort(s: &str) -> Result<DeviceSort, String> {
    let key = s
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim_start_matches('.')
        .to_ascii_lowercase();
    Ok(match key.as_str() {
        "node" => DeviceSort::Node,
        "driver" => DeviceSort::Driver,
        "pool" => DeviceSort::Pool,
        "device" | "name" => DeviceSort::Device,
        "state" => DeviceSort::State,
        _ => {
            return Err(format!(
                "cannot sort devices by {s:?}: use node, driver, pool, device or state (or .node, {{.state}})"
            ))
        }
    })
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Inventory files or a snapshot; without -f, the live cluster.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub files: Vec<PathBuf>,
    /// Only devices of this node.
    #[arg(long)]
    pub node: Option<String>,
    /// Only devices of this driver.
    #[arg(long)]
    pub driver: Option<String>,
    /// Only devices this DeviceClass selects.
    #[arg(long, value_name = "NAME")]
    pub class: Option<String>,
    /// Only devices of nodes with these labels (key=value,key!=value,key,!key).
    #[arg(short = 'l', long = "selector", value_name = "SELECTOR")]
    pub selector: Option<String>,
    #[arg(short = 'o', long = "output", value_enum, default_value_t = DevicesOutput::Text)]
    pub output: DevicesOutput,
    /// Rows without the header and the summary lines (text and wide output).
    #[arg(long = "no-headers")]
    pub no_headers: bool,
    /// Order the rows by node, driver, pool, device or state (kubectl's `.node` form too); stable.
    #[arg(long = "sort-by", value_name = "FIELD", value_parser = parse_device_sort)]
    pub sort_by: Option<DeviceSort>,

    /// Instead of one row per device, counts per group: devices, allocated,
    /// free, tainted, blocked by counters, with the shared counters and
    /// capacity used of their totals.
    #[arg(long)]
    pub summary: bool,

    /// With --summary: group by node, driver, pool, class or namespace (the
    /// holders'); repeat (or comma-separate) for a tree [default: node].
    #[arg(short = 'g', long = "group-by", value_name = "KEY", value_delimiter = ',', requires = "summary", value_parser = ["node", "driver", "pool", "class", "namespace", "ns"])]
    pub group_by: Vec<String>,

    /// With --summary: order the groups (each level under its parent) by
    /// name (the default), or by devices, allocated or free, most first.
    #[arg(long, value_name = "KEY", requires = "summary", value_parser = ["name", "devices", "allocated", "free"])]
    pub sort: Option<String>,
    #[command(flatten)]
    pub what_if: WhatIf,

    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Args, Debug)]
pub struct SnapshotArgs {
    /// Write to this file instead of standard output.
    #[arg(long = "output-file", value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// Namespace of the Pods to include [default: the context's].
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Include the Pods that use claims in every namespace.
    #[arg(short = 'A', long = "all-namespaces")]
    pub all_namespaces: bool,
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Args, Debug)]
pub struct CapacityArgs {
    /// What to copy: a ResourceClaim, a ResourceClaimTemplate, a Pod (its claims from templates, on the nodes it may run on), or a workload file (a Pod, Deployment, StatefulSet, Job... whose pod template is copied).
    #[arg(value_name = "KIND", value_parser = ["claim", "template", "pod", "workload"])]
    pub kind: String,

    /// NAME or NAMESPACE/NAME; for `workload`, the file.
    #[arg(value_name = "NAME")]
    pub name: String,

    /// Most copies counted per node.
    #[arg(long = "max-per-node", value_name = "N", default_value_t = 64)]
    pub max_per_node: usize,

    #[command(flatten)]
    pub common: ExplainCommon,
}

#[derive(Args, Debug)]
pub struct DoctorArgs {
    /// A `kubectl dra snapshot` or files holding the cluster's objects; without -f, the live cluster.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub files: Vec<PathBuf>,

    /// Output format (as lint's).
    #[arg(short = 'o', long = "output", value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,

    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub strict: bool,

    /// When to use colours in text output (NO_COLOR is honoured).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub what_if: WhatIf,

    #[command(flatten)]
    pub target: Target,

    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Args, Debug)]
pub struct ConfigArgs {
    /// A file or directory: the settings its files are linted with.
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,

    /// This configuration file instead of the nearest one.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// No configuration file: the defaults.
    #[arg(long = "no-config", conflicts_with = "config")]
    pub no_config: bool,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ConfigFormat::Text)]
    pub output: ConfigFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConfigFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A rule id (DRA-V071) or name (too-many-compatibility-groups).
    pub rule: Option<String>,

    /// Print the rule table as Markdown (docs/rules.md is generated from it).
    #[arg(long)]
    pub markdown: bool,
}

/// A size in bytes, or with a binary suffix (`Ki`, `Mi`, `Gi`).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a size: a number of bytes, or with Ki, Mi or Gi"))?;
    let shift = match unit {
        "" => 0,
        "Ki" => 10,
        "Mi" => 20,
        "Gi" => 30,
        _ => {
            return Err(format!(
                "{s:?} is not a size: a number of bytes, or with Ki, Mi or Gi"
            ))
        }
    };
    n.checked_mul(1 << shift)
        .filter(|b| *b > 0)
        .ok_or_else(|| format!("{s:?} is not a usable size"))
}
