//! `kubectl-dra` as a library: the command-line edge (flags, files, the
//! cluster client, renderers) around the pure engine in `dra-core`. The
//! binary (`main.rs`) is a thin wrapper; the library exists so the fuzz
//! targets can drive the argument parser, the kubeconfig loader and the
//! response decoder directly.

#![allow(clippy::print_stdout, clippy::print_stderr)]

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod config;
pub mod files;
pub mod render;
pub mod rendered;
pub mod writer;

/// What a command printed and how it ended.
pub struct Outcome {
    pub stdout: String,
    pub code: u8,
}
