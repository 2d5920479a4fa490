// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Distribution kernels: a driver built for Debian's stock kernel and loaded into its unchanged
//! image, as on the machines the driver ships to.
//!
//! Debian's `linux-headers-*` hold everything a C module needs but no Rust metadata. The
//! metadata is rebuilt, once per kernel release, into the cache:
//!
//! 1. The release's facts come from its `linux-headers-$KREL` package (fetched through the
//!    private apt of [`crate::kernel::apt`]): `.config`, `include/config/auto.conf`,
//!    `include/generated/{autoconf.h,rustc_cfg}` and `Module.symvers`.
//! 2. The source is `linux-source-<series>` of exactly the same package version.
//! 3. Those configuration files are copied into the build directory (`O=`) as they are, with an
//!    empty `auto.conf.cmd`, so Kconfig never runs again: re-running it with another compiler
//!    silently changes ABI-relevant options. After the build they must still be byte for byte
//!    Debian's, and so must the C layouts the compiler computed (`asm-offsets.h`, `bounds.h`,
//!    `rq-offsets.h`).
//! 4. The toolchain is the one the `.config` names: rustup's rustc of the same release and
//!    commit, with `RUSTC_FORCE_RUSTC_VERSION` set to Debian's version string (Rust symbol
//!    hashes depend on it), the same bindgen, and the kernel's GCC if the host has it, else the
//!    host's GCC behind a small shim for the newer GCC's flags ([`toolchain`](mod@toolchain)).
//! 5. `make modules_prepare` builds `rust/` (its `.rmeta`, the proc macros, `target.json`);
//!    then every exported symbol of the rebuilt `rust/` must be in Debian's `Module.symvers`,
//!    and every Rust one Debian exports must be rebuilt ([`symbols`]), or the build stops,
//!    naming the first mismatch.
//! 6. The guest boots Debian's own `vmlinuz` (package `linux-binary-$KREL`).
//!
//! A build is marked finished by a stamp written last, under the same lock as kernel builds; a
//! build that fails a check is removed, so nothing half-built is ever used.
//!
//! For the driver's users: the metadata as a package to install next to Debian's headers
//! ([`overlay`]), the preflight that a build on their machine runs first, which says what is
//! missing and how to get it ([`preflight`]), and a Debian root file system in which packages
//! are installed with apt, where DKMS packages are proven ([`rootfs`]).

pub mod config;
pub mod overlay;
pub mod preflight;
pub mod rootfs;
pub mod suite_rustc;
pub mod symbols;
pub mod toolchain;

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::lock::Lock;
use crate::infra::progress;
use crate::infra::{cache, files};
use crate::kernel::apt::{self, Apt, Stanza};
use crate::kernel::source as kernel_source;
use crate::kernel::toolchain::Toolchain;
use crate::model::arch::{Arch, Kernel, Stock};
use crate::model::build::{Build, Source};
use anyhow::bail;
use config::Config;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How long the metadata build may take.
const BUILD_TIMEOUT: Duration = Duration::from_secs(60 * 60);

/// The file that marks a finished metadata build (it holds the seconds and the symbol count).
const BUILT: &str = ".kernel-core-built";

/// The configuration files copied from the headers and never regenerated: after the build they
/// must be identical, or Kconfig ran.
const FIXED: &[&str] = &[
    ".config",
    "include/config/auto.conf",
    "include/generated/autoconf.h",
    "include/generated/rustc_cfg",
];

/// Files the build generates from the configuration with the host's compiler, which must equal
/// Debian's: the kernel release, and the C layouts Rust and C code see (`asm-offsets.h`,
/// `bounds.h`, `rq-offsets.h`).
const DERIVED: &[&str] = &[
    "include/config/kernel.release",
    "include/generated/utsrelease.h",
    "include/generated/bounds.h",
    "include/generated/asm-offsets.h",
    "include/generated/rq-offsets.h",
];

/// Debian's name of an architecture, for the architectures whose stock kernels are supported.
pub fn debian_arch(arch: &Arch) -> Option<&'static str> {
    match arch.name {
        "x86_64" => Some("amd64"),
        "arm64" => Some("arm64"),
        _ => None,
    }
}

/// The flavour of `kernel`'s stock kernels on `arch`, as Debian names its packages: the
/// row's prefix and Debian's architecture (`amd64`, `rt-amd64`, `arm64`).
pub fn flavour(kernel: &Kernel, arch: &Arch) -> Option<String> {
    let stock = kernel.stock?;
    debian_arch(arch).map(|debian| format!("{}{debian}", stock.flavour_prefix))
}

/// One release of a stock kernel: its headers package, unpacked.
pub struct Release {
    /// `uname -r`: `7.3.4+deb13-amd64`.
    pub release: String,
    /// The Debian package version: `7.3.4-1~bpo13+1`.
    pub version: String,
    /// Where its headers are unpacked (`/usr/src/linux-headers-$KREL` of the package).
    pub headers: PathBuf,
    /// Its `.config`.
    pub config: Config,
    /// `<cache>/distro/<release>`: its headers, image and metadata builds.
    pub dir: PathBuf,
    pub apt: Apt,
}

/// The row of the matrix whose stock kernel `krel` (a `uname -r`) is a release of.
pub fn row_of(krel: &str) -> Result<Kernel> {
    crate::model::arch::KERNELS
        .iter()
        .find(|k| {
            k.stock.is_some_and(|s| {
                krel.starts_with(&format!("{}.", s.series))
                    && k.arches.iter().filter_map(|a| crate::model::arch::arch(a).ok()).any(|a| {
                        flavour(k, &a).is_some_and(|f| krel.ends_with(&format!("{}-{f}", s.abi)))
                    })
            })
        })
        .copied()
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no distribution kernel of the matrix has release {krel}: the rows are {} (Debian's trixie 6.12 has no Rust)",
                crate::model::arch::KERNELS
                    .iter()
                    .filter_map(|k| k.stock.map(|s| format!("{} ({}.x{}-*)", k.name, s.series, s.abi)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// What to do with modules built for a stock kernel: install, sign for Secure Boot, and what
/// the kernel will say of them.
pub fn shipping_notes(release: &str, kos: &[PathBuf]) -> String {
    let names: Vec<String> = kos
        .iter()
        .filter_map(|k| k.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let first = names.first().cloned().unwrap_or_else(|| "mydrv.ko".into());
    let stem = first.trim_end_matches(".ko");
    let kbuild = release
        .rsplit_once('-')
        .map_or(release, |(kbuild, _)| kbuild);
    let lines = [
        String::new(),
        format!("To load {} on a machine running {release}:", names.join(", ")),
        format!("  sudo install -D -m 644 {first} /lib/modules/{release}/updates/{first} && sudo depmod {release}"),
        format!("  sudo modprobe {stem}"),
        "The kernel marks itself tainted when it loads them: `O` (out-of-tree module) always, and `E`".into(),
        "(unsigned module) unless they are signed with a key it trusts. With Secure Boot on, Debian's".into(),
        "kernel is locked down and refuses unsigned modules: sign them with a Machine Owner Key (MOK):".into(),
        "  openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -subj '/CN=my module key/' -outform DER -keyout MOK.priv -out MOK.der".into(),
        "  sudo mokutil --import MOK.der      # then reboot and enroll the key in the MOK manager".into(),
        format!("  /usr/lib/linux-kbuild-{kbuild}/scripts/sign-file sha256 MOK.priv MOK.der {first}"),
        format!("(sign-file comes with linux-kbuild-{kbuild}; DKMS does the same with its own MOK.)"),
    ];
    lines.join("\n") + "\n"
}

/// The stock row of `kernel`, or an error for a row of ours.
pub fn stock(kernel: &Kernel) -> Result<&'static Stock> {
    kernel
        .stock
        .ok_or_else(|| anyhow::anyhow!("{} is not a distribution kernel", kernel.name))
}

/// The newest release of `kernel`'s suite for `arch`, or `release` (a `uname -r`) if given;
/// its headers fetched and unpacked into the cache.
pub fn release(kernel: &Kernel, arch: &Arch, release: Option<&str>) -> Result<Release> {
    let stock = stock(kernel)?;
    let (Some(debian), Some(flavour)) = (debian_arch(arch), flavour(kernel, arch)) else {
        bail!(
            "{} has no stock kernel for {}: Debian's stock kernels run here on x86_64 (amd64) and arm64",
            kernel.name,
            arch.name
        );
    };
    let flavour = flavour.as_str();
    let apt = Apt::new(kernel.suite, kernel.archive, debian);
    let krel = match release {
        Some(r) => r.to_string(),
        None => {
            let meta = format!("linux-headers-{flavour}");
            let stanza = apt
                .show(&meta)?
                .ok_or_else(|| anyhow::anyhow!("Debian {} has no {meta}", kernel.suite))?;
            apt::depends(stanza.get("Depends").map_or("", String::as_str))
                .into_iter()
                .find_map(|d| d.strip_prefix("linux-headers-").map(str::to_string))
                .ok_or_else(|| {
                    anyhow::anyhow!("{meta} of Debian {} names no headers", kernel.suite)
                })?
        }
    };
    check_release_name(&krel, stock, flavour, kernel)?;
    let package = format!("linux-headers-{krel}");
    let Some(headers) = apt.show(&package)? else {
        bail!(
            "unknown release {krel}: Debian {} has no {package} (it keeps only its newest {} kernel; `cargo kernel-core kernels list` shows the rows)",
            kernel.suite,
            stock.series
        );
    };
    let version = field(&headers, "Version")?;
    let dir = cache::dir().join("distro").join(&krel);
    let unpacked = unpack_once(
        &apt,
        &headers,
        &dir.join(format!("headers-{}", sanitize(&version))),
    )?;
    let headers_dir = unpacked.join("usr/src").join(&package);
    let config_path = headers_dir.join(".config");
    let config = Config::parse(&fs::read_to_string(&config_path).at(&config_path)?);
    Ok(Release {
        release: krel,
        version,
        headers: headers_dir,
        config,
        dir,
        apt,
    })
}

/// Fails unless `krel` is a release of the row: `<series>.N<abi>-<flavour>`.
fn check_release_name(krel: &str, stock: &Stock, flavour: &str, kernel: &Kernel) -> Result {
    let ok = krel.starts_with(&format!("{}.", stock.series))
        && krel.ends_with(&format!("{}-{flavour}", stock.abi));
    if !ok {
        bail!(
            "{krel} is not a release of {} (Debian {} {}.x, `{}-{flavour}`): pick the row of its series, or update the row",
            kernel.name,
            kernel.suite,
            stock.series,
            stock.abi
        );
    }
    Ok(())
}

/// A field of a package stanza.
fn field(stanza: &Stanza, name: &str) -> Result<String> {
    stanza
        .get(name)
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("the package index has no {name} for {stanza:?}"))
}

/// A package version as a file name part (`:` of an epoch is not wanted in paths).
fn sanitize(version: &str) -> String {
    version.replace([':', '/'], "_")
}

/// Fetches the package of `stanza` into the cache's `debs/` (checked against the index) and
/// unpacks it into `dir` once (written aside, renamed into place).
fn unpack_once(apt: &Apt, stanza: &Stanza, dir: &Path) -> Result<PathBuf> {
    unpack_once_in(apt, stanza, &cache::dir().join("debs"), dir)
}

/// [`unpack_once`] with the packages in `debs`. An unpack that was killed left no `dir`, only
/// its scratch beside it (`.<name of dir>.<6 random characters>`, as
/// [`files::create_dir_atomic`] names it), which is removed under the lock.
fn unpack_once_in(apt: &Apt, stanza: &Stanza, debs: &Path, dir: &Path) -> Result<PathBuf> {
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    let deb = apt.fetch(stanza, debs)?;
    let parent = dir.parent().expect("a directory in the cache");
    fs::create_dir_all(parent).at(parent)?;
    let _lock = Lock::exclusive(
        &PathBuf::from(format!("{}.lock", dir.display())),
        "an unpacked package",
    )?;
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    let aside = format!(
        ".{}.",
        dir.file_name().unwrap_or_default().to_string_lossy()
    );
    apt::remove_killed(parent, |name| {
        name.strip_prefix(&aside)
            .is_some_and(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
    })?;
    files::create_dir_atomic(dir, |aside| apt::unpack(&deb, aside))
}

/// The source tree of `kernel`, checked to be of exactly the headers' package version.
fn source(kernel: &Kernel, release: &Release) -> Result<Source> {
    let stanza = release
        .apt
        .show(kernel.package)?
        .ok_or_else(|| anyhow::anyhow!("Debian {} has no {}", kernel.suite, kernel.package))?;
    let indexed = field(&stanza, "Version")?;
    // Before anything is fetched or extracted: the suite's source must be the headers' version.
    check_versions(kernel, release, &indexed, None, None)?;
    let source = kernel_source::fetch(kernel)?;
    let extracted = kernel_source::package_version(kernel)?;
    check_versions(
        kernel,
        release,
        &indexed,
        Some(extracted.as_deref().unwrap_or("an unknown version")),
        Some((&source.dir, &source.version)),
    )?;
    Ok(source)
}

/// Fails unless the source is of exactly the headers' package version: the suite's
/// `indexed` version, the package the cached tree was `extracted` from, and the tree's
/// Makefile version (`tree`), each when known.
fn check_versions(
    kernel: &Kernel,
    release: &Release,
    indexed: &str,
    extracted: Option<&str>,
    tree: Option<(&Path, &str)>,
) -> Result {
    let headers = format!("linux-headers-{} is {}", release.release, release.version);
    if indexed != release.version {
        bail!(
            "headers and source of different versions: {headers} but Debian {}'s {} is {indexed}; nothing was built",
            kernel.suite,
            kernel.package
        );
    }
    if let (Some(extracted), Some((dir, _))) = (extracted, tree) {
        if extracted != release.version {
            bail!(
                "headers and source of different versions: {headers} but the cached {} tree ({}) was extracted from {extracted}; remove it to fetch {}",
                kernel.package,
                dir.display(),
                release.version
            );
        }
    }
    if let Some((dir, makefile)) = tree {
        let upstream = release.version.split('-').next().unwrap_or_default();
        if makefile != upstream {
            bail!(
                "headers and source of different versions: {} is Linux {makefile}, {headers}",
                dir.display()
            );
        }
    }
    Ok(())
}

/// Where the metadata of `release` built with `tools` lives: a key of everything that feeds it.
fn build_dir(release: &Release, tools: &Toolchain) -> PathBuf {
    let mut hash = fnv(release.version.as_bytes(), FNV_START);
    hash = fnv(tools.fingerprint().as_bytes(), hash);
    release.dir.join(format!("build-{hash:016x}"))
}

/// The toolchain that builds modules for `kernel` on `arch`: the stock kernel's own (see
/// [`toolchain::find`]).
pub fn toolchain(kernel: &Kernel, arch: &Arch) -> Result<Toolchain> {
    let release = release(kernel, arch, None)?;
    toolchain::find(&release)
}

/// Whether the metadata of `kernel` for `arch` is built in the cache (without fetching).
pub fn is_cached(kernel: &Kernel, arch: &Arch) -> bool {
    cached_releases(kernel, arch).iter().any(|release| {
        fs::read_dir(release)
            .is_ok_and(|builds| builds.flatten().any(|b| b.path().join(BUILT).exists()))
    })
}

/// The metadata builds in the cache `cache` that finished at `since` or later: for each, what
/// it is (`Debian 7.3.4+deb13-amd64's Rust metadata`, from its release directory's name), the
/// seconds its stamp holds and when it was written.
pub fn builds_since(cache: &Path, since: SystemTime) -> Vec<(String, u64, SystemTime)> {
    let releases = fs::read_dir(cache.join("distro")).into_iter().flatten();
    releases
        .flatten()
        .flat_map(|release| {
            let name = release.file_name().to_string_lossy().into_owned();
            let builds = fs::read_dir(release.path()).into_iter().flatten().flatten();
            builds.filter_map(move |build| {
                let stamp = build.path().join(BUILT);
                let at = fs::metadata(&stamp).and_then(|m| m.modified()).ok()?;
                let text = fs::read_to_string(&stamp).ok()?;
                let seconds = text.lines().next()?.trim().parse().ok()?;
                (at >= since).then(|| (format!("Debian {name}'s Rust metadata"), seconds, at))
            })
        })
        .collect()
}

/// The release directories of `kernel`'s stock kernels for `arch` in the cache.
fn cached_releases(kernel: &Kernel, arch: &Arch) -> Vec<PathBuf> {
    let (Some(stock), Some(flavour)) = (kernel.stock, flavour(kernel, arch)) else {
        return Vec::new();
    };
    let Ok(entries) = fs::read_dir(cache::dir().join("distro")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&format!("{}.", stock.series))
                && name.ends_with(&format!("{}-{flavour}", stock.abi))
        })
        .map(|e| e.path())
        .collect()
}

/// Removes the metadata builds of `kernel`'s stock kernels for `arch` (every release and
/// toolchain); returns what it removed. Their packages stay.
pub fn clean(kernel: &Kernel, arch: &Arch) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for release in cached_releases(kernel, arch) {
        for entry in fs::read_dir(&release).at(&release)?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if name.starts_with("build-") && !name.ends_with(".lock") && path.is_dir() {
                let _lock = Lock::exclusive(
                    &PathBuf::from(format!("{}.lock", path.display())),
                    "a stock kernel's metadata build",
                )?;
                fs::remove_dir_all(&path).at(&path)?;
                removed.push(path);
            }
        }
    }
    Ok(removed)
}

/// The stock kernel of `kernel` for `arch` as a [`Build`]: the rebuilt metadata (built once per
/// release and toolchain, or reused) and Debian's image.
pub fn build(kernel: &Kernel, arch: &Arch, tools: &Toolchain) -> Result<Build> {
    if tools.variables.is_empty() {
        bail!(
            "{} is built with its own toolchain, not this tool's LLVM one: get it with Toolchain::for_kernel",
            kernel.name
        );
    }
    let release = release(kernel, arch, None)?;
    build_release(kernel, arch, tools, &release)
}

/// [`build`] for a given release.
pub fn build_release(
    kernel: &Kernel,
    arch: &Arch,
    tools: &Toolchain,
    release: &Release,
) -> Result<Build> {
    release.config.toolchain(&release.release)?;
    let source = source(kernel, release)?;
    let dir = build_dir(release, tools);
    let lock_path = PathBuf::from(format!("{}.lock", dir.display()));
    let seconds = if dir.join(BUILT).exists() {
        None
    } else {
        let lock = Lock::exclusive(&lock_path, "a stock kernel's metadata build")?;
        if dir.join(BUILT).exists() {
            None
        } else {
            Some(build_locked(arch, tools, &source, release, &dir, &lock)?)
        }
    };
    let stamp = fs::read_to_string(dir.join(BUILT)).at(dir.join(BUILT))?;
    if seconds.is_none() {
        crate::note!(
            "    Debian {} metadata: cached in {} ({})",
            release.release,
            dir.display(),
            stamp.lines().nth(1).unwrap_or("symbol check passed")
        );
    }
    let image = image(release)?;
    Ok(Build {
        dir,
        source: Source {
            dir: source.dir,
            version: release.release.clone(),
        },
        image,
        seconds,
        kunit: release.config.kunit() == config::Kunit::BuiltIn,
    })
}

/// Debian's boot image of the release: `linux-binary-$KREL` (or the older
/// `linux-image-$KREL-unsigned`), fetched and unpacked once.
fn image(release: &Release) -> Result<PathBuf> {
    let mut stanza = None;
    for package in [
        format!("linux-binary-{}", release.release),
        format!("linux-image-{}-unsigned", release.release),
    ] {
        if let Some(s) = release.apt.show(&package)? {
            stanza = Some(s);
            break;
        }
    }
    let stanza = stanza.ok_or_else(|| {
        anyhow::anyhow!(
            "Debian {} has no image package for {} (linux-binary-{0} or linux-image-{0}-unsigned)",
            release.apt.suite,
            release.release
        )
    })?;
    let version = field(&stanza, "Version")?;
    let dir = unpack_once(
        &release.apt,
        &stanza,
        &release.dir.join(format!("image-{}", sanitize(&version))),
    )?;
    for candidate in [
        dir.join("usr/lib/modules")
            .join(&release.release)
            .join("vmlinuz"),
        dir.join("boot")
            .join(format!("vmlinuz-{}", release.release)),
    ] {
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    bail!("{} holds no vmlinuz for {}", dir.display(), release.release)
}

/// Builds the metadata into `dir` (the lock held); returns the seconds it took. Any failure
/// removes `dir`: a build that failed a check must never be resumed or used.
fn build_locked(
    arch: &Arch,
    tools: &Toolchain,
    source: &Source,
    release: &Release,
    dir: &Path,
    _lock: &Lock,
) -> Result<u64> {
    let result = build_steps(arch, tools, source, release, dir);
    match result {
        Ok(seconds) => Ok(seconds),
        Err(e) => {
            // Keep the log where the message says, outside the removed directory.
            let log = dir.join("build.log");
            let kept = release.dir.join("failed-build.log");
            let _ = fs::copy(&log, &kept);
            let _ = fs::remove_dir_all(dir);
            Err(anyhow::anyhow!(
                "{} (removed {}, nothing was kept{})",
                e,
                dir.display(),
                if kept.exists() && log != kept {
                    format!("; its build log: {}", kept.display())
                } else {
                    String::new()
                }
            ))
        }
    }
}

/// The steps of [`build_locked`].
fn build_steps(
    arch: &Arch,
    tools: &Toolchain,
    source: &Source,
    release: &Release,
    dir: &Path,
) -> Result<u64> {
    fs::create_dir_all(dir).at(dir)?;
    crate::kernel::setup::ensure_space(dir, 3 << 30, "a stock kernel's Rust metadata")?;
    let start = progress::step(&format!(
        "building the Rust metadata of Debian's {} ({}) from linux-source {} with Debian's .config, in {} (minutes on 2 cores)",
        release.release,
        release.version,
        source.version,
        dir.display()
    ));
    // 1. Debian's configuration, as it is; Kconfig must not run again.
    // Unchanged files keep their times, so a build resumed after a kill stays incremental.
    for file in FIXED {
        let from = release.headers.join(file);
        crate::infra::files::write_if_changed(&dir.join(file), fs::read(&from).at(&from)?)?;
    }
    crate::infra::files::write_if_changed(
        &dir.join("include/config/auto.conf.cmd"),
        "# Written by cargo kernel-core: the configuration is the distribution's, never re-run.\n",
    )?;
    // The generated files must be newer than .config, or make would run syncconfig.
    let older = std::time::SystemTime::now() - Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(dir.join(".config"))
        .and_then(|f| f.set_modified(older))
        .at(dir.join(".config"))?;
    let symvers = release.headers.join("Module.symvers");
    crate::infra::files::write_if_changed(
        &dir.join("Module.symvers"),
        fs::read(&symvers).at(&symvers)?,
    )?;

    // 2. rust/: the metadata, the proc macros, target.json.
    let log = dir.join("build.log");
    let mut make = tools.make(&source.dir, arch);
    make.arg(format!("O={}", dir.display()))
        .arg(format!("KERNELRELEASE={}", release.release))
        .arg(format!(
            "-j{}",
            std::thread::available_parallelism().map_or(2, |n| n.get())
        ))
        .arg("modules_prepare");
    let logged = crate::infra::process::run_logged(
        &mut make,
        &log,
        "make modules_prepare",
        Duration::from_secs(20),
        BUILD_TIMEOUT,
        &mut crate::infra::process::NoMonitor,
    )?;
    if matches!(&logged.ending, crate::infra::process::Ending::Exited(s) if !s.success()) {
        let text = fs::read_to_string(&log).unwrap_or_default();
        if let Some(flag) = toolchain::unknown_flag(&text) {
            for line in &logged.tail {
                eprintln!("    | {line}");
            }
            bail!(
                "the host's C compiler ({}) cannot build the kernel's flags: it rejects `{flag}` (the kernel was built with {}). Install gcc-{} or extend the shim",
                tools.cc(),
                release.config.get("CONFIG_CC_VERSION_TEXT").unwrap_or("?"),
                release.config.toolchain(&release.release)?.gcc_major
            );
        }
    }
    logged.succeeded(
        &format!("building the Rust metadata of {}", release.release),
        &log,
    )?;

    // 3. Nothing of the configuration changed.
    for file in FIXED.iter().chain(DERIVED) {
        let (ours, theirs) = (dir.join(file), release.headers.join(file));
        if !theirs.exists() {
            continue;
        }
        if fs::read(&ours).at(&ours)? != fs::read(&theirs).at(&theirs)? {
            bail!(
                "{file} differs from Debian's after the build ({} vs {}): the configuration or the compiler's C layouts are not the stock kernel's",
                ours.display(),
                theirs.display()
            );
        }
    }
    crate::note!(
        "    configuration unchanged: {} and the C layouts ({}) equal Debian's",
        FIXED.join(", "),
        DERIVED[2..].join(", ")
    );

    // 4. The symbol check.
    let stock = symbols::symvers(&fs::read_to_string(&symvers).at(&symvers)?);
    let rebuilt = symbols::rebuilt_exports(dir)?;
    let report = symbols::check(&rebuilt, &stock).map_err(anyhow::Error::msg)?;
    let summary = format!(
        "symbol check: {}/{} exported Rust symbols of the rebuilt rust/ match Debian's Module.symvers ({} exports in all)",
        report.matched, report.expected, report.rebuilt
    );
    crate::note!("    {summary}");

    let seconds = start.elapsed().as_secs();
    // An earlier failure's log no longer says anything about this release.
    let _ = fs::remove_file(release.dir.join("failed-build.log"));
    let stamp = dir.join(BUILT);
    fs::write(&stamp, format!("{seconds}\n{summary}\n")).at(&stamp)?;
    progress::done(
        &format!("Rust metadata of {} built", release.release),
        start,
    );
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::apt::fixture::{self, HELLO, HELLO_FILE};

    #[test]
    fn a_release_names_its_row() {
        assert_eq!(row_of("7.3.4+deb13-amd64").unwrap().name, "debian-7.3");
        assert_eq!(row_of("7.2.12+deb14-amd64").unwrap().name, "debian-7.2");
        let e = row_of("6.12.117+deb13-amd64").unwrap_err().to_string();
        assert!(
            e.contains("no distribution kernel of the matrix has release 6.12.117+deb13-amd64"),
            "{e}"
        );
        assert!(e.contains("trixie 6.12 has no Rust"), "{e}");
    }

    #[test]
    fn a_release_of_another_series_is_refused() {
        let kernel = crate::model::arch::kernel("debian-7.3").unwrap();
        let stock = kernel.stock.unwrap();
        check_release_name("7.3.4+deb13-amd64", stock, "amd64", &kernel).unwrap();
        let e = check_release_name("7.4.1+deb13-amd64", stock, "amd64", &kernel)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("7.4.1+deb13-amd64 is not a release of debian-7.3"),
            "{e}"
        );
        assert!(check_release_name("7.3.4+deb14-amd64", stock, "amd64", &kernel).is_err());
    }

    fn release_73() -> Release {
        Release {
            release: "7.3.4+deb13-amd64".into(),
            version: "7.3.4-1~bpo13+1".into(),
            headers: PathBuf::new(),
            config: Config::default(),
            dir: PathBuf::new(),
            apt: Apt::at(
                Path::new("/nonexistent"),
                "trixie-backports",
                crate::model::arch::Archive::Main,
                "amd64",
            ),
        }
    }

    #[test]
    fn headers_and_source_of_different_versions_are_refused() {
        let kernel = crate::model::arch::kernel("debian-7.3").unwrap();
        let release = release_73();
        let tree = Path::new("/c/src/linux-source-7.3");
        check_versions(
            &kernel,
            &release,
            "7.3.4-1~bpo13+1",
            Some("7.3.4-1~bpo13+1"),
            Some((tree, "7.3.4")),
        )
        .unwrap();
        let e = check_versions(&kernel, &release, "7.3.5-1~bpo13+1", None, None)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "headers and source of different versions: linux-headers-7.3.4+deb13-amd64 is 7.3.4-1~bpo13+1 but Debian trixie-backports's linux-source-7.3 is 7.3.5-1~bpo13+1; nothing was built"
        );
        let e = check_versions(
            &kernel,
            &release,
            "7.3.4-1~bpo13+1",
            Some("7.3.4-1"),
            Some((tree, "7.3.4")),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("was extracted from 7.3.4-1; remove it"), "{e}");
        let e = check_versions(
            &kernel,
            &release,
            "7.3.4-1~bpo13+1",
            Some("7.3.4-1~bpo13+1"),
            Some((tree, "7.3.3")),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("is Linux 7.3.3"), "{e}");
    }

    #[test]
    fn a_package_whose_unpack_was_killed_is_unpacked_in_full() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let apt = archive.apt(&scratch.path().join("apt"));
        let stanza = apt.show(HELLO.0).unwrap().unwrap();
        let debs = scratch.path().join("debs");
        let distro = scratch.path().join("distro");
        let dir = distro.join("headers-1.0-1");
        // What a killed unpack left: its scratch, half full. Another version's, which may be
        // being written, is left alone.
        let killed = distro.join(".headers-1.0-1.AbC123");
        fs::create_dir_all(killed.join("usr/share")).unwrap();
        fs::write(killed.join("usr/share/half"), "").unwrap();
        let other = distro.join(".headers-1.0-1.1.XyZ789");
        fs::create_dir_all(&other).unwrap();

        assert_eq!(unpack_once_in(&apt, &stanza, &debs, &dir).unwrap(), dir);
        assert_eq!(
            fs::read_to_string(dir.join(HELLO_FILE.0)).unwrap(),
            HELLO_FILE.1
        );
        assert!(!dir.join("usr/share/half").exists());
        let mut names: Vec<String> = fs::read_dir(&distro)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                ".headers-1.0-1.1.XyZ789",
                "headers-1.0-1",
                "headers-1.0-1.lock"
            ]
        );
        // Unpacked once: the tree is used as it is, the package not even looked at.
        fs::remove_dir_all(&debs).unwrap();
        assert_eq!(unpack_once_in(&apt, &stanza, &debs, &dir).unwrap(), dir);
        assert!(!debs.exists());
    }

    #[test]
    fn a_replaced_package_is_never_unpacked() {
        let archive = fixture::archive().copy();
        let scratch = tempfile::tempdir().unwrap();
        let apt = archive.apt(&scratch.path().join("apt"));
        let stanza = apt.show(HELLO.0).unwrap().unwrap();
        let pool = archive.pool_file(HELLO);
        let mut bytes = fs::read(&pool).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&pool, bytes).unwrap();
        let debs = scratch.path().join("debs");
        // Cached, cut off: fetched again, and the archive's file is refused.
        fs::create_dir_all(&debs).unwrap();
        fs::write(
            debs.join(format!("{}_{}_amd64.deb", HELLO.0, HELLO.1)),
            "!<arch>\n",
        )
        .unwrap();
        let dir = scratch.path().join("distro/image-1.0-1");
        let Err(e) = unpack_once_in(&apt, &stanza, &debs, &dir) else {
            panic!("a replaced package was unpacked")
        };
        let e = format!("{e:#}");
        assert!(
            e.contains("the archive's file differs from the SHA256 of its signed index"),
            "{e}"
        );
        assert!(!dir.exists());
        assert!(!debs
            .join(format!("{}_{}_amd64.deb", HELLO.0, HELLO.1))
            .exists());
    }

    #[test]
    fn shipping_notes_say_how_to_sign_and_what_taints() {
        let notes = shipping_notes("7.3.4+deb13-amd64", &[PathBuf::from("/t/mydrv.ko")]);
        assert!(
            notes.contains("/lib/modules/7.3.4+deb13-amd64/updates/mydrv.ko"),
            "{notes}"
        );
        assert!(notes.contains("mokutil --import MOK.der"), "{notes}");
        assert!(
            notes.contains("/usr/lib/linux-kbuild-7.3.4+deb13/scripts/sign-file sha256"),
            "{notes}"
        );
        assert!(notes.contains("`O` (out-of-tree module)"), "{notes}");
    }
}
