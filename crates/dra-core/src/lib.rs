//! The pure engine of kubectl-dra.
//!
//! Everything here is synchronous, deterministic and free of I/O: the CLI
//! reads files and talks to clusters, then hands text and objects to these
//! modules and renders what comes back.
//!
//! - [`yaml`]: YAML/JSON to spanned [`tree::Node`]s, with limits for hostile input.
//! - [`model`]: which documents are which Kubernetes objects.
//! - [`schema`]: the v1 field shapes; decode errors and gated-field drops.
//! - [`lint`]: the rule engine and its one-file-per-rule [`lint::rules`].
//! - [`dra`]: the DRA objects as typed values, decoded once (defaults applied).
//! - [`allocate`]: kube-scheduler's structured allocator and the explanation of its answer.
//! - [`verdict`]: the verdict across nodes and its causes, as typed data.
//! - [`prefilter`]: the scheduler's checks of a pod's claims before it tries any node.
//! - [`rbac`]: what service accounts may do to claims and slices (Roles, bindings, workloads).
//! - [`gates`], [`format`], [`quantity`]: Kubernetes versions, name formats, quantities.
//! - [`diag`]: findings as data; [`config`]: the repository's `.kubectl-dra.yaml`.

pub mod allocate;
pub mod binding;
pub mod capacity;
pub mod capacity_max;
mod capacity_shape;
pub mod cel;
pub mod config;
pub mod convert;
pub mod diag;
pub mod dra;
pub mod extended;
#[cfg(test)]
mod extended_fixture;
pub mod fix;
pub mod fleet;
pub mod format;
pub mod gates;
pub mod go_time;
pub mod inventory;
pub mod key;
pub mod label_selector;
pub mod lines;
pub mod lint;
pub mod migrate;
pub mod model;
pub mod name_errors;
pub mod names;
pub mod neighbours;
pub mod node_fit;
pub mod node_ports;
pub mod pod_affinity;
pub mod pod_claims;
pub mod prefilter;
pub mod prepare;
pub mod quantity;
pub mod rbac;
pub mod reduce;
pub mod scheduling;
pub mod schema;
pub mod selector_miss;
pub mod served;
pub mod share;
pub mod slices;
pub mod sources;
pub mod stored;
pub mod stranded;
pub mod suggest;
pub mod topology_spread;
pub mod torn;
pub mod tree;
pub mod usage;
pub mod usage_summary;
pub mod verdict;
mod volume_fields;
mod volume_match;
pub mod volumes;
pub mod whatif;
pub mod yaml;
