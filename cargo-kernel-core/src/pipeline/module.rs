// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Module builds: `make M=<dir> modules` against a kernel build, in a directory make can be
//! given (a driver's sources copied in, or a `Kbuild` written), judged by their log: the
//! modules they made and their warnings, or their first errors and what they mean.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::process::{self, Ending, NoMonitor};
use crate::infra::{build_log, cache, files, paths, progress};
use crate::kernel::toolchain::Toolchain;
use crate::model::arch::Arch;
use crate::model::build::Build;
use crate::model::plan::{ModuleBuild, Sources};
use crate::pipeline::{build_error, probes};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a module build may take.
pub const MODULE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// What a module is built against: a kernel build, the toolchain that built it, and its
/// architecture.
#[derive(Clone, Copy)]
pub struct Against<'a> {
    pub build: &'a Build,
    pub tools: &'a Toolchain,
    pub arch: &'a Arch,
    /// In a test run on a kernel without KUnit built in, the `Module.symvers` of kernel-core's
    /// harness module ([`HARNESS`]): the suites are then built for the harness
    /// (`KERNEL_CORE_KUNIT_HARNESS=y`) and use its symbols (`KBUILD_EXTRA_SYMBOLS`). `None`
    /// elsewhere, and in a build for shipping, whose suites are compiled out there.
    pub harness: Option<&'a Path>,
}

/// `make -C <kernel build> M=<dir> <variables> -j<cpus> modules`, logged to `dir/build.log`
/// with a progress line.
pub fn make_modules(
    against: Against<'_>,
    dir: &Path,
    variables: &[String],
) -> Result<process::Logged> {
    paths::check(dir, "the module's build directory")?;
    for variable in variables {
        let (name, value) = variable.split_once('=').unwrap_or(("", variable));
        // Flags (`--remap-path-prefix=a=b`) hold `=`; their paths are checked one by one.
        for part in value.split('=') {
            paths::check(Path::new(part), &format!("{name}'s value"))?;
        }
    }
    let Against {
        build,
        tools,
        arch,
        harness,
    } = against;
    let mut cmd = tools.make(&build.dir, arch);
    if let Some(symvers) = harness {
        cmd.arg("KERNEL_CORE_KUNIT_HARNESS=y")
            .arg(format!("KBUILD_EXTRA_SYMBOLS={}", symvers.display()));
    }
    // The compiler's answers to the top Makefile's probes come from a cache (probes.rs).
    let cc = probes::wrapper(&tools.cc())?;
    cmd.arg(format!("M={}", dir.display()))
        .args(variables)
        .arg(format!("CC={}", cc.display()))
        .arg(format!(
            "-j{}",
            std::thread::available_parallelism().map_or(2, |n| n.get())
        ))
        .arg("modules");
    process::run_logged(
        &mut cmd,
        &dir.join("build.log"),
        "make modules",
        Duration::from_secs(15),
        MODULE_TIMEOUT,
        &mut NoMonitor,
    )
}

/// What a module build gave.
pub enum Built {
    /// Its modules (in `modules.order`) and its warnings.
    Modules(Vec<PathBuf>, Vec<String>),
    /// It failed: its problems (its first errors, the log's path) and its full log.
    Failed(Vec<String>, String),
}

/// Where `spec`'s build goes: `preferred` if make can be given its path, else a directory of
/// the cache (linked from `preferred`).
fn build_dir(preferred: &Path) -> Result<PathBuf> {
    if paths::unsafe_char(preferred).is_none() {
        fs::create_dir_all(preferred).at(preferred)?;
        return Ok(preferred.to_path_buf());
    }
    let key = fnv(preferred.as_os_str().as_encoded_bytes(), FNV_START);
    let dir = cache::dir().join("modules").join(format!("{key:016x}"));
    paths::check(&dir, "the cache")?;
    fs::create_dir_all(&dir).at(&dir)?;
    if let Some(parent) = preferred.parent() {
        fs::create_dir_all(parent).at(parent)?;
    }
    if fs::read_link(preferred).ok().as_deref() != Some(dir.as_path()) {
        let _ = fs::remove_dir_all(preferred);
        let _ = fs::remove_file(preferred);
        std::os::unix::fs::symlink(&dir, preferred).at(preferred)?;
    }
    Ok(dir)
}

/// Removes the objects (`*.o`) under `dir` that the driver's sources make, so that make
/// compiles them again. Kbuild's own (`.module-common.o`, `<module>.mod.o` of the `.mod.c`
/// that modpost writes) hold no line of the driver's, and make rebuilds them when they change.
fn remove_objects(dir: &Path) -> Result {
    for entry in fs::read_dir(dir).at(dir)? {
        let entry = entry.at(dir)?;
        let path = entry.path();
        let kind = entry.file_type().at(&path)?;
        if kind.is_dir() {
            remove_objects(&path)?;
        } else if kind.is_file()
            && path.extension().is_some_and(|e| e == "o")
            && !entry.file_name().to_string_lossy().starts_with('.')
            && !entry.file_name().to_string_lossy().ends_with(".mod.o")
        {
            fs::remove_file(&path).at(&path)?;
        }
    }
    Ok(())
}

/// Runs one module build in `dir` (under the plan's directory) `against` a kernel.
pub fn build_module(spec: &ModuleBuild, against: Against<'_>, dir: &Path) -> Result<Built> {
    let dir = build_dir(dir)?;
    if let Sources::Prebuilt { modules, .. } = &spec.sources {
        return Ok(Built::Modules(copy_in(modules, &dir)?, Vec::new()));
    }
    let variables = write_sources(spec, &dir)?;
    let log = dir.join("build.log");
    let start = progress::step(&format!("building {}", spec.name));
    let logged = make_modules(against, &dir, &variables)?;
    let text = fs::read_to_string(&log).at(&log)?;
    if !logged.success() {
        return Ok(Built::Failed(
            vec![failure(spec, &dir, &logged, &text)],
            text,
        ));
    }
    let warnings: Vec<String> = build_log::warnings(&text)
        .iter()
        .map(|w| w.headline().to_string())
        .collect();
    progress::done(
        &format!(
            "built{}",
            match warnings.len() {
                0 => String::new(),
                n => format!(", {n} warning(s)"),
            }
        ),
        start,
    );
    Ok(Built::Modules(modules(spec, &dir)?, warnings))
}

/// Copies modules built elsewhere into `dir` (each under its own name, the old copies of an
/// earlier run replaced); returns the copies.
pub fn copy_in(modules: &[PathBuf], dir: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(dir).at(dir)?;
    let mut copies = Vec::new();
    for module in modules {
        let name = module
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("{} names no module file", module.display()))?;
        let copy = dir.join(name);
        fs::copy(module, &copy).at(module)?;
        copies.push(copy);
    }
    Ok(copies)
}

/// kernel-core's harness module for kernels without KUnit built in (`kernel_core_kunit.ko`,
/// from kernel-core's `kernel_core_kunit.c`): loaded first, it runs the `#[kunit_tests]`
/// suites of every module loaded after it, when the module is live, and prints their KTAP as
/// KUnit does. Built into the runner, as the guest's `/init` is.
pub const HARNESS: &[(&str, &str)] = &[
    (
        "Kbuild",
        "# Written by cargo kernel-core: the harness that runs #[kunit_tests] suites on a kernel\n\
         # without KUnit.\nobj-m := kernel_core_kunit.o\n",
    ),
    (
        "kernel_core_kunit.c",
        include_str!("../../harness/kernel_core_kunit.c"),
    ),
];

/// The harness's module build, in a cell's directory `harness/`.
pub fn harness_build() -> ModuleBuild {
    ModuleBuild {
        name: "kunit-harness".to_string(),
        sources: Sources::Embedded(HARNESS),
        variables: Vec::new(),
        expect: crate::model::plan::Expect::Modules {
            judged_by_checks: Vec::new(),
            declared_in: None,
        },
    }
}

/// Puts `spec`'s sources into its build directory `dir` (only the files that changed);
/// returns the `make` variables of the build.
fn write_sources(spec: &ModuleBuild, dir: &Path) -> Result<Vec<String>> {
    let mut variables = spec.variables.clone();
    match &spec.sources {
        Sources::Driver(driver) => {
            driver.sync_sources(dir)?;
            variables.extend(driver.make_variables(dir)?);
            // Warnings are part of the verdict, and a compiler only gives them when it runs:
            // the driver's objects are compiled on every run (about a second; a changed file
            // recompiles them anyway), so an unchanged driver still shows its warnings.
            // kernel_core.o comes back from its cache.
            remove_objects(dir)?;
        }
        Sources::Kbuild(text) => {
            files::write_if_changed(&dir.join("Kbuild"), text)?;
        }
        Sources::Embedded(embedded) => {
            for (name, text) in *embedded {
                files::write_if_changed(&dir.join(name), text)?;
            }
        }
        Sources::Prebuilt { .. } => {}
        Sources::Copy(from) => {
            for entry in fs::read_dir(from).at(from)? {
                let entry = entry.at(from)?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.file_type().at(entry.path())?.is_file()
                    && (name == "Kbuild" || name.ends_with(".rs") || name.ends_with(".c"))
                {
                    let text = fs::read(entry.path()).at(entry.path())?;
                    files::write_if_changed(&dir.join(&name), text)?;
                }
            }
        }
    }
    // The driver's messages name its own files, relative to its directory (`src/ring.rs`),
    // not this copy's.
    variables.push(format!(
        "KERNEL_CORE_USER_RUSTFLAGS=--remap-path-prefix={}/=",
        dir.display()
    ));
    Ok(variables)
}

/// The problem of a failed module build: one, however many lines it takes to say (its first
/// errors, not the tail of its log), with what they mean where that is known.
fn failure(spec: &ModuleBuild, dir: &Path, logged: &process::Logged, text: &str) -> String {
    let mut problem = format!(
        "the module build `{}` {} (see {})",
        spec.name,
        match &logged.ending {
            Ending::TimedOut => format!("took more than {}s", MODULE_TIMEOUT.as_secs()),
            _ => "failed".to_string(),
        },
        dir.join("build.log").display()
    );
    let errors = build_log::first_errors(text, 40);
    let shown = if errors.is_empty() {
        &logged.tail
    } else {
        &errors
    };
    for line in shown {
        problem.push_str("\n    | ");
        problem.push_str(line);
    }
    // rustc's words for it: "can't find crate for `kernel_core`" (older),
    // "cannot find module or crate `kernel_core`" (1.9x).
    let no_kernel_core = [
        "can't find crate for `kernel_core`",
        "module or crate `kernel_core`",
    ]
    .iter()
    .any(|m| text.contains(m));
    // The module's Kbuild, as this build used it (a kernel_core.o of an earlier build may
    // still lie in the directory).
    let includes_mk = fs::read_to_string(dir.join("Kbuild"))
        .is_ok_and(|kbuild| kbuild.contains("kernel-core.mk"));
    if no_kernel_core && !includes_mk {
        problem.push_str(
            "\n    the Kbuild does not include kernel-core.mk: add `include $(KERNEL_CORE_SRC)/kernel-core.mk` after `kernel-core-users := ...`",
        );
    }
    for line in build_log::runtime_hints(text) {
        problem.push_str("\n    ");
        problem.push_str(&line);
    }
    for line in build_error::explain(dir, text) {
        problem.push_str("\n    ");
        problem.push_str(&line);
    }
    problem
}

/// The modules a build in `dir` made, in Kbuild's `modules.order`; none is an error.
fn modules(spec: &ModuleBuild, dir: &Path) -> Result<Vec<PathBuf>> {
    let order = dir.join("modules.order");
    let kos: Vec<PathBuf> = fs::read_to_string(&order)
        .at(&order)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| dir.join(Path::new(l.trim()).with_extension("ko")))
        .collect();
    if kos.is_empty() {
        anyhow::bail!(
            "the module build `{}` made no module in {} (does the Kbuild set obj-m?)",
            spec.name,
            dir.display()
        );
    }
    Ok(kos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;

    fn spec() -> ModuleBuild {
        ModuleBuild {
            name: "module".into(),
            sources: Sources::Kbuild(String::new()),
            variables: Vec::new(),
            expect: crate::model::plan::Expect::Modules {
                judged_by_checks: Vec::new(),
                declared_in: None,
            },
        }
    }

    #[test]
    fn a_failure_says_its_first_errors_and_what_they_mean() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        fs::write(dir.join("Kbuild"), "obj-m := mydrv.o\n").unwrap();
        let log = "  RUSTC [M] mydrv.o\nerror[E0463]: can't find crate for `kernel_core`\n --> mydrv_main.rs:3:5\nmake[2]: *** Error 1\n";
        let logged = process::Logged {
            ending: Ending::Exited(std::process::ExitStatus::from_raw(2 << 8)),
            tail: vec!["make: *** Error 2".into()],
        };
        let problem = failure(&spec(), dir, &logged, log);
        assert!(
            problem.starts_with("the module build `module` failed (see "),
            "{problem}"
        );
        assert!(
            problem.contains("\n    | error[E0463]: can't find crate for `kernel_core`"),
            "{problem}"
        );
        assert!(
            problem.contains("the Kbuild does not include kernel-core.mk"),
            "{problem}"
        );
        let timed_out = process::Logged {
            ending: Ending::TimedOut,
            tail: vec!["  CC a.o".into()],
        };
        let problem = failure(&spec(), dir, &timed_out, "");
        assert!(problem.contains("took more than 900s"), "{problem}");
        assert!(problem.ends_with("\n    |   CC a.o"), "{problem}");
    }

    #[test]
    fn modules_built_elsewhere_are_copied_in_not_built() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("var/lib/dkms/d/0.1.0/module");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("d.ko"), "a module").unwrap();
        let out = dir.path().join("plan/dkms");
        let copies = copy_in(&[elsewhere.join("d.ko")], &out).unwrap();
        assert_eq!(copies, [out.join("d.ko")]);
        assert_eq!(fs::read_to_string(&copies[0]).unwrap(), "a module");
        let e = copy_in(&[elsewhere.join("gone.ko")], &out).unwrap_err();
        assert!(e.to_string().contains("gone.ko"), "{e}");
        let prebuilt = Sources::Prebuilt {
            modules: vec![elsewhere.join("d.ko")],
            harness: None,
        };
        assert_eq!(prebuilt.prebuilt_harness(), Some(None));
        assert_eq!(Sources::Kbuild(String::new()).prebuilt_harness(), None);
    }

    #[test]
    fn the_modules_are_those_of_modules_order() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        fs::write(dir.join("modules.order"), "a.o\n\nsub/b.o\n").unwrap();
        assert_eq!(
            modules(&spec(), dir).unwrap(),
            [dir.join("a.ko"), dir.join("sub/b.ko")]
        );
        fs::write(dir.join("modules.order"), "").unwrap();
        let e = modules(&spec(), dir).unwrap_err().to_string();
        assert!(e.contains("made no module"), "{e}");
    }

    #[test]
    fn sources_are_written_and_paths_of_messages_made_relative() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let mut spec = spec();
        spec.sources = Sources::Kbuild("obj-m := x.o\n".into());
        spec.variables = vec!["V=1".into()];
        let variables = write_sources(&spec, dir).unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("Kbuild")).unwrap(),
            "obj-m := x.o\n"
        );
        assert_eq!(
            variables,
            [
                "V=1".to_string(),
                format!(
                    "KERNEL_CORE_USER_RUSTFLAGS=--remap-path-prefix={}/=",
                    dir.display()
                )
            ]
        );
    }
}
