// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core`'s library: test an out-of-tree Rust kernel driver on every kernel and
//! architecture of the matrix.
//!
//! A driver is a directory with a `Cargo.toml` (its host suites, run by nextest) and a `Kbuild`
//! that includes kernel-core's `kernel-core.mk` (its module, with the same `#[kunit_tests]`
//! suites as KUnit suites). For each kernel and architecture, the runner builds the kernel once
//! into a cache shared by every driver ([`kernel`]), builds the driver's module against it
//! ([`cell`]), boots it under QEMU with a tiny static `/init` ([`guest`]), and judges the
//! console log ([`ktap`], [`verdict`]): a summary table, a KTAP log that the kernel's
//! `kunit.py parse` accepts and a JUnit file per cell.
//!
//! kernel-core's own `cargo xtask` is a user of this library: kernel-core's modules, sample,
//! self-test and example driver are drivers like any other.

pub mod api;
pub mod apt;
pub mod arch;
pub mod build_error;
pub mod build_log;
pub mod cell;
pub mod cli;
pub mod console;
pub mod declared;
pub mod distro;
pub mod driver;
pub mod fetch_check;
pub mod files;
pub mod guest;
pub mod initramfs;
pub mod kernel;
pub mod ktap;
pub mod lanes;
pub mod lock;
pub mod new;
pub mod paths;
pub mod plan;
pub mod preflight;
pub mod probes;
pub mod process;
pub mod rust_analyzer;
pub mod rust_project;
pub mod setup;
pub mod summary;
pub mod ui;
pub mod verdict;
