// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! One cell of the matrix for a driver: its module built against one cached kernel, booted
//! under QEMU, and judged case by case.

use crate::arch::{Arch, Kernel};
use crate::build_error;
use crate::driver::Driver;
use crate::guest;
use crate::kernel::{self, Build, Toolchain};
use crate::ktap;
use crate::lock::Lock;
use crate::setup;
use crate::ui::Context as _;
use crate::ui::{self, Result};
use crate::verdict::{self, Case};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a module build may take.
pub const MODULE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// What one cell found.
pub struct Report {
    /// `<kernel version>/<arch>`, such as `7.3.4/x86_64`.
    pub cell: String,
    /// The matrix's names of its kernel and architecture (`7.3`, `x86_64`).
    pub kernel: &'static str,
    pub arch: &'static str,
    /// Every case the driver's sources declare, as KUnit reported it.
    pub cases: Vec<Case>,
    /// Everything that fails the cell, each naming a log.
    pub problems: Vec<String>,
    /// The seconds each step took, in order.
    pub steps: Vec<(&'static str, f64)>,
    /// Where its logs are: `build.log`, `console.log`, `ktap-*.log`, `junit.xml`.
    pub dir: PathBuf,
}

impl Report {
    /// Cases that passed, failed (or did not run), and were skipped.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |o: Option<ktap::Outcome>| self.cases.iter().filter(|c| c.outcome == o).count();
        let skipped = count(Some(ktap::Outcome::Skip));
        let passed = count(Some(ktap::Outcome::Pass));
        (passed, self.cases.len() - passed - skipped, skipped)
    }
}

/// The seconds each step of a run took, in order (`.0`), and when the current step began.
pub struct Laps(pub Vec<(&'static str, f64)>, Instant);

impl Laps {
    /// Starts the clock.
    pub fn start() -> Self {
        Self(Vec::new(), Instant::now())
    }

    /// Records the time since the previous lap (or the start) as step `what`.
    pub fn lap(&mut self, what: &'static str) {
        let now = Instant::now();
        self.0.push((what, (now - self.1).as_secs_f64()));
        self.1 = now;
    }
}

/// `make -C <kernel build> M=<dir> <variables> -j<cpus> modules`, logged to `dir/build.log`
/// with a progress line; `Logged::status` is `None` after [`MODULE_TIMEOUT`].
pub fn make_modules(
    tools: &Toolchain,
    build: &Build,
    arch: &Arch,
    dir: &Path,
    variables: &[String],
) -> Result<ui::Logged> {
    let mut cmd = tools.make(&build.dir, arch);
    cmd.arg(format!("M={}", dir.display()))
        .args(variables)
        .arg(format!(
            "-j{}",
            std::thread::available_parallelism().map_or(2, |n| n.get())
        ))
        .arg("modules");
    ui::run_logged(
        &mut cmd,
        &dir.join("build.log"),
        "make modules",
        Duration::from_secs(15),
        MODULE_TIMEOUT,
    )
}

/// Builds `driver`'s module in `dir` against `build` with `make M=`; the `.ko` files, or the
/// build's problems (its log named, and the sites and functions behind `rust_build_error` if
/// modpost failed on it).
pub fn build_module(
    driver: &Driver,
    tools: &Toolchain,
    build: &Build,
    arch: &Arch,
    dir: &Path,
) -> Result<std::result::Result<Vec<PathBuf>, Vec<String>>> {
    fs::create_dir_all(dir).at(dir)?;
    driver.sync_sources(dir)?;
    let mut variables = driver.make_variables().to_vec();
    // KUnit's messages and panics name the driver's files, not this copy's.
    variables.push(format!(
        "KERNEL_CORE_USER_RUSTFLAGS=--remap-path-prefix={}={}",
        dir.display(),
        driver.dir.display()
    ));
    let log = dir.join("build.log");
    let start = ui::step(&format!("building {}'s module", driver.name()));
    let logged = make_modules(tools, build, arch, dir, &variables)?;
    if logged.status.is_none() {
        return Ok(Err(vec![format!(
            "timeout: the module build took more than {}s (see {})",
            MODULE_TIMEOUT.as_secs(),
            log.display()
        )]));
    }
    if !logged.status.is_some_and(|s| s.success()) {
        let mut problems: Vec<String> =
            vec![format!("the module build failed (see {})", log.display())];
        problems.extend(logged.tail.iter().map(|l| format!("  | {l}")));
        let text = fs::read_to_string(&log).at(&log)?;
        problems.extend(build_error::explain(dir, &text));
        return Ok(Err(problems));
    }
    ui::done("module built", start);
    let mut kos = Vec::new();
    for entry in fs::read_dir(dir).at(dir)? {
        let path = entry.at(dir)?.path();
        if path.extension().is_some_and(|e| e == "ko") {
            kos.push(path);
        }
    }
    kos.sort();
    if kos.is_empty() {
        return Ok(Err(vec![format!(
            "the module build made no .ko in {} (does the Kbuild set obj-m?)",
            dir.display()
        )]));
    }
    Ok(Ok(kos))
}

/// Tests `driver` on `kernel` and `arch`: builds the kernel if it is not cached, the module,
/// boots, and judges every case its sources declare.
pub fn run(driver: &Driver, kernel: &Kernel, arch: &Arch) -> Result<Report> {
    let mut laps = Laps::start();
    println!(
        "=== {} on Linux {} / {} ===",
        driver.name(),
        kernel.name,
        arch.name
    );
    setup::ensure_kernel_tools(arch)?;
    // A distribution's kernel gets its own exact toolchain (distro/toolchain.rs).
    let tools = Toolchain::for_kernel(kernel, arch)?;
    let build = kernel::build(kernel, arch, &tools)?;
    laps.lap("kernel (cache check)");
    let cell = format!("{}/{}", build.source.version, arch.name);
    let dir = driver
        .target_dir
        .join("kernel-core")
        .join(format!("{}-{}", kernel.name, arch.name));
    // Two runs on one driver would build into the same directory.
    let _lock = Lock::exclusive(&dir.join(".lock"), "this driver's build for this cell")?;
    let mut report = Report {
        cell: cell.clone(),
        kernel: kernel.name,
        arch: arch.name,
        cases: Vec::new(),
        problems: Vec::new(),
        steps: Vec::new(),
        dir: dir.clone(),
    };
    let kos = match build_module(driver, &tools, &build, arch, &dir.join("module"))? {
        Ok(kos) => kos,
        Err(problems) => {
            laps.lap("module build");
            report.problems = problems
                .into_iter()
                .map(|p| format!("{cell}: {p}"))
                .collect();
            report.steps = laps.0;
            return Ok(report);
        }
    };
    laps.lap("module build");
    let init = guest::build_init(arch)?;
    laps.lap("guest /init (cached)");
    let boot = guest::boot(&build, arch, &dir, &init, &kos)?;
    laps.lap("boot and KUnit");
    // --- Distribution kernels without KUnit (distro/judge.rs): no case to judge; every module
    // must load, print its init lines and unload, with no kernel trouble.
    if !build.kunit {
        let mut problems = boot.problems(&kos);
        problems.extend(crate::distro::judge::without_kunit(
            &boot,
            &kos,
            &build.source.version,
        )?);
        report.problems = problems
            .into_iter()
            .map(|p| format!("{cell}: {p}"))
            .collect();
        let junit = dir.join("junit.xml");
        fs::write(
            &junit,
            verdict::junit(&cell, &[], &report.problems, boot.seconds),
        )
        .at(&junit)?;
        laps.lap("verdict");
        println!(
            "    {cell}: no KUnit; {} module(s) loaded and unloaded: {} (JUnit: {})",
            kos.len(),
            if report.problems.is_empty() {
                "ok"
            } else {
                "FAILED"
            },
            junit.display()
        );
        report.steps = laps.0;
        return Ok(report);
    }
    // --- end of the distribution kernels' block.
    let files = driver.suite_files()?;
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let expected = ktap::expected_suites(&refs).doing("reading the driver's suites")?;
    report.cases = verdict::cases(&boot.log, &expected);
    // What belongs to no case: the boot, the modules, the log's format.
    let mut boot_problems: Vec<String> = boot
        .problems(&kos)
        .into_iter()
        .map(|p| format!("{cell}: {p}"))
        .collect();
    let failed = report
        .cases
        .iter()
        .any(|c| c.outcome == Some(ktap::Outcome::Fail));
    for ktap_file in verdict::write_ktap(&boot.log, &dir)? {
        let parsed = verdict::kunit_py_parse(&build.source.dir, &ktap_file)?;
        println!(
            "    kunit.py parse {}: {}",
            ktap_file.display(),
            parsed.verdict
        );
        // kunit.py fails on a failed case too: that is no disagreement.
        if parsed.verdict.is_empty() || (!parsed.passed && !failed) {
            boot_problems.push(format!(
                "{cell}: kunit.py parse ({}) disagrees with the log {}:\n{}",
                build.source.dir.display(),
                ktap_file.display(),
                parsed.output
            ));
        }
    }
    let junit = dir.join("junit.xml");
    fs::write(
        &junit,
        verdict::junit(&cell, &report.cases, &boot_problems, boot.seconds),
    )
    .at(&junit)?;
    report.problems = boot_problems;
    report
        .problems
        .extend(verdict::problems(&report.cases, &cell, &boot.console));
    laps.lap("verdict");
    let (passed, failed, skipped) = report.counts();
    println!(
        "    {cell}: {passed} passed, {failed} failed, {skipped} skipped: {} (JUnit: {})",
        if report.problems.is_empty() {
            "ok"
        } else {
            "FAILED"
        },
        junit.display()
    );
    report.steps = laps.0;
    Ok(report)
}
