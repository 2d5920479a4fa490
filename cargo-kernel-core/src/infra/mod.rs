// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The bottom layer: what any tool needs, with no knowledge of kernels, cells or drivers.
//! Errors that name their path, child processes that never outlive the runner, commands,
//! progress lines, files written atomically, Debian packages built, paths made safe for make, locks, hashes, the
//! cache's directory and Markdown tables.

pub mod build_log;
pub mod cache;
pub mod command;
pub mod deb;
pub mod error;
pub mod files;
pub mod hash;
pub mod lock;
pub mod paths;
pub mod process;
pub mod progress;
pub mod qmp;
pub mod signal;
pub mod table;
pub mod watchdog;
