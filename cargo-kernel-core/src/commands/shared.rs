// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The commands both tools share ([`Shared`]): `kernels`, `modules`, `rust-analyzer` and
//! `why-build-error`. What differs between the two tools is what a module build is: a
//! driver's plan for one, kernel-core's own modules for the other ([`Subject`]).

use crate::cli::{Cells, KernelsCmd, Shared};
use crate::commands::rust_analyzer;
use crate::infra::error::Result;
use crate::infra::table::Table;
use crate::infra::{cache, command, progress};
use crate::kernel::toolchain::Toolchain;
use crate::kernel::{self, distro, fetch_check, preflight, setup};
use crate::model::arch::{self, Arch, Kernel, ARCHES, KERNELS};
use crate::model::build::Build;
use crate::model::plan::{Expect, Plan};
use crate::pipeline::build_error;
use crate::pipeline::module::{self, Against};
use std::path::{Path, PathBuf};

/// What the shared commands act on.
pub struct Subject {
    /// The plans `modules` builds (their module builds only).
    pub plans: Box<dyn Fn() -> Result<Vec<Plan>>>,
    /// The kernel-core sources, and where rust-analyzer's files go.
    pub sources: rust_analyzer::Sources,
    /// The module `rust-analyzer` sets up unless `--module` names one.
    pub module: PathBuf,
    /// Where `modules` builds.
    pub out: PathBuf,
}

/// The cells `list` shows: all of them unless the options name some.
fn listed(cells: &Cells) -> Result<Vec<(Kernel, Arch)>> {
    if cells.kernel.is_none() && cells.arch.is_none() {
        return Ok(KERNELS
            .iter()
            .flat_map(|k| {
                ARCHES
                    .iter()
                    .filter(|a| k.supports(a))
                    .map(move |a| (*k, *a))
            })
            .collect());
    }
    cells.matrix()
}

/// `kernels list`: a table of the cells, which are required, cached or being built now, and
/// where the cache is.
fn list(cells: &Cells) -> Result {
    let mut table = Table::new(&[
        "kernel",
        "Debian package (suite)",
        "architecture",
        "required",
        "cached",
    ]);
    for (k, a) in listed(cells)? {
        table.row(&[
            k.name.to_string(),
            format!("{} ({})", k.package, k.suite),
            a.name.to_string(),
            if k.requires(&a) { "yes" } else { "no" }.to_string(),
            match kernel::state(&k, &a) {
                kernel::State::Cached => "yes",
                kernel::State::Building => "being built now",
                kernel::State::Absent => "no",
            }
            .to_string(),
        ]);
    }
    for line in table.text().lines() {
        progress::note(line);
    }
    crate::note!("cache: {}", cache::dir().display());
    Ok(())
}

/// Runs `command`; `subject` is asked for only by the commands that act on modules.
pub fn run(command: Shared, subject: impl FnOnce() -> Result<Subject>) -> Result {
    match command {
        Shared::Kernels(KernelsCmd::List(cells)) => list(&cells),
        Shared::Kernels(KernelsCmd::Build(cells)) => {
            // The longest first (those with the detectors take about twice as long), so that
            // no long build is left for the end; a distribution's, which only rebuilds its
            // Rust metadata, last.
            let mut cells = cells.matrix()?;
            cells.sort_by_key(|(k, a)| (k.stock.is_some(), !(k.detectors && a.detectors)));
            for (k, a) in cells {
                setup::ensure_kernel_tools(&a)?;
                let tools = kernel::toolchain_for(&k, &a)?;
                kernel::build(&k, &a, &tools)?;
            }
            Ok(())
        }
        Shared::Kernels(KernelsCmd::CheckFetch) => fetch_check::check_all().map(drop),
        Shared::Kernels(KernelsCmd::Clean(cells)) => {
            for (k, a) in cells.matrix()? {
                for dir in kernel::clean(&k, &a)? {
                    crate::note!("    removed {}", dir.display());
                }
            }
            Ok(())
        }
        Shared::Modules {
            kdir: Some(kdir),
            arch,
            ..
        } => modules(&subject()?, &kdir, arch.as_deref()),
        Shared::Modules {
            kdir: None,
            distro,
            kernel_release,
            overlay,
            arch,
        } => stock_modules(
            &subject()?,
            distro.as_deref(),
            kernel_release.as_deref(),
            arch.as_deref(),
            overlay,
        ),
        Shared::RustAnalyzer {
            kernel,
            arch,
            module,
            strict,
        } => {
            let subject = subject()?;
            let request = rust_analyzer::Request::new(
                &kernel,
                arch.as_deref(),
                module.unwrap_or_else(|| subject.module.clone()),
                strict,
            )?;
            if strict {
                setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
            }
            rust_analyzer::run(&subject.sources, request)
        }
        Shared::WhyBuildError { objects } => build_error::why(&objects),
    }
}

/// `modules --kdir DIR`: the subject's module builds against the user's kernel.
fn modules(subject: &Subject, kdir: &Path, arch: Option<&str>) -> Result {
    let kdir = kdir.canonicalize().unwrap_or_else(|_| kdir.to_path_buf());
    let config = kdir.join(".config");
    let arch = match arch {
        Some(name) => arch::arch(name)?,
        None => arch::from_config(
            &std::fs::read_to_string(&config)
                .map_err(|e| anyhow::anyhow!("{}: {e}", config.display()))?,
        )?,
    };
    let tools = Toolchain::find(&arch)?;
    let rustc_version = command::output(std::process::Command::new(&tools.rustc).arg("--version"))
        .unwrap_or_default();
    preflight::KernelDir {
        dir: &kdir,
        rustc_version: &rustc_version,
    }
    .check()
    .map_err(anyhow::Error::msg)?;
    let build = Build::existing(&kdir, &arch)?;
    build_all(subject, &tools, &build, &arch, &subject.out).map(drop)
}

/// Builds the module builds of the subject's plans against `build` into `out`; returns the
/// modules.
fn build_all(
    subject: &Subject,
    tools: &Toolchain,
    build: &Build,
    arch: &Arch,
    out: &Path,
) -> Result<Vec<PathBuf>> {
    let mut problems = Vec::new();
    let mut built = Vec::new();
    for plan in (subject.plans)()? {
        for spec in &plan.builds {
            if !matches!(spec.expect, Expect::Modules { .. }) {
                continue;
            }
            let dir = out.join(&plan.dir).join(&spec.name);
            match module::build_module(
                spec,
                Against {
                    build,
                    tools,
                    arch,
                    harness: None,
                },
                &dir,
            )? {
                module::Built::Modules(kos, warnings) => {
                    for ko in &kos {
                        crate::note!("    built {}", ko.display());
                    }
                    for warning in warnings {
                        crate::note!("    warning: {warning}");
                    }
                    built.extend(kos);
                }
                module::Built::Failed(failed, _) => problems.extend(failed),
            }
        }
    }
    if problems.is_empty() {
        Ok(built)
    } else {
        Err(anyhow::anyhow!(problems.join("\n")))
    }
}

/// `modules --distro K [--kernel-release KREL]`: the subject's modules for a distribution's
/// stock kernel, with how to install and sign them.
fn stock_modules(
    subject: &Subject,
    distro: Option<&str>,
    release: Option<&str>,
    arch: Option<&str>,
    overlay: bool,
) -> Result {
    let arch = arch::arch(arch.unwrap_or("x86_64"))?;
    let kernel = match (distro, release) {
        (Some(name), _) => arch::kernel(name)?,
        (None, Some(krel)) => distro::row_of(krel)?,
        (None, None) => unreachable!("clap requires one"),
    };
    distro::stock(&kernel)?;
    // The release first: a wrong one is said before anything else is looked at.
    let release = distro::release(&kernel, &arch, release)?;
    setup::ensure_kernel_tools(&arch)?;
    let tools = distro::toolchain::find(&release)?;
    let build = distro::build_release(&kernel, &arch, &tools, &release)?;
    let out = subject.out.join("distro").join(&release.release);
    let kos = build_all(subject, &tools, &build, &arch, &out)?;
    if overlay {
        let flavour = distro::debian_arch(&arch).unwrap_or("amd64");
        let debs = distro::overlay::write(&release, &build.dir, flavour, &out)?;
        crate::note!(
            "    metadata overlay: {} (install it next to linux-headers-{}; then `make -C /lib/modules/{1}/build M=$PWD` builds Rust modules)",
            debs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(" and "),
            release.release
        );
    }
    for line in distro::shipping_notes(&release.release, &kos).lines() {
        progress::note(line);
    }
    Ok(())
}
