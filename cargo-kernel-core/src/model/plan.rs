// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a cell does: a plan of module builds, one boot that loads what they built, and the
//! checks that judge the boot beside the verdict every module gets.
//!
//! A driver is one plan ([`Plan::of_driver`]): its module, built from the sources
//! its `Cargo.toml` resolves, every case it declares judged. kernel-core's own checks are
//! plans too, declared in its `xtask`: its test modules and example drivers, a module that
//! must fail to build, and checks on the console (a self-test suite that fails on purpose, a
//! corpus whose verdicts must match the host's); the switch-back check is a second plan in
//! the same cell. One pipeline ([`crate::pipeline::cell`]) runs them all.

use crate::model::build::Build;
use crate::model::console::Log;
use crate::model::declared::Declared;
use crate::model::driver::Driver;
use crate::model::report::PlanReport;
use std::path::{Path, PathBuf};

/// One plan.
pub struct Plan {
    /// Its name in messages, tables and JUnit: the driver's, `kernel-core`, `switch-back`.
    pub name: String,
    /// Where its results go, relative to the cell's directory (empty: the cell's own).
    pub dir: PathBuf,
    /// Its module builds, in order.
    pub builds: Vec<ModuleBuild>,
    /// Checks on the boot, beside the verdict of every declared case.
    pub checks: Vec<Check>,
    /// For a plan that must fail (a self-test of the verdict itself): the judge of its
    /// problems, which returns what is wrong with them (none if they are what they must be).
    /// The problems then no longer fail the cell; the judge's do.
    pub judge: Option<Judge>,
}

impl Plan {
    /// A driver as a plan: its module, built from its own sources, every case it declares
    /// judged.
    pub fn of_driver(driver: &Driver) -> Self {
        Self {
            name: driver.name(),
            dir: PathBuf::new(),
            builds: vec![ModuleBuild {
                name: "module".to_string(),
                sources: Sources::Driver(Box::new(driver.clone())),
                variables: Vec::new(),
                expect: Expect::Modules {
                    judged_by_checks: Vec::new(),
                    declared_in: None,
                },
            }],
            checks: Vec::new(),
            judge: None,
        }
    }
}

/// Judges a plan's problems: what is wrong with them.
pub type Judge = Box<dyn Fn(&PlanReport) -> Vec<String> + Send + Sync>;

/// One `make M=... modules`.
pub struct ModuleBuild {
    /// Its directory's name, under the plan's.
    pub name: String,
    /// What the directory holds.
    pub sources: Sources,
    /// More `make` variables.
    pub variables: Vec<String>,
    /// What must come of it.
    pub expect: Expect,
}

/// The sources of a module build.
pub enum Sources {
    /// A driver's: its module sources copied in (changed files only), built with the
    /// kernel-core its `Cargo.toml` resolves.
    Driver(Box<Driver>),
    /// A `Kbuild` written into the directory (which may include another).
    Kbuild(String),
    /// A directory's `Kbuild`, `.rs` and `.c` files, copied in (changed files only).
    Copy(PathBuf),
    /// Files built into the runner, each `(name, text)`, written in (changed files only): the
    /// harness module of kernels without KUnit.
    Embedded(&'static [(&'static str, &'static str)]),
    /// Modules built elsewhere (by DKMS in a Debian system, say), copied in and loaded as they
    /// are: nothing is built. `harness` is kernel-core's harness module built with them, loaded
    /// before them in place of the cell's own (a test build for a kernel without KUnit), or none
    /// (a build for shipping, whose suites are compiled out: no harness is loaded).
    Prebuilt {
        modules: Vec<PathBuf>,
        harness: Option<PathBuf>,
    },
}

impl Sources {
    /// For modules built elsewhere, the harness built with them (or none): the cell then
    /// loads that one, or none, instead of its own.
    pub fn prebuilt_harness(&self) -> Option<Option<&Path>> {
        match self {
            Sources::Prebuilt { harness, .. } => Some(harness.as_deref()),
            _ => None,
        }
    }
}

/// What must come of a module build.
pub enum Expect {
    /// It builds, and its modules load, in Kbuild's `modules.order`.
    Modules {
        /// Modules whose cases a [`Check`] judges instead of the verdict (a self-test that
        /// fails on purpose, say).
        judged_by_checks: Vec<String>,
        /// Where the declared cases of its modules are read: `None` for the modules
        /// themselves; for modules built with the kernel's own `#[kunit_tests]`, which writes
        /// no table (the switch-back check), the directory of another build, whose module of
        /// the same name declares them.
        declared_in: Option<PathBuf>,
    },
    /// It must fail to build: the closure judges the failure, returning its problems (none if
    /// it failed as it must).
    Failure(FailureJudge),
}

/// Judges a module build that failed as it must: its problems.
pub type FailureJudge = Box<dyn Fn(&Failed<'_>) -> Vec<String> + Send + Sync>;

/// A check's function: the problems it finds in a boot.
pub type CheckFn = Box<dyn Fn(&Booted<'_>) -> Vec<String> + Send + Sync>;

/// A module build that failed.
pub struct Failed<'a> {
    /// Its directory and its full log.
    pub dir: &'a Path,
    pub log: &'a str,
}

/// A check on a boot.
pub struct Check {
    /// What it checks, for messages.
    pub name: String,
    /// The check: the problems it found.
    pub run: CheckFn,
}

/// What a check looks at.
pub struct Booted<'a> {
    /// `<kernel version>/<arch>`.
    pub cell: &'a str,
    /// The console, parsed, and its file.
    pub log: &'a Log,
    pub console: &'a Path,
    /// The kernel that booted.
    pub build: &'a Build,
    /// The modules that were loaded, and the suites each declares.
    pub kos: &'a [PathBuf],
    pub declared: &'a [Declared],
    /// The plan's directory, for files a check writes.
    pub dir: &'a Path,
}
