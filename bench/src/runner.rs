// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 5: a driver author's retest loop with `cargo kernel-core`.
//!
//! The drivers are those `cargo xtask runner` checks, outside the repository on kernel-core
//! packaged into a vendor directory (`cargo xtask prepare-driver`): the skeleton of `cargo
//! kernel-core new`, and a copy of the larger example, `examples/dma-engine`. Each is run once
//! untimed (kernels cached; this builds the guests' `/init` and each kernel's kernel-core
//! object), then, [`REPS`] times, one line of one of its files is changed and `cargo
//! kernel-core test` runs again:
//!
//! - with no options: the host suites and the fast cell (Linux 7.3 on User-Mode Linux), what
//!   an author runs after each edit;
//! - `--kernel 7.3 --arch x86_64 --no-host`: one cell under QEMU (TCG), beside UML's;
//! - `--kernel all --arch all`: the host suites and the whole required matrix.
//!
//! Cells run as `cargo kernel-core test` runs them by default: one per core at a time
//! (`--jobs`). The split per step comes from the `run.json` of each cell the timed run wrote;
//! with cells side by side, the steps of all cells add up to more than the wall time.

use super::{median, runs, Goal, Part, REPS};
use cargo_kernel_core::infra::command;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::model::report::CellRun;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

/// The goals, in seconds: the fast cell after a one-line change, and the required matrix.
const FAST_GOAL: f64 = 5.0;
const MATRIX_GOAL: f64 = 45.0;
/// The larger example's goal: what part 5 measured for the nine-cell matrix before the
/// runner's rework (32.0 s, bench/RESULTS.md of 2026-12-04), now over the required matrix.
const EXAMPLE_GOAL: f64 = 32.0;

/// A driver outside the repository.
struct Driver {
    dir: PathBuf,
    /// The directory of this checkout's `cargo-kernel-core` (a release build), first on `PATH`.
    bin: PathBuf,
}

impl Driver {
    /// `cargo xtask prepare-driver DIR [--from EXAMPLE]`.
    fn prepare(repo: &Path, dir: &Path, from: Option<&str>) -> Result<Self> {
        let mut cmd = command::cargo_xtask(repo);
        cmd.arg("prepare-driver").arg(dir);
        if let Some(from) = from {
            cmd.args(["--from", from]);
        }
        command::run(&mut cmd, "preparing the driver failed")?;
        // The runner as a driver author has it: `cargo install` builds it in release mode.
        let bin = command::build_runner(repo, true)?;
        let name = match from {
            Some(example) => Path::new(example)
                .file_name()
                .map(|n| n.to_string_lossy().replace('-', "_"))
                .unwrap_or_default(),
            None => "kcdriver".to_string(),
        };
        Ok(Self {
            dir: dir.join(name),
            bin,
        })
    }

    /// `cargo kernel-core test ARGS` in the driver.
    fn test(&self, args: &[&str]) -> Command {
        let mut cmd = cargo_kernel_core::infra::command::cargo();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![self.bin.clone()];
        paths.extend(std::env::split_paths(&path));
        cmd.env(
            "PATH",
            std::env::join_paths(paths).expect("paths without ':'"),
        )
        .current_dir(&self.dir)
        .args(["kernel-core", "test"])
        .args(args);
        cmd
    }

    /// The `run.json` of every cell the driver ran since `since` (the cells of earlier runs
    /// with other options keep theirs).
    fn cells(&self, since: SystemTime) -> Vec<CellRun> {
        fs::read_dir(self.dir.join("target/kernel-core"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("run.json"))
            .filter(|run| {
                fs::metadata(run)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t >= since)
            })
            .filter_map(|run| CellRun::read(&run).ok())
            .collect()
    }
}

/// One loop measured: its median wall time, and its steps summed over the cells.
struct Loop {
    wall: f64,
    walls: Vec<f64>,
    cells: usize,
    steps: Vec<(String, f64)>,
}

/// Changes `line` of `file` in `driver` each time (a comment, which every build compiles
/// again) and runs `args`, [`REPS`] times.
fn measure(driver: &Driver, file: &str, line: &str, args: &[&str]) -> Result<Loop> {
    let path = driver.dir.join(file);
    let original = fs::read_to_string(&path).at(&path)?;
    if !original.contains(line) {
        anyhow::bail!("{}: `{line}` is not there", path.display());
    }
    command::run(&mut driver.test(args), "the warm-up run failed")?;
    let mut walls = Vec::new();
    let mut steps: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut order = Vec::new();
    let mut cells = 0;
    for rep in 0..REPS {
        let changed = original.replacen(line, &format!("{line} // change {rep}"), 1);
        fs::write(&path, changed).at(&path)?;
        let (start, since) = (Instant::now(), SystemTime::now());
        let result = command::run(&mut driver.test(args), "a timed run failed");
        walls.push(start.elapsed().as_secs_f64());
        result?;
        let ran = driver.cells(since);
        cells = ran.len();
        let mut sums: BTreeMap<String, f64> = BTreeMap::new();
        for cell in &ran {
            for (step, seconds) in &cell.steps {
                *sums.entry(step.clone()).or_default() += seconds;
                if !order.contains(step) {
                    order.push(step.clone());
                }
            }
        }
        for (step, seconds) in sums {
            steps.entry(step).or_default().push(seconds);
        }
    }
    fs::write(&path, original).at(&path)?;
    Ok(Loop {
        wall: median(&walls),
        walls,
        cells,
        steps: order
            .into_iter()
            .map(|s| {
                let m = median(steps.get(&s).map_or(&[][..], Vec::as_slice));
                (s, m)
            })
            .collect(),
    })
}

/// The rows of one loop's table.
fn rows(md: &mut String, what: &str, l: &Loop) {
    let _ = writeln!(
        md,
        "**{what}**: {:.1} s (median of {REPS}: {}), {} cell(s).\n\n| step | seconds, cells together |\n|---|---|",
        l.wall,
        runs(&l.walls),
        l.cells
    );
    for (step, seconds) in &l.steps {
        let _ = writeln!(md, "| {step} | {seconds:.2} |");
    }
    md.push('\n');
}

/// Runs part 5.
pub fn run(repo: &Path, out: &Path) -> Result<Part> {
    let skeleton = Driver::prepare(repo, &out.join("runner"), None)?;
    let line = "/// The longest timeout: one hour.";
    let file = "src/transfer.rs";
    let fast = measure(&skeleton, file, line, &[])?;
    let tcg = measure(
        &skeleton,
        file,
        line,
        &["--no-host", "--kernel", "7.3", "--arch", "x86_64"],
    )?;
    let uml = measure(
        &skeleton,
        file,
        line,
        &["--no-host", "--kernel", "7.3", "--arch", "um"],
    )?;
    let matrix = measure(&skeleton, file, line, &["--kernel", "all", "--arch", "all"])?;
    let example = Driver::prepare(repo, &out.join("example"), Some("examples/dma-engine"))?;
    let larger = measure(
        &example,
        "src/ring.rs",
        "//! The descriptor ring",
        &["--kernel", "all", "--arch", "all"],
    )?;

    let mut md = String::new();
    md.push_str(&format!(
        "Drivers outside the repository, on kernel-core's packages, kernels cached; each time \
         one line of one file changed (a comment, which both the host crate and the module \
         compile again), then `cargo kernel-core test` (this checkout's runner built in release \
         mode, as `cargo install` builds it; cells run side by side, one per core ({} here), its default; \
         steps are summed over the cells):\n\n",
        cargo_kernel_core::pipeline::lanes::default_jobs()
    ));
    rows(
        &mut md,
        "the skeleton, host suites and the fast cell (7.3 on UML), no options",
        &fast,
    );
    rows(
        &mut md,
        "the skeleton, one cell under QEMU: 7.3 on x86_64 (TCG), no host suites",
        &tcg,
    );
    rows(
        &mut md,
        "the skeleton, one cell on UML: 7.3, no host suites",
        &uml,
    );
    rows(
        &mut md,
        "the skeleton, host suites and the required matrix (`--kernel all --arch all`)",
        &matrix,
    );
    rows(
        &mut md,
        "the larger example (`examples/dma-engine`), host suites and the required matrix",
        &larger,
    );
    Ok(Part {
        markdown: md,
        goals: vec![
            Goal {
                what: "one-line change, host suites and the fast cell".into(),
                figure: format!("{:.1} s", fast.wall),
                goal: format!("≤ {FAST_GOAL:.0} s"),
                met: Some(fast.wall <= FAST_GOAL),
            },
            Goal {
                what: format!(
                    "one-line change, the required matrix ({} cells)",
                    matrix.cells
                ),
                figure: format!("{:.1} s", matrix.wall),
                goal: format!("≤ {MATRIX_GOAL:.0} s"),
                met: Some(matrix.wall <= MATRIX_GOAL),
            },
            Goal {
                what: "UML against x86_64 under TCG, one cell after a one-line change".into(),
                figure: format!("{:.1} s against {:.1} s", uml.wall, tcg.wall),
                goal: "(reported)".into(),
                met: None,
            },
            Goal {
                what: format!(
                    "one-line change to the larger example, the required matrix ({} cells)",
                    larger.cells
                ),
                figure: format!("{:.1} s", larger.wall),
                goal: format!("≤ {EXAMPLE_GOAL:.0} s"),
                met: Some(larger.wall <= EXAMPLE_GOAL),
            },
        ],
    })
}
