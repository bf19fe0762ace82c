//! One module per subcommand: glue between flags, files and the engine.
pub mod capacity;
mod capacity_pod;
pub mod complete;
mod complete_names;
pub mod completion;
pub mod config;
pub mod convert;
pub mod devices;
pub mod doctor;
pub mod explain;
pub mod lint;
pub mod matching;
pub mod rbac;
pub mod rules;
pub mod server;
pub mod snapshot;
pub mod source;
