// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core`'s library: test an out-of-tree Rust kernel driver on every kernel and
//! architecture of the matrix.
//!
//! A driver is a directory with a `Cargo.toml` (its host suites, run by nextest) and a `Kbuild`
//! that includes kernel-core's `kernel-core.mk` (its module, with the same `#[kunit_tests]`
//! suites as KUnit suites). For each kernel and architecture, the runner builds the kernel once
//! into a cache shared by every driver ([`kernel`]), builds the driver's module against it,
//! boots it under QEMU with a tiny static `/init` and judges the console log ([`pipeline`]),
//! and reports: the terminal's lines, a summary table, a KTAP log that the kernel's
//! `kunit.py parse` accepts, JUnit and `run.json` per cell ([`report`]).
//!
//! kernel-core's own `cargo xtask` is a user of this library: kernel-core's modules, sample,
//! self-test and example driver are drivers like any other.
//!
//! # Layers
//!
//! The modules are folders by layer, from the bottom up; a module names only modules of its
//! own layer or of the layers below it, and the modules of a layer form no cycle (the test
//! `tests/layers.rs` holds it to this list):
//!
//! 1. [`infra`]: errors, processes, commands, progress lines, files, paths, locks, hashes;
//! 2. [`model`]: the matrix, drivers, plans, what a run found, the formats it reads;
//! 3. [`kernel`]: kernel sources and builds, upstream and Debian's, and what they need;
//! 4. [`pipeline`]: module builds, boots, verdicts, cells and their scheduling;
//! 5. [`report`]: what a run tells (the terminal, JUnit, KTAP, `run.json`, the summary);
//! 6. [`cli`]: the command line's grammar;
//! 7. [`commands`]: the commands, carried out.

pub mod cli;
pub mod commands;
pub mod infra;
pub mod kernel;
pub mod model;
pub mod pipeline;
pub mod report;
