// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a run found: each case as its module declares it and KUnit reported it, each plan's
//! and each cell's report, and `run.json`, the record of a cell's latest run that benchmarks,
//! CI and the next run (which starts the longest cells first) read.
//!
//! `run.json` lives in the cell's directory and describes that cell's latest run only: two
//! runs at once hold the cell's lock in turn, and runs of other cells never touch it.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::model::console::Position;
use crate::model::declared::State;
use crate::model::ktap::Outcome;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the boot ended early, if it did: a case (or a module's init) that hung.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hang {
    /// What gave it away: the kernel's report, or the silence.
    pub reason: String,
    /// Where the guest was.
    pub during: Position,
}

/// One case, as the module declares it and KUnit reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Case {
    /// The module that declares it.
    pub module: String,
    pub suite: String,
    pub name: String,
    /// What the compiled module says KUnit must report.
    pub declared: State,
    /// `None`: no result was printed for it.
    pub outcome: Option<Outcome>,
    /// KUnit's diagnostic lines for it (`# ...` before its result), each failed assertion's
    /// `FAILED at` line followed by the assertion's own lines (`Expected ...`, `left: 1, right:
    /// 2`), which KUnit prints without `# `.
    pub diagnostics: Vec<String>,
    /// The headlines of the kernel's reports while it ran (a panic's `panicked at`, a WARN,
    /// `BUG: KASAN: ...`), each naming the detector where its words do not.
    pub reports: Vec<String>,
    /// Those reports whole, as the kernel printed them (their stacks included), one string
    /// each.
    pub report_texts: Vec<String>,
    /// Why it is the case that hung, if it is.
    pub hung: Option<String>,
}

impl Case {
    /// `suite::name`.
    pub fn id(&self) -> String {
        format!("{}::{}", self.suite, self.name)
    }

    /// The line of KUnit's diagnostics (or the kernel's reports) that says most about its
    /// failure: a failed assertion's `ASSERTION FAILED at file:line` (or `EXPECTATION`), which
    /// comes before its `Expected ...`; on the host, a panic's `thread 'x' panicked at ...`.
    pub fn telling(&self) -> Option<&str> {
        self.reports
            .iter()
            .map(String::as_str)
            .chain(self.diagnostics.iter().map(String::as_str).filter(|d| {
                d.contains("ASSERTION FAILED at ")
                    || d.contains("EXPECTATION FAILED at ")
                    || d.contains("' panicked at ")
                    || d.contains("Expected")
                    || d.contains("left")
                    || d.contains("error")
                    || d.contains("try ")
            }))
            .next()
    }

    /// Whether it is as it must be: passed, or skipped as declared.
    pub fn ok(&self) -> bool {
        self.hung.is_none()
            && self.reports.is_empty()
            && matches!(
                (self.outcome, self.declared),
                (Some(Outcome::Pass), State::Runs) | (Some(Outcome::Skip), _)
            )
    }
}

/// What one plan found in one cell.
#[derive(Clone, Debug, Serialize)]
pub struct PlanReport {
    pub name: String,
    /// Every declared case, as KUnit reported it.
    pub cases: Vec<Case>,
    /// Everything that fails it, each naming a log.
    pub problems: Vec<String>,
    /// Its module builds' warnings.
    pub warnings: Vec<String>,
    /// Where its logs are: `console.log`, `ktap-*.log`, `junit.xml`.
    pub dir: PathBuf,
    /// How long its boot took, if it booted (the host's suites: how long they ran).
    pub boot_seconds: Option<f64>,
}

impl PlanReport {
    /// Cases that passed, failed (or did not run), and were skipped.
    pub fn counts(&self) -> (usize, usize, usize) {
        let skipped = self
            .cases
            .iter()
            .filter(|c| c.ok() && c.outcome == Some(Outcome::Skip))
            .count();
        let passed = self
            .cases
            .iter()
            .filter(|c| c.ok() && c.outcome == Some(Outcome::Pass))
            .count();
        (passed, self.cases.len() - passed - skipped, skipped)
    }
}

/// What one cell found.
#[derive(Debug, Serialize)]
pub struct Report {
    /// `<kernel version>/<arch>`, such as `7.3.4/x86_64`.
    pub cell: String,
    /// The matrix's names of its kernel and architecture (`7.3`, `x86_64`).
    pub kernel: &'static str,
    pub arch: &'static str,
    /// One report per plan, in order.
    pub plans: Vec<PlanReport>,
    /// The seconds each step took, in order.
    pub steps: Vec<(String, f64)>,
    /// The cell's directory.
    pub dir: PathBuf,
    /// How long the kernel build took, if it ran.
    pub kernel_build_seconds: Option<u64>,
}

impl Report {
    /// Everything that fails the cell.
    pub fn problems(&self) -> impl Iterator<Item = &String> {
        self.plans.iter().flat_map(|p| &p.problems)
    }

    /// Whether the cell passed.
    pub fn ok(&self) -> bool {
        self.problems().next().is_none()
    }
}

/// A cell that was left out of a run, and why (`time budget, see above`).
#[derive(Clone, Debug, Serialize)]
pub struct NotRun {
    /// The matrix's names of its kernel and architecture.
    pub kernel: &'static str,
    pub arch: &'static str,
    /// Why, as the summary says it.
    pub why: String,
}

/// One cell's run: `<cell dir>/run.json`.
#[derive(Serialize, Deserialize, Debug)]
pub struct CellRun {
    /// `<kernel version>/<arch>`.
    pub cell: String,
    /// The matrix's names of its kernel and architecture.
    pub kernel: String,
    pub arch: String,
    /// `(step, seconds)`, in order.
    pub steps: Vec<(String, f64)>,
    /// The kernel build's seconds, if it ran.
    pub kernel_build_seconds: Option<u64>,
    /// Each plan's result.
    pub plans: Vec<PlanRun>,
}

/// One plan's result in a cell.
#[derive(Serialize, Deserialize, Debug)]
pub struct PlanRun {
    pub name: String,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub warnings: usize,
    pub boot_seconds: Option<f64>,
    pub problems: Vec<String>,
}

impl CellRun {
    /// What `report` says.
    pub fn of(report: &Report) -> Self {
        Self {
            cell: report.cell.clone(),
            kernel: report.kernel.to_string(),
            arch: report.arch.to_string(),
            steps: report.steps.clone(),
            kernel_build_seconds: report.kernel_build_seconds,
            plans: report
                .plans
                .iter()
                .map(|p| {
                    let (passed, failed, skipped) = p.counts();
                    PlanRun {
                        name: p.name.clone(),
                        passed,
                        failed,
                        skipped,
                        warnings: p.warnings.len(),
                        boot_seconds: p.boot_seconds,
                        problems: p.problems.clone(),
                    }
                })
                .collect(),
        }
    }

    /// Reads a cell's `run.json`.
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).at(path)?;
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// The seconds of the steps whose names contain `what`.
    pub fn seconds(&self, what: &str) -> f64 {
        self.steps
            .iter()
            .filter(|(s, _)| s.contains(what))
            .map(|(_, t)| t)
            .sum()
    }
}
