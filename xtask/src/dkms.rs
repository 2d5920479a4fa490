// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The DKMS check: a driver shipped as its users get it, proven in a real Debian system.
//!
//! 1. A driver made by `cargo kernel-core new` on kernel-core's packages, outside the
//!    repository (as [`crate::runner`] makes one), is packaged as a driver author packages
//!    it: `cargo kernel-core package --dkms` (a build for shipping), `--dkms --with-tests` (a
//!    test build) and `--overlay` (the Rust metadata of every stock kernel of the required
//!    matrix: amd64, arm64, rt-amd64), each overlay checked to depend on its headers of
//!    exactly its version.
//! 2. A Debian trixie root file system ([`rootfs`], made by debootstrap and cached) with
//!    Debian's `dkms`, `rustc` (1.85.1, which prints exactly the stock kernel's
//!    `CONFIG_RUSTC_VERSION_TEXT`), `bindgen` and the stock kernel's `linux-headers-*` from
//!    trixie-backports, installed with apt.
//! 3. In a session of it, with apt, as a user: the overlay, then the test package, whose
//!    postinst has DKMS build the modules for the stock release; `cargo kernel-core doctor`
//!    there says every item is ok; then the package for shipping, which replaces it. Then a
//!    kernel upgrade: the headers and overlay of the `rt-amd64` flavour (no second 7.x release
//!    with Rust is served), for which DKMS builds too.
//! 4. The modules DKMS built, not the runner's, loaded into Debian's own `vmlinuz` under QEMU
//!    by the runner's pipeline: the test build's suites run and pass, every case its module
//!    declares; the shipping builds print their probe line, on both flavours.
//! 5. As a user sees it fail: the overlay removed and the package reinstalled, DKMS's build
//!    fails, and its `make.log` holds the preflight's message, not a rustc error.
//! 6. The same package's build step against the matrix's Linux 6.12 build, which has no
//!    `pin_init` crate: the module builds with the kernel-core-pin-init the package ships.

use crate::runner;
use anyhow::bail;
use cargo_kernel_core::commands;
use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::{command, deb, files, progress};
use cargo_kernel_core::kernel::distro::rootfs::{self, Rootfs, Session};
use cargo_kernel_core::kernel::distro::{self, overlay, preflight, Release};
use cargo_kernel_core::model::arch::{self, Arch, Kernel, KERNELS};
use cargo_kernel_core::model::ktap::Outcome;
use cargo_kernel_core::model::plan::{Booted, Check, Expect, ModuleBuild, Plan, Sources};
use cargo_kernel_core::model::report::Report;
use cargo_kernel_core::pipeline::cell::{self, Planned};
use cargo_kernel_core::pipeline::{lanes, plan};
use cargo_kernel_core::report::summary::Summary;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long one apt command (with a DKMS build in it) may take in the root.
const APT_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// The driver the skeleton makes, and the line its module prints when it loads.
const DRIVER: &str = "kcdriver";
const PROBE: &str = "ring entries, a 1 MiB transfer may take";

/// One stock kernel of the check: its row, its release, its flavour's Debian architecture.
struct Stock {
    kernel: Kernel,
    release: Release,
}

/// The two stock x86_64 kernels of the required matrix ([`rootfs::dkms_kernels`]): the one
/// the user runs, and the one the user upgrades to (another flavour of the same release: no
/// second 7.x release with Rust is served).
fn stock_kernels() -> Result<(Stock, Stock)> {
    let x86 = arch::x86_64();
    let Some((first, second)) = rootfs::dkms_kernels(KERNELS) else {
        bail!("the required matrix has no stock x86_64 kernel with another flavour of its release: nothing to upgrade to");
    };
    let stock = |kernel: Kernel| -> Result<Stock> {
        Ok(Stock {
            kernel,
            release: distro::release(&kernel, &x86, None)?,
        })
    };
    Ok((stock(first)?, stock(second)?))
}

/// The Debian root file system of the check ([`rootfs::dkms_spec`] of the stock kernel the
/// user runs), made if the cache has none of its packages.
pub fn ensure_root() -> Result<Rootfs> {
    let (first, _) = stock_kernels()?;
    Rootfs::ensure(&rootfs::dkms_spec(&first.kernel, &first.release.release))
}

/// The times of the check, step by step.
#[derive(Default)]
struct Times(Vec<(String, f64)>);

impl Times {
    fn add(&mut self, what: impl Into<String>, seconds: f64) {
        self.0.push((what.into(), seconds));
    }

    fn table(&self) -> String {
        let mut table = cargo_kernel_core::infra::table::Table::new(&["step", "time"]);
        for (what, seconds) in &self.0 {
            table.row(&[
                what.clone(),
                progress::elapsed(Duration::from_secs_f64(*seconds)),
            ]);
        }
        table.text().to_string()
    }
}

/// Checks an overlay package: its name, architecture, and that it depends on its headers
/// of exactly its version.
fn check_overlay(deb: &Path, release: &str, version: &str, arch: &str) -> Result {
    let package = deb::field(deb, "Package")?;
    let depends = deb::field(deb, "Depends")?;
    let architecture = deb::field(deb, "Architecture")?;
    let headers = format!("linux-headers-{release} (= {version})");
    if package != overlay::package(release) || architecture != arch || !depends.contains(&headers) {
        bail!(
            "{}: Package {package}, Architecture {architecture}, Depends {depends}: it must be {} for {arch}, depending on {headers}",
            deb.display(),
            overlay::package(release)
        );
    }
    println!(
        "    {}: {package} ({architecture}) depends on {depends}",
        deb.display()
    );
    Ok(())
}

/// The `linux-rust-kbuild-*` package that the overlay `deb` depends on.
fn kbuild_of(deb: &Path) -> Result<String> {
    let depends = deb::field(deb, "Depends")?;
    depends
        .split(',')
        .map(|d| d.trim().split([' ', '(']).next().unwrap_or_default())
        .find(|d| d.starts_with("linux-rust-kbuild-"))
        .map(str::to_string)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{} depends on no linux-rust-kbuild-* package (Depends: {depends})",
                deb.display()
            )
        })
}

/// The `.deb` in `dir` whose name starts with `prefix`.
fn deb_in(dir: &Path, prefix: &str) -> Result<PathBuf> {
    fs::read_dir(dir)
        .at(dir)?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
                && p.extension().is_some_and(|e| e == "deb")
        })
        .ok_or_else(|| anyhow::anyhow!("{} holds no {prefix}*.deb", dir.display()))
}

/// Copies the modules DKMS built for `release` of package `name` out of the session into
/// `share/<into>/`, decompressed (DKMS compresses them as the kernel's own are); returns them
/// in `dkms.conf`'s order.
fn modules_out(
    session: &mut Session,
    name: &str,
    version: &str,
    release: &str,
    modules: &[&str],
    into: &str,
) -> Result<Vec<PathBuf>> {
    let from = format!("/var/lib/dkms/{name}/{version}/{release}/x86_64/module");
    session.must(
        &format!("copying {name}'s modules for {release} out"),
        &[
            "sh",
            "-c",
            "mkdir -p \"/kernel-core/$2\" && cp \"$1\"/*.ko* \"/kernel-core/$2/\"",
            "sh",
            &from,
            into,
        ],
        Duration::from_secs(60),
    )?;
    let dir = session.share.join(into);
    let mut kos = Vec::new();
    for module in modules {
        let ko = dir.join(format!("{module}.ko"));
        for (suffix, tool) in [("xz", "xz"), ("zst", "zstd"), ("gz", "gzip")] {
            let packed = dir.join(format!("{module}.ko.{suffix}"));
            if packed.exists() {
                command::run(
                    Command::new(tool).args(["-d", "-f"]).arg(&packed),
                    "cannot decompress a module DKMS built",
                )?;
            }
        }
        if !ko.is_file() {
            bail!("DKMS built no {module}.ko for {release} (in {from})");
        }
        kos.push(ko);
    }
    Ok(kos)
}

/// How long DKMS's build of package `name` for `release` took, as its kept `make.log` says
/// (`# elapsed time: 00:00:42`).
fn build_seconds(session: &mut Session, name: &str, version: &str, release: &str) -> Result<f64> {
    let log = format!("/var/lib/dkms/{name}/{version}/{release}/x86_64/log/make.log");
    let text = session.must(
        &format!("{name}'s make.log for {release}"),
        &["cat", &log],
        Duration::from_secs(60),
    )?;
    text.output
        .lines()
        .find_map(|l| l.strip_prefix("# elapsed time: "))
        .and_then(|t| {
            let parts: Vec<f64> = t.trim().split(':').filter_map(|p| p.parse().ok()).collect();
            (parts.len() == 3).then(|| parts[0] * 3600.0 + parts[1] * 60.0 + parts[2])
        })
        .ok_or_else(|| anyhow::anyhow!("{log} says no elapsed time:\n{}", text.output))
}

/// What DKMS says of package `name` on `release`: it must be installed.
fn check_installed(session: &mut Session, name: &str, version: &str, release: &str) -> Result {
    let status = session.must(
        &format!("dkms status of {name} on {release}"),
        &["dkms", "status", "-m", name, "-v", version, "-k", release],
        Duration::from_secs(60),
    )?;
    if !status.output.contains("installed") {
        bail!(
            "DKMS has not installed {name} {version} for {release}:\n{}",
            status.output
        );
    }
    println!("    {}", status.output.trim());
    Ok(())
}

/// A check that the module `ko` printed its probe line when it loaded.
fn probe_check(module: &str) -> Check {
    let module = format!("{module}.ko");
    Check {
        name: format!("{module} prints its probe line"),
        run: Box::new(move |booted: &Booted<'_>| {
            let printed = booted
                .log
                .loads
                .iter()
                .filter(|l| l.module == module)
                .flat_map(|l| &l.lines)
                .any(|line| line.contains(PROBE));
            if printed {
                Vec::new()
            } else {
                vec![format!(
                    "{}: {module} loaded without printing its probe line (`{PROBE}`; see {})",
                    booted.cell,
                    booted.console.display()
                )]
            }
        }),
    }
}

/// A plan that loads modules DKMS built.
fn dkms_plan(
    name: &str,
    modules: Vec<PathBuf>,
    harness: Option<PathBuf>,
    checks: Vec<Check>,
) -> Plan {
    Plan {
        name: name.to_string(),
        dir: PathBuf::from(name),
        builds: vec![ModuleBuild {
            name: "dkms".to_string(),
            sources: Sources::Prebuilt { modules, harness },
            variables: Vec::new(),
            expect: Expect::Modules {
                judged_by_checks: Vec::new(),
                declared_in: None,
            },
        }],
        checks,
        judge: None,
    }
}

/// The check; its times are printed as a table at its end. Its driver is made in a directory
/// of its own under the system's temporary directory, so that runs at the same time (from two
/// checkouts, say) cannot meet: removed when the check passes, kept (and named) when it fails.
pub fn check(repo: &Path) -> Result {
    let scratch = files::scratch_dir("kernel-core-dkms-check.")?;
    let result = check_in(repo, scratch.path());
    if result.is_err() {
        println!(
            "    the check's driver is kept in {}",
            scratch.keep().display()
        );
    }
    result
}

/// [`check`], with its driver made in `root`.
fn check_in(repo: &Path, root: &Path) -> Result {
    let started = Instant::now();
    let start = progress::step(
        "the DKMS check: a driver packaged by cargo kernel-core, built by DKMS in a Debian trixie system, loaded into Debian's kernel",
    );
    let mut times = Times::default();
    let (first, second) = stock_kernels()?;
    let x86 = arch::x86_64();

    // 1. The packages, as an author makes them.
    let d = runner::prepare(repo, root, None)?;
    let package_dir = d.driver.join("target/kernel-core/package");
    let _ = fs::remove_dir_all(&package_dir);
    let at = Instant::now();
    d.passes(&["package", "--dkms"], "the DKMS package for shipping")?;
    d.passes(
        &["package", "--dkms", "--with-tests"],
        "the DKMS test package",
    )?;
    times.add(
        "cargo kernel-core package --dkms, and --with-tests",
        at.elapsed().as_secs_f64(),
    );
    let at = Instant::now();
    d.passes(
        &["package", "--overlay"],
        "the stock kernels' metadata overlays",
    )?;
    times.add(
        "cargo kernel-core package --overlay (every stock kernel of the matrix; metadata cached)",
        at.elapsed().as_secs_f64(),
    );
    for (kernel, arch) in arch::required()
        .into_iter()
        .filter(|(k, _)| k.stock.is_some())
    {
        let release = distro::release(&kernel, &arch, None)?;
        let debian = distro::debian_arch(&arch).expect("a stock kernel's architecture");
        let deb = deb_in(
            &package_dir,
            &format!("{}_", overlay::package(&release.release)),
        )?;
        check_overlay(&deb, &release.release, &release.version, debian)?;
    }
    // DKMS's version of the package: the driver's, as its Cargo.toml says.
    let version = cargo_kernel_core::model::driver::Driver::open(&d.driver)?.version;

    // 2. The Debian system.
    let at = Instant::now();
    let base = rootfs::base_suite(&first.kernel);
    let spec = rootfs::dkms_spec(&first.kernel, &first.release.release);
    let system = Rootfs::ensure(&spec)?;
    match system.made {
        Some((debootstrap, apt)) => {
            times.add(
                format!("debootstrap --variant=minbase {base}"),
                debootstrap.as_secs_f64(),
            );
            times.add(
                format!(
                    "apt-get install {} linux-headers-{}",
                    rootfs::DKMS_PACKAGES.join(" "),
                    first.release.release
                ),
                apt.as_secs_f64(),
            );
        }
        None => times.add(
            "the Debian root file system (cached)",
            at.elapsed().as_secs_f64(),
        ),
    }
    let mut session = Session::new(&system, &repo.join("target/kernel/dkms/session"))?;
    // The packages a command installs, in the session's /kernel-core (linked, not copied).
    let share = session.share.clone();
    let debs = |prefix: &str| -> Result<String> {
        let deb = deb_in(&package_dir, prefix)?;
        let name = deb.file_name().expect("a file");
        if !share.join(name).exists() {
            files::link_or_copy(&deb, &share.join(name))?;
        }
        Ok(format!("/kernel-core/{}", name.to_string_lossy()))
    };
    let rustc = session.must(
        "rustc --version",
        &["rustc", "--version"],
        Duration::from_secs(60),
    )?;
    let want = first
        .release
        .config
        .get("CONFIG_RUSTC_VERSION_TEXT")
        .unwrap_or_default()
        .to_string();
    if rustc.output.trim() != want {
        bail!(
            "Debian {base}'s rustc says `{}`, the kernel's .config `{want}`",
            rustc.output.trim()
        );
    }
    println!("    Debian {base}'s rustc: `{want}`, the kernel's own");

    // 3. As a user: the overlay, then the packages; DKMS builds.
    let krel = &first.release.release;
    // The flavours' shared scripts/ (target.json): the package the release's overlay
    // depends on.
    let kbuild = kbuild_of(&deb_in(
        &package_dir,
        &format!("{}_", overlay::package(krel)),
    )?)?;
    let ran = session.must(
        "apt-get install the overlay",
        &[
            "apt-get",
            "install",
            "-y",
            &debs(&format!("{kbuild}_"))?,
            &debs(&format!("{}_", overlay::package(krel)))?,
        ],
        APT_TIMEOUT,
    )?;
    times.add(
        format!("apt-get install {} (and {kbuild})", overlay::package(krel)),
        ran.seconds,
    );

    let test_name = format!("{DRIVER}-kunit");
    let ran = session.must(
        "apt-get install the test package",
        &[
            "apt-get",
            "install",
            "-y",
            &debs(&format!("{test_name}-dkms_"))?,
        ],
        APT_TIMEOUT,
    )?;
    times.add(
        format!("apt-get install {test_name}-dkms: DKMS builds it for {krel}"),
        ran.seconds,
    );
    check_installed(&mut session, &test_name, &version, krel)?;
    let seconds = build_seconds(&mut session, &test_name, &version, krel)?;
    times.add(
        format!("  of which DKMS's build (make.log): harness and {DRIVER}"),
        seconds,
    );
    let test_kos = modules_out(
        &mut session,
        &test_name,
        &version,
        krel,
        &["kernel_core_kunit", DRIVER],
        "test",
    )?;
    let signer = session.must(
        "modinfo -F signer",
        &[
            "modinfo",
            "-F",
            "signer",
            &format!("/lib/modules/{krel}/updates/dkms/{DRIVER}.ko"),
        ],
        Duration::from_secs(60),
    );
    if let Ok(signer) = signer {
        println!(
            "    DKMS signed {DRIVER}.ko with its own key: signer `{}`",
            signer.output.trim()
        );
    }

    // The same preflight, through `cargo kernel-core doctor`, in the user's system.
    let runner = session.share.join("cargo-kernel-core");
    fs::copy(d.bin.join("cargo-kernel-core"), &runner).at(&runner)?;
    let doctor = session.run(
        "cargo kernel-core doctor",
        &[
            "/kernel-core/cargo-kernel-core",
            "kernel-core",
            "doctor",
            "--kernel-release",
            krel,
        ],
        Duration::from_secs(120),
    )?;
    let items = preflight::parse(&doctor.output);
    if !doctor.success || items.len() != preflight::ITEMS.len() || items.iter().any(|i| !i.ok) {
        bail!(
            "cargo kernel-core doctor in the {base} system must say every item is ok:\n{}",
            doctor.output
        );
    }
    println!(
        "    cargo kernel-core doctor --kernel-release {krel}: all {} items ok",
        items.len()
    );

    let ran = session.must(
        "apt-get install the package for shipping",
        &[
            "apt-get",
            "install",
            "-y",
            &debs(&format!("{DRIVER}-dkms_"))?,
        ],
        APT_TIMEOUT,
    )?;
    times.add(
        format!("apt-get install {DRIVER}-dkms (replacing the test package): DKMS builds it"),
        ran.seconds,
    );
    check_installed(&mut session, DRIVER, &version, krel)?;
    let seconds = build_seconds(&mut session, DRIVER, &version, krel)?;
    times.add("  of which DKMS's build (make.log)", seconds);
    let ship_kos = modules_out(&mut session, DRIVER, &version, krel, &[DRIVER], "ship")?;

    // A kernel upgrade: the other flavour's headers and overlay.
    let upgrade = &second.release.release;
    let ran = session.must(
        "apt-get install the new kernel's headers and overlay",
        &[
            "apt-get",
            "install",
            "-y",
            &format!("linux-headers-{upgrade}"),
            &debs(&format!("{}_", overlay::package(upgrade)))?,
        ],
        APT_TIMEOUT,
    )?;
    times.add(
        format!(
            "apt-get install linux-headers-{upgrade} {}: DKMS builds for it",
            overlay::package(upgrade)
        ),
        ran.seconds,
    );
    check_installed(&mut session, DRIVER, &version, upgrade)?;
    let seconds = build_seconds(&mut session, DRIVER, &version, upgrade)?;
    times.add(
        format!("  of which DKMS's build for {upgrade} (make.log)"),
        seconds,
    );
    let upgrade_kos = modules_out(
        &mut session,
        DRIVER,
        &version,
        upgrade,
        &[DRIVER],
        "upgrade",
    )?;

    // 4. The modules DKMS built, in Debian's kernels.
    let at = Instant::now();
    let reports = boot(
        repo,
        vec![
            (
                first.kernel,
                x86,
                vec![
                    dkms_plan(
                        "dkms-test-build",
                        vec![test_kos[1].clone()],
                        Some(test_kos[0].clone()),
                        Vec::new(),
                    ),
                    dkms_plan(
                        "dkms-shipping-build",
                        ship_kos,
                        None,
                        vec![probe_check(DRIVER)],
                    ),
                ],
            ),
            (
                second.kernel,
                x86,
                vec![dkms_plan(
                    "dkms-shipping-build",
                    upgrade_kos,
                    None,
                    vec![probe_check(DRIVER)],
                )],
            ),
        ],
    )?;
    let cases: Vec<_> = reports
        .iter()
        .flat_map(|r| &r.plans)
        .filter(|p| p.name == "dkms-test-build")
        .flat_map(|p| &p.cases)
        .collect();
    let count = |outcome: Outcome| cases.iter().filter(|c| c.outcome == Some(outcome)).count();
    let (passed, skipped) = (count(Outcome::Pass), count(Outcome::Skip));
    // A case compiled out of the module (`#[cfg(not(kernel))]`: the skeleton has a host-only
    // one) is reported skipped, as KUnit reports it; none may fail or be missing.
    if passed == 0 || passed + skipped != cases.len() {
        bail!(
            "the test build's suites must run and pass in Debian's kernel: {passed} of {} cases passed, {skipped} skipped",
            cases.len()
        );
    }
    println!(
        "    the DKMS-built test module ran its suites in Debian's {krel}: {passed} cases passed, {skipped} skipped (host-only); the shipping builds printed their probe line on {krel} and {upgrade}"
    );
    times.add(
        format!("QEMU: the DKMS-built modules in Debian's vmlinuz of {krel} and {upgrade}"),
        at.elapsed().as_secs_f64(),
    );

    // 5. As a user sees it fail.
    session.must(
        "apt-get remove the overlay",
        &["apt-get", "remove", "-y", &overlay::package(krel)],
        APT_TIMEOUT,
    )?;
    let reinstall = session.run(
        "apt-get install --reinstall the package",
        &[
            "apt-get",
            "install",
            "--reinstall",
            "-y",
            &debs(&format!("{DRIVER}-dkms_"))?,
        ],
        APT_TIMEOUT,
    )?;
    times.add(
        format!("apt-get install --reinstall {DRIVER}-dkms without the overlay: the build fails"),
        reinstall.seconds,
    );
    if reinstall.success {
        bail!("without the overlay, reinstalling {DRIVER}-dkms must fail its DKMS build; it passed (log: {})", reinstall.log.display());
    }
    let log = session.must(
        "DKMS's make.log",
        &[
            "cat",
            &format!("/var/lib/dkms/{DRIVER}/{version}/build/make.log"),
        ],
        Duration::from_secs(60),
    )?;
    let wanted = [
        "kernel-core preflight for Linux".to_string(),
        "missing  Rust metadata: no Rust metadata for".to_string(),
        format!("install {}", overlay::package(krel)),
    ];
    let lacking: Vec<&String> = wanted
        .iter()
        .filter(|w| !log.output.contains(w.as_str()))
        .collect();
    if !lacking.is_empty() || log.output.contains("error[E") {
        bail!(
            "DKMS's make.log must hold the preflight's message ({lacking:?} missing) and no rustc error:\n{}",
            log.output
        );
    }
    for line in log.output.lines().filter(|l| l.contains("missing ")) {
        println!("    make.log: {}", line.trim());
    }
    if !reinstall.output.contains("make.log") {
        bail!(
            "apt's output must point the user at DKMS's make.log:\n{}",
            reinstall.output
        );
    }

    // 6. The same tree on a kernel without a pin_init crate (Linux 6.12, the matrix's build):
    // kernel-core's pin-init, shipped in the package, is built into the module.
    let at = Instant::now();
    if without_pin_init(&package_dir.join(format!("{DRIVER}-{version}")))? {
        times.add(
            "the package's make (preflight, Kbuild) on the matrix's 6.12 x86_64 build: pin-init from the package",
            at.elapsed().as_secs_f64(),
        );
    }

    progress::done(
        "the DKMS packages build in Debian trixie for both flavours, their modules run in Debian's kernels, and a missing overlay fails with the preflight's message",
        start,
    );
    times.add("the whole DKMS check", started.elapsed().as_secs_f64());
    println!("\nWhat the DKMS check took:\n\n{}", times.table());
    Ok(())
}

/// Runs the DKMS tree `tree`'s build step as DKMS does (`make KERNELRELEASE=... KDIR=...`, in a
/// copy) against the matrix's Linux 6.12 x86_64 build, which has no `pin_init` crate: the
/// preflight must pass and the module must build with the package's own pin-init. Returns
/// whether it ran: without that build in the cache (`cargo xtask test` builds it before this
/// check), it says so and skips.
fn without_pin_init(tree: &Path) -> Result<bool> {
    let x86 = arch::x86_64();
    let lts = arch::kernel("6.12")?;
    if !cargo_kernel_core::kernel::is_cached(&lts, &x86) {
        println!(
            "    skipped: the package on Linux 6.12 (no pin_init crate) needs its x86_64 build (cargo xtask kernels build --kernel 6.12 --arch x86_64)"
        );
        return Ok(false);
    }
    let tools = cargo_kernel_core::kernel::toolchain_for(&lts, &x86)?;
    let build = cargo_kernel_core::kernel::build(&lts, &x86, &tools)?;
    if build.dir.join("rust/libpin_init.rmeta").exists() {
        bail!(
            "{} has a pin_init crate: it no longer shows a kernel without one",
            build.dir.display()
        );
    }
    let release = fs::read_to_string(build.dir.join("include/config/kernel.release"))
        .at(build.dir.join("include/config/kernel.release"))?;
    let scratch = cargo_kernel_core::infra::files::scratch_dir("kernel-core-dkms-6.12-")?;
    let copy = scratch.path().join("tree");
    command::run(
        Command::new("cp").arg("-r").arg(tree).arg(&copy),
        "cannot copy the DKMS tree",
    )?;
    let mut make = Command::new("make");
    make.arg("-C")
        .arg(&copy)
        .arg(format!("KERNELRELEASE={}", release.trim()))
        .arg(format!("KDIR={}", build.dir.display()))
        .args(tools.variables())
        .arg(format!("RUSTC={}", tools.rustc.display()))
        .arg(format!("BINDGEN={}", tools.bindgen.display()));
    let out = make.output().doing("running make in the DKMS tree")?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if !out.status.success()
        || !text.contains("kernel-core preflight: every item ok")
        || !copy.join(format!("driver/{DRIVER}.ko")).is_file()
        || !copy.join("driver/kernel_core_pin_init.o").is_file()
    {
        bail!(
            "the DKMS package must build on Linux {} (no pin_init crate) with the pin-init it ships:\n{text}",
            release.trim()
        );
    }
    println!(
        "    the package's make on Linux {} (no pin_init crate): preflight ok, {DRIVER}.ko built with the package's kernel-core-pin-init",
        release.trim()
    );
    Ok(true)
}

/// Runs `cells`, each with its plans, through the runner's pipeline (in
/// `target/kernel/dkms/`); fails on any problem.
fn boot(repo: &Path, cells: Vec<(Kernel, Arch, Vec<Plan>)>) -> Result<Vec<Report>> {
    let reporters = commands::test::reporters(&Default::default(), Summary::always())?;
    let _installed = reporters.install();
    let matrix: Vec<(Kernel, Arch)> = cells.iter().map(|(k, a, _)| (*k, *a)).collect();
    let mut plans: Vec<Option<Vec<Plan>>> = cells.into_iter().map(|(_, _, p)| Some(p)).collect();
    let results = cell::run_all(
        &matrix,
        lanes::default_jobs(),
        &repo.join("target/kernel/dkms"),
        plan::Options::default(),
        false,
        |i| Ok(Planned::Plans(plans[i].take().unwrap_or_default())),
    )?;
    let problems: Vec<&String> = results.reports.iter().flat_map(|r| r.problems()).collect();
    if !problems.is_empty() {
        bail!(
            "the DKMS-built modules in Debian's kernels: {} problem(s):\n  {}",
            problems.len(),
            problems
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }
    Ok(results.reports)
}
