// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask qemu`: build a kernel (cached), kernel-core's modules and the example driver,
//! boot QEMU, load them, and judge the console log.

use crate::arch::{Arch, Kernel, KERNELS};
use crate::corpus;
use crate::kernel::{self, Toolchain};
use crate::ktap::{self, Outcome};
use crate::modules::{self, Flavour};
use crate::ui::Context as _;
use crate::ui::{self, Result};
use crate::{guest, setup, verdict};
use cargo_kernel_core::cell::Laps;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `kbuild/tests/kernel_core_kunit_selftest_main.rs` must report: each case's outcome
/// and a piece of its failure message. It fails on purpose, so that a passing run proves
/// failures really reach KUnit.
const SELFTEST: &[(&str, Outcome, &str)] = &[
    ("a_passes", Outcome::Pass, ""),
    (
        "b_assert_fails",
        Outcome::Fail,
        "Expected 1 + 1 == 3 to be true, but is false",
    ),
    ("c_assert_eq_fails", Outcome::Fail, "left: 4, right: 5"),
    (
        "d_assert_ne_fails_with_message",
        Outcome::Fail,
        "values must differ: 42: left: 7, right: 7",
    ),
    (
        "e_returns_err",
        Outcome::Fail,
        "the test function returned an error",
    ),
    ("f_cfg_disabled", Outcome::Skip, ""),
    ("g_ignored", Outcome::Skip, ""),
    ("h_failure_stops_the_case", Outcome::Fail, "stop here"),
    ("i_nothing_ran_after_the_failure", Outcome::Pass, ""),
];

/// Checks the self-test suite against [`SELFTEST`]; returns the problems.
fn check_selftest(log: &ktap::Log) -> Vec<String> {
    let Some(load) = log
        .loads
        .iter()
        .find(|l| l.module == "kernel_core_kunit_selftest.ko")
    else {
        return vec!["no output from kernel_core_kunit_selftest.ko".to_string()];
    };
    let Some(suite) = load
        .suites
        .iter()
        .find(|s| s.name == "kernel_core_kunit_selftest")
    else {
        return vec!["the KUnit self-test suite did not run".to_string()];
    };
    let mut problems = Vec::new();
    for (case, outcome, message) in SELFTEST {
        match suite.cases.iter().find(|(name, _)| name == case) {
            Some((_, seen)) if seen == outcome => {}
            seen => problems.push(format!(
                "self-test {case}: expected {outcome:?}, KUnit reported {:?}",
                seen.map(|s| s.1)
            )),
        }
        if !message.is_empty() && !load.lines.iter().any(|l| l.contains(message)) {
            problems.push(format!(
                "self-test {case}: the log lacks its failure message `{message}`"
            ));
        }
    }
    if suite.ok != Some(false) {
        problems.push(
            "the self-test suite, which fails on purpose, was not reported as failed".to_string(),
        );
    }
    if problems.is_empty() {
        println!("    KUnit self-test: 2 passed, 5 failed and 2 skipped, exactly as intended");
    }
    problems
}

/// What one QEMU run found, for the summary table.
pub struct Summary {
    pub kernel: String,
    pub arch: &'static str,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// The cases the switch-back check passed, where it ran.
    pub switch_back: Option<usize>,
    /// `None` when the kernel came from the cache.
    pub build_seconds: Option<u64>,
    pub boot_seconds: f64,
    /// The seconds each step took, in order.
    pub steps: Vec<(&'static str, f64)>,
    /// What the sample module printed.
    pub sample: Vec<String>,
    /// Why the run failed, if it did.
    pub problems: Vec<String>,
}

/// The directory whose files hold the `#[kunit_tests]` suites every run must report: the one
/// list of suites, which cargo (`tests/build.rs`) and Kbuild read too.
const SUITES_DIR: &str = "tests/suites";

/// What one boot found.
struct Boot {
    passed: usize,
    failed: usize,
    skipped: usize,
    seconds: f64,
    /// What the sample module and the example driver printed.
    sample: Vec<String>,
    problems: Vec<String>,
}

/// Packs `kos` into an initramfs under `out`, boots it, and judges the console log: every
/// module loaded, every case of the suites declared in `suite_files` passed, `kunit.py parse`
/// accepts the log, no Oops/BUG/WARNING/panic, the sample printed its report, and, with
/// `checks`, the self-test suite failed exactly as intended and the corpus gave the host's
/// verdicts.
fn boot(
    build: &kernel::Build,
    arch: &Arch,
    out: &Path,
    init: &Path,
    kos: &[PathBuf],
    suite_files: &[PathBuf],
    checks: Option<&corpus::Verdicts>,
) -> Result<Boot> {
    // The boot itself, judged as for any driver: a hang, an Oops, a module that did not load.
    let boot = guest::boot(build, arch, out, init, kos)?;
    let mut problems = boot.problems(kos);
    let guest::Boot {
        log,
        console,
        seconds,
        ..
    } = boot;

    // The suites: every one the sources declare must have run, every case passed.
    let file_refs: Vec<&Path> = suite_files.iter().map(PathBuf::as_path).collect();
    let expected = ktap::expected_suites(&file_refs).doing("reading the suite files")?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    match log
        .loads
        .iter()
        .find(|l| l.module == "kernel_core_tests.ko")
    {
        None => problems.push("no output from kernel_core_tests.ko".to_string()),
        Some(load) => {
            // Each case judged as for any driver; kernel-core's own suites must also each
            // report ok as a whole.
            let cases = verdict::cases(&log, &expected);
            for suite_name in expected.keys() {
                println!("    suite {suite_name}:");
                for case in cases.iter().filter(|c| &c.suite == suite_name) {
                    let mark = match case.outcome {
                        Some(Outcome::Pass) => {
                            passed += 1;
                            "ok  "
                        }
                        Some(Outcome::Fail) => {
                            failed += 1;
                            "FAIL"
                        }
                        Some(Outcome::Skip) => {
                            skipped += 1;
                            "skip"
                        }
                        None => "miss",
                    };
                    println!("      {mark} {}", case.name);
                }
                match load.suites.iter().find(|s| &s.name == suite_name) {
                    None => problems.push(format!("suite {suite_name} did not run")),
                    Some(suite) if suite.ok != Some(true) => {
                        problems.push(format!("suite {suite_name} did not report ok"));
                    }
                    Some(_) => {}
                }
            }
            let cell = format!("{}/{}", build.source.version, arch.name);
            problems.extend(verdict::problems(&cases, &cell, &console));
            let ktap_file = out.join("ktap.log");
            fs::write(&ktap_file, load.ktap.join("\n") + "\n").at(&ktap_file)?;
            // The kernel's own parser, and the newest kernel's too: both must accept the log.
            let mut parsers = vec![(build.source.version.clone(), build.source.dir.clone())];
            match kernel::source(&KERNELS[0]) {
                Ok(newest) if newest.dir != build.source.dir => {
                    parsers.push((newest.version, newest.dir));
                }
                Ok(_) => {}
                Err(e) => problems.push(format!(
                    "no Linux {} source for its kunit.py: {e}",
                    KERNELS[0].name
                )),
            }
            for (version, dir) in parsers {
                match verdict::kunit_py_parse(&dir, &ktap_file) {
                    Ok(parsed) if parsed.passed => {
                        println!("    kunit.py parse ({version}): {}", parsed.verdict);
                    }
                    Ok(parsed) => problems.push(format!(
                        "kunit.py parse ({version}) rejected {}:\n{}",
                        ktap_file.display(),
                        parsed.output
                    )),
                    Err(e) => problems.push(e.0),
                }
            }
        }
    }

    if let Some(corpus_verdicts) = checks {
        problems.extend(check_selftest(&log));
        problems.extend(corpus::check_kernel(&log, corpus_verdicts, &console));
    }

    let sample: Vec<String> = log
        .loads
        .iter()
        .filter(|l| l.module == "kernel_core_sample.ko" || l.module == "kernel_core_example.ko")
        .flat_map(|l| l.lines.iter())
        .filter(|l| {
            l.starts_with("kernel-core sample")
                || l.starts_with("kernel-core example")
                || l.contains("kernel_core_sample:")
                || l.contains("kernel_core_example:")
        })
        .cloned()
        .collect();
    if !sample
        .iter()
        .any(|l| l.contains("kernel-core sample: done"))
    {
        problems.push("the sample module did not print its report".to_string());
    }
    Ok(Boot {
        passed,
        failed,
        skipped,
        seconds,
        sample,
        problems,
    })
}

/// One full run: kernel, modules, boot, verdict; on a kernel with the whole mirrored API, the
/// switch-back check too.
pub fn run(repo: &Path, kernel: &Kernel, arch: &Arch) -> Result<Summary> {
    if kernel.stock.is_some() {
        return run_stock(repo, kernel, arch);
    }
    let total = Instant::now();
    let mut laps = Laps::start();
    println!("=== Linux {} on {} ===", kernel.name, arch.name);
    setup::ensure_kernel_tools(arch)?;
    let tools = Toolchain::find(arch)?;
    laps.lap("tools checked");
    let build = kernel::build(kernel, arch, &tools)?;
    laps.lap("kernel build (or cache check)");

    let out = repo
        .join("target/kernel")
        .join(format!("{}-{}", kernel.name, arch.name));
    fs::create_dir_all(&out).at(&out)?;
    let mut kos = modules::build_ours(repo, &tools, &build, arch, &out, Flavour::KernelCore)?;
    laps.lap("kernel-core's modules built");
    kos.push(modules::build_example(
        repo,
        &tools,
        &build,
        arch,
        &out,
        Flavour::KernelCore,
    )?);
    laps.lap("example driver built");
    modules::check_unprovable_fails(repo, &tools, &build, arch, &out)?;
    laps.lap("unprovable build_assert! fixture must fail");
    let init = guest::build_init(arch)?;
    laps.lap("guest /init built");
    let corpus_verdicts = corpus::host(repo)?;
    laps.lap("corpus run on the host");

    let suites = ktap::suite_files(&repo.join(SUITES_DIR))?;
    let mut files = suites.clone();
    if kernel.has_7_1_api {
        files.push(repo.join("kbuild/tests/conformance.rs"));
    }
    let Boot {
        passed,
        failed,
        skipped,
        seconds: boot_seconds,
        sample,
        mut problems,
    } = boot(
        &build,
        arch,
        &out,
        &init,
        &kos,
        &files,
        Some(&corpus_verdicts),
    )?;
    laps.lap("boot, KUnit and the verdict");

    // The switch-back check: the same sample, example and suites, with `kernel_core::` naming
    // the kernel's own items, must build and pass.
    let mut switch_back = None;
    if kernel.has_mirrored_api {
        let out = out.join("switch-back");
        fs::create_dir_all(&out).at(&out)?;
        let built = modules::build_ours(repo, &tools, &build, arch, &out, Flavour::SwitchBack)
            .and_then(|mut kos| {
                kos.push(modules::build_example(
                    repo,
                    &tools,
                    &build,
                    arch,
                    &out,
                    Flavour::SwitchBack,
                )?);
                Ok(kos)
            });
        match built.and_then(|kos| boot(&build, arch, &out, &init, &kos, &suites, None)) {
            Ok(boot) => {
                println!(
                    "    switch-back check (kernel:: in place of kernel_core::): {} passed, {} failed",
                    boot.passed, boot.failed
                );
                problems.extend(
                    boot.problems
                        .into_iter()
                        .map(|p| format!("switch-back: {p}")),
                );
                switch_back = Some(boot.passed);
            }
            Err(e) => problems.push(format!("switch-back: {e}")),
        }
        laps.lap("switch-back check: modules built and booted");
    }

    println!(
        "    Linux {} on {}: {passed} passed, {failed} failed, {skipped} skipped; {} ({})",
        kernel.name,
        arch.name,
        if problems.is_empty() { "OK" } else { "FAILED" },
        ui::elapsed(total.elapsed())
    );
    for problem in &problems {
        println!("    problem: {problem}");
    }
    Ok(Summary {
        kernel: build.source.version,
        arch: arch.name,
        passed,
        failed,
        skipped,
        switch_back,
        build_seconds: build.seconds,
        boot_seconds,
        steps: laps.0,
        sample,
        problems,
    })
}

/// A distribution's stock kernel (`cargo_kernel_core::distro`): kernel-core's sample module and
/// the example driver built for it and loaded into its unchanged image. The stock kernel has no
/// KUnit, so the suites are compiled out: each module must load, print its init lines and
/// unload, with no Oops/BUG/WARNING/panic, and the sample must print its report.
fn run_stock(repo: &Path, kernel: &Kernel, arch: &Arch) -> Result<Summary> {
    let total = Instant::now();
    let mut laps = Laps::start();
    println!(
        "=== {} on {} (the distribution's own kernel) ===",
        kernel.name, arch.name
    );
    setup::ensure_kernel_tools(arch)?;
    let tools = Toolchain::for_kernel(kernel, arch)?;
    laps.lap("tools checked");
    let build = kernel::build(kernel, arch, &tools)?;
    laps.lap("stock kernel metadata (or cache check)");
    let out = repo
        .join("target/kernel")
        .join(format!("{}-{}", kernel.name, arch.name));
    fs::create_dir_all(&out).at(&out)?;
    let mut kos: Vec<PathBuf> =
        modules::build_ours(repo, &tools, &build, arch, &out, Flavour::KernelCore)?
            .into_iter()
            .filter(|ko| ko.ends_with("kernel_core_sample.ko"))
            .collect();
    kos.push(modules::build_example(
        repo,
        &tools,
        &build,
        arch,
        &out,
        Flavour::KernelCore,
    )?);
    laps.lap("sample and example driver built");
    let init = guest::build_init(arch)?;
    let boot = guest::boot(&build, arch, &out, &init, &kos)?;
    laps.lap("boot");
    let mut problems = boot.problems(&kos);
    problems.extend(cargo_kernel_core::distro::judge::without_kunit(
        &boot,
        &kos,
        &build.source.version,
    )?);
    let sample: Vec<String> = boot
        .log
        .loads
        .iter()
        .flat_map(|l| l.lines.iter())
        .filter(|l| l.contains("kernel-core sample") || l.contains("kernel-core example"))
        .cloned()
        .collect();
    if !sample
        .iter()
        .any(|l| l.contains("kernel-core sample: done"))
    {
        problems.push("the sample module did not print its report".to_string());
    }
    println!(
        "    {} on {}: no KUnit; {} module(s) loaded and unloaded; {} ({})",
        kernel.name,
        arch.name,
        kos.len(),
        if problems.is_empty() { "OK" } else { "FAILED" },
        ui::elapsed(total.elapsed())
    );
    for problem in &problems {
        println!("    problem: {problem}");
    }
    Ok(Summary {
        kernel: build.source.version,
        arch: arch.name,
        passed: 0,
        failed: 0,
        skipped: 0,
        switch_back: None,
        build_seconds: build.seconds,
        boot_seconds: boot.seconds,
        steps: laps.0,
        sample,
        problems,
    })
}
