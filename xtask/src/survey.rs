// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask survey`: how much of what the newest kernel's in-tree Rust drivers and samples
//! import from `kernel::` and `pin_init::` kernel-core provides, at the same paths.
//!
//! kernel-core's promise is that a driver written against the newest kernel's `kernel::` builds
//! on it with `kernel::` renamed. This measures how much of that promise holds for real
//! drivers: every reference of Linux 7.3's `drivers/` and `samples/rust/` ([`crates`] finds
//! the crates from Kbuild, [`references`] the references in each file, [`macros`] maps the macros
//! written without a path to their module), checked by the compiler against kernel-core
//! ([`probe`]), and reported per crate and by missing module ([`report`]). It fails below
//! [`REQUIRED_PERCENT`] of the references of drivers and samples together, so that coverage,
//! once reached, is not lost.
//!
//! A reference is a path a file names, counted once per file: a file that invokes `pr_info!`
//! twenty times depends on it once, as it would `use` it once, and a generated file's fifty
//! `#[derive(MaybeZeroable)]` weigh as one. The share weighted by occurrences is reported
//! beside it. A path through a type to an associated item is checked as far as the compiler
//! can from the place it was written (see [`probe`]).

mod crates;
mod macros;
mod modules;
mod probe;
mod references;
mod report;

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::progress;
use std::path::{Path, PathBuf};

/// The share of the references of the newest kernel's drivers and samples (together) that
/// kernel-core must provide, in percent: the one place the survey's threshold is set, so that
/// coverage cannot fall. kernel-core had 28.1 % of Linux 7.3.4's before the driver's logic; with
/// it (`alloc`, `sync`, `pin_init`, `str`, `fmt`, `list`, ...) 60.0 % (743 of 1,238).
pub const REQUIRED_PERCENT: f64 = 60.0;

/// How many of the modules kernel-core lacks the report lists.
const TOP_MISSING: usize = 15;

/// `cargo xtask survey`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// The kernel tree to survey (default: `KERNEL_CORE_LINUX_SRC`, else the newest kernel's
    /// source, fetched into the cache if needed).
    #[arg(long, value_name = "DIR")]
    pub tree: Option<PathBuf>,
    /// Also write the whole result, every reference with its verdict, as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Runs the survey of kernel-core in `repo`; fails below [`REQUIRED_PERCENT`].
pub fn run(repo: &Path, args: &Args) -> Result {
    let tree = match (&args.tree, std::env::var_os("KERNEL_CORE_LINUX_SRC")) {
        (Some(tree), _) => tree.clone(),
        (None, Some(tree)) => PathBuf::from(tree),
        (None, None) => {
            let newest = &cargo_kernel_core::model::arch::KERNELS[0];
            cargo_kernel_core::kernel::source::fetch(newest)?.dir
        }
    };
    let report = survey(repo, &tree, &repo.join("target/survey/probe"))?;
    println!();
    print!("{}", report.text(TOP_MISSING));
    if let Some(json) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(json, text + "\n").at(json)?;
        println!("Every reference, with its verdict: {}", json.display());
    }
    report.require()?;
    println!(
        "kernel-core provides {:.1} % of them, at least the required {:.0} %",
        report.total.percent, REQUIRED_PERCENT
    );
    Ok(())
}

/// Surveys the tree `tree` against kernel-core in `repo`, the probe crate in `probe`.
fn survey(repo: &Path, tree: &Path, probe: &Path) -> Result<report::Report> {
    let kernel = version(tree)?;
    let start = progress::step(&format!(
        "surveying Linux {kernel}'s drivers and samples ({})",
        tree.display()
    ));
    let rust = tree.join("rust");
    let macros = macros::Macros::read(&rust)?;
    let modules = modules::Modules::read(&rust)?;
    let crates = crates::find(tree)?;
    let mut found = Vec::new();
    for (i, krate) in crates.crates.iter().enumerate() {
        let local = references::local_macros(krate.files.iter().map(|f| &f.syntax));
        for file in &krate.files {
            for reference in references::extract(&file.syntax, &macros, &local) {
                found.push((i, file.path.clone(), reference));
            }
        }
    }
    let verdicts = probe::check(repo, probe, found.iter().map(|(_, _, r)| r))?;
    let found = per_file(found)
        .into_iter()
        .map(|(krate, file, reference, lines)| report::Found {
            krate,
            file,
            module: modules.of(&reference, &macros),
            how: verdicts.by_path[&reference.text()],
            reference,
            lines,
        })
        .collect::<Vec<_>>();
    let header = report::Header {
        kernel,
        tree: tree.to_path_buf(),
        required_percent: REQUIRED_PERCENT,
    };
    let report = report::Report::new(header, &crates, &found, &verdicts, &macros);
    progress::done(
        &format!(
            "{:.1} % of {} references (drivers: {:.1} %)",
            report.total.percent,
            cargo_kernel_core::infra::progress::thousands(report.total.references),
            report.drivers.percent
        ),
        start,
    );
    Ok(report)
}

/// The references of each file, each path once, with the lines it is written on: a file that
/// invokes `pr_info!` twenty times depends on it once, as it would `use` it once.
fn per_file(
    found: Vec<(usize, PathBuf, references::Reference)>,
) -> Vec<(usize, PathBuf, references::Reference, Vec<usize>)> {
    let mut index: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
    let mut unique: Vec<(usize, PathBuf, references::Reference, Vec<usize>)> = Vec::new();
    for (krate, file, reference) in found {
        let key = (krate, file.clone(), reference.text());
        match index.get(&key) {
            Some(&i) => unique[i].3.push(reference.line),
            None => {
                index.insert(key, unique.len());
                let line = reference.line;
                unique.push((krate, file, reference, vec![line]));
            }
        }
    }
    unique
}

/// `VERSION.PATCHLEVEL.SUBLEVEL` of the kernel tree `tree`, from its Makefile.
fn version(tree: &Path) -> Result<String> {
    let path = tree.join("Makefile");
    let makefile = std::fs::read_to_string(&path).at(&path)?;
    let field = |name: &str| {
        makefile
            .lines()
            .find_map(|l| l.strip_prefix(name)?.trim_start().strip_prefix('='))
            .map(str::trim)
            .ok_or_else(|| anyhow::anyhow!("{}: no {name}, not a kernel tree", path.display()))
    };
    Ok(format!(
        "{}.{}.{}",
        field("VERSION")?,
        field("PATCHLEVEL")?,
        field("SUBLEVEL")?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The newest kernel's tree, if `KERNEL_CORE_LINUX_SRC` names it or the cache holds it.
    fn cached_tree() -> Option<PathBuf> {
        if let Some(tree) = std::env::var_os("KERNEL_CORE_LINUX_SRC") {
            return Some(PathBuf::from(tree));
        }
        let newest = &cargo_kernel_core::model::arch::KERNELS[0];
        cargo_kernel_core::kernel::source::cached(newest)
            .ok()
            .flatten()
            .map(|s| s.dir)
    }

    #[test]
    fn the_macro_map_of_the_newest_kernel() {
        let Some(tree) = cached_tree() else {
            eprintln!(
                "skipped: the newest kernel's source is not cached (cargo xtask test fetches it)"
            );
            return;
        };
        let macros = macros::Macros::read(&tree.join("rust")).unwrap();
        assert!(macros.iter().count() > 50, "{macros:?}");
        let origin = |form, name| {
            let origin = macros
                .get(form, name)
                .unwrap_or_else(|| panic!("no {name}"));
            (origin.module.as_str(), origin.path.join("::"))
        };
        use macros::Form::{Attribute, Bang, Derive};
        assert_eq!(
            origin(Bang, "pr_info"),
            ("kernel::print", "kernel::prelude::pr_info".into())
        );
        assert_eq!(
            origin(Bang, "new_mutex"),
            ("kernel::sync::lock::mutex", "kernel::new_mutex".into())
        );
        assert_eq!(
            origin(Bang, "module"),
            ("kernel::macros", "kernel::prelude::module".into())
        );
        assert_eq!(
            origin(Attribute, "pin_data"),
            ("pin_init", "kernel::prelude::pin_data".into())
        );
        assert_eq!(
            origin(Derive, "Zeroable"),
            ("pin_init", "kernel::prelude::Zeroable".into())
        );
        assert_eq!(
            origin(Bang, "stack_pin_init"),
            ("pin_init", "pin_init::stack_pin_init".into())
        );
    }

    /// A tree of two crates, surveyed against kernel-core: `cargo check` of the probe crate
    /// decides each reference, through a type to an associated item too.
    #[test]
    fn a_small_tree_is_checked_by_the_compiler() {
        let tree = std::env::temp_dir().join(format!("survey-tree-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = tree.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("Makefile", "VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 0\n");
        write(
            "rust/kernel/lib.rs",
            "pub mod build_assert;\npub mod error;\npub mod prelude;\npub mod time;\n",
        );
        write(
            "rust/kernel/prelude.rs",
            "pub use super::build_assert::static_assert;\n",
        );
        write(
            "rust/kernel/build_assert.rs",
            "#[macro_export]\nmacro_rules! static_assert { ($($t:tt)*) => {} }\n",
        );
        write(
            "rust/macros/lib.rs",
            "#[proc_macro]\npub fn module(t: TokenStream) -> TokenStream { t }\n",
        );
        write("rust/pin-init/src/lib.rs", "");
        write(
            "rust/pin-init/internal/src/lib.rs",
            "#[proc_macro_derive(Zeroable)]\npub fn derive(t: TokenStream) -> TokenStream { t }\n",
        );
        write("drivers/x/Makefile", "obj-$(CONFIG_X) += x.o\n");
        write(
            "drivers/x/x.rs",
            "use kernel::time::Delta;\n\
             use kernel::no_such_module::Thing;\n\
             fn f() -> kernel::error::Result {\n\
                 let _ = kernel::time::Delta::from_millis(1);\n\
                 let _ = kernel::time::Delta::no_such_fn(1);\n\
                 let _: kernel::time::Delta::Assoc = 1;\n\
                 static_assert!(true);\n\
                 static_assert!(true);\n\
             }\n",
        );
        write("samples/rust/Makefile", "obj-y += s.o\n");
        write(
            "samples/rust/s.rs",
            "use pin_init::Zeroable;\n#[derive(Zeroable)]\nstruct S;\n",
        );
        let repo = crate::repo();
        let report = survey(&repo, &tree, &repo.join("target/survey/probe-test"));
        std::fs::remove_dir_all(&tree).unwrap();
        let report = report.unwrap();
        let verdicts: Vec<_> = report
            .references
            .iter()
            .map(|r| (r.path.as_str(), r.module.as_str(), r.lines.clone(), r.how))
            .collect();
        use probe::How::{AsFarAsTheType, Missing, Use, Value};
        assert_eq!(
            verdicts,
            [
                ("kernel::time::Delta", "time", vec![1], Use),
                (
                    "kernel::no_such_module::Thing",
                    modules::ROOT,
                    vec![2],
                    Missing
                ),
                ("kernel::error::Result", "error", vec![3], Use),
                ("kernel::time::Delta::from_millis", "time", vec![4], Value),
                ("kernel::time::Delta::no_such_fn", "time", vec![5], Missing),
                (
                    "kernel::time::Delta::Assoc",
                    "time",
                    vec![6],
                    AsFarAsTheType
                ),
                (
                    "kernel::prelude::static_assert",
                    "build_assert",
                    vec![7, 8],
                    Use
                ),
                ("pin_init::Zeroable", "pin_init", vec![1, 2], Use),
            ]
        );
        assert_eq!((report.drivers.references, report.drivers.covered), (7, 5));
        assert_eq!((report.total.references, report.total.covered), (8, 6));
        assert_eq!(report.total.percent, 75.0);
        assert_eq!(
            (report.occurrences.references, report.occurrences.covered),
            (10, 8)
        );
        assert_eq!(report.missing[0].module, modules::ROOT);
    }

    #[test]
    fn versions_are_read_from_the_makefile() {
        let dir = std::env::temp_dir().join(format!("survey-version-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Makefile"),
            "# SPDX\nVERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\nEXTRAVERSION =\n",
        )
        .unwrap();
        assert_eq!(version(&dir).unwrap(), "7.3.4");
        std::fs::remove_dir_all(&dir).unwrap();
        let error = version(&dir).unwrap_err().to_string();
        assert!(
            error.contains(&dir.join("Makefile").display().to_string()),
            "{error}"
        );
    }
}
