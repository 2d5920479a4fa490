// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Upstream kernel builds, cached outside the repository: Debian's source of a kernel of the
//! matrix, configured from `tinyconfig` with the fragments in `configs/` and built with the
//! matrix's LLVM toolchain.
//!
//! The cache holds one build directory per kernel version, architecture and configuration
//! key. The key hashes everything a build depends on (the config fragments, rustc, bindgen and
//! clang versions), so a build is reused exactly as long as nothing that feeds it changed.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::lock::Lock;
use crate::infra::{cache, command, process, progress};
use crate::kernel::toolchain::Toolchain;
use crate::kernel::{preflight, setup, source};
use crate::model::arch::{Arch, Kernel};
use crate::model::build::{Build, Source};
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

/// How long a kernel build may take before it is considered hung.
const BUILD_TIMEOUT: Duration = Duration::from_secs(60 * 60);

/// The file that marks a finished kernel build in its directory (it holds the build's seconds).
const BUILT: &str = ".kernel-core-built";

/// The file whose modification time says when a run last used a build.
const USED: &str = ".kernel-core-used";

/// How long a build that another key has superseded stays after its last use: a second
/// checkout on this machine (another branch, with other configuration fragments) may still
/// use it, and rebuilding it would cost minutes. Older ones are removed, so that the cache,
/// which CI copies, holds about one build per cell instead of one per configuration it ever
/// had.
const SUPERSEDED_KEPT: Duration = Duration::from_secs(6 * 60 * 60);

/// A configuration fragment, built into the runner (`configs/` in this crate).
pub struct Fragment {
    /// Its file name, such as `common.config`.
    pub name: &'static str,
    /// Its text: one `CONFIG_...=...` per line, `#` comments; without the options its
    /// architecture does not have ([`Arch::unavailable`]).
    pub text: String,
}

/// The configuration fragments for `arch`, in merge order: what every kernel of the matrix
/// needs (Rust, KUnit, modules, a serial console, SMP, the kernel's bug detectors), then the
/// architecture's machine, then in the cells that carry them (a kernel that asks for them,
/// [`Kernel::detectors`], on an architecture that has them, [`Arch::detectors`]) the memory
/// and lock detectors.
pub fn fragments(kernel: &Kernel, arch: &Arch) -> Vec<Fragment> {
    let available = |text: &str| {
        text.lines()
            .filter(|line| {
                !arch.unavailable.iter().any(|option| {
                    line.strip_prefix(option)
                        .is_some_and(|rest| rest.starts_with('='))
                })
            })
            .map(|line| format!("{line}\n"))
            .collect::<String>()
    };
    let mut fragments = vec![
        Fragment {
            name: "common.config",
            text: available(include_str!("../../configs/common.config")),
        },
        Fragment {
            name: arch.config_name,
            text: available(arch.config),
        },
    ];
    if kernel.detectors && arch.detectors {
        fragments.push(Fragment {
            name: "detectors.config",
            text: available(include_str!("../../configs/detectors.config")),
        });
    }
    fragments
}

/// The cache key of a build: everything its output depends on.
fn build_key(kernel: &Kernel, arch: &Arch, source: &Source, tools: &Toolchain) -> String {
    let mut hash = fnv(source.version.as_bytes(), FNV_START);
    hash = fnv(arch.name.as_bytes(), hash);
    // Leaving nothing out for the architectures without any (the key of every other build
    // stays what it was).
    for variable in arch.make_variables {
        hash = fnv(variable.as_bytes(), hash);
    }
    for fragment in fragments(kernel, arch) {
        hash = fnv(fragment.text.as_bytes(), hash);
    }
    for version in [
        command::output_once(Command::new(&tools.rustc).arg("-vV")),
        command::output_once(Command::new(&tools.bindgen).arg("--version")),
        command::output_once(
            Command::new(format!("clang-{}", setup::LLVM_VERSION)).arg("--version"),
        ),
    ] {
        hash = fnv(version.unwrap_or_default().as_bytes(), hash);
    }
    format!("{hash:016x}")
}

/// Where the build of `source` for `arch` lives in the cache.
fn build_dir(kernel: &Kernel, arch: &Arch, source: &Source, tools: &Toolchain) -> PathBuf {
    let key = build_key(kernel, arch, source, tools);
    cache::dir()
        .join("build")
        .join(format!("{}-{}-{key}", source.version, arch.name))
}

/// Whether `dir` holds a finished build for `arch`: what [`build`] reuses.
fn is_built(dir: &Path, arch: &Arch) -> bool {
    dir.join(BUILT).exists()
        && dir.join(arch.image_path).exists()
        && dir.join("Module.symvers").exists()
}

/// Whether the build of `kernel` for `arch` is in the cache (its source too), so that using it
/// costs no kernel build.
pub fn is_cached(kernel: &Kernel, arch: &Arch) -> bool {
    let Ok(tools) = Toolchain::find(arch) else {
        return false;
    };
    let Ok(Some(source)) = source::cached(kernel) else {
        return false;
    };
    is_built(&build_dir(kernel, arch, &source, &tools), arch)
}

/// Whether a run builds `kernel` for `arch` now (it holds the build's lock).
pub fn is_being_built(kernel: &Kernel, arch: &Arch) -> bool {
    let (Ok(tools), Ok(Some(source))) = (Toolchain::find(arch), source::cached(kernel)) else {
        return false;
    };
    let dir = build_dir(kernel, arch, &source, &tools);
    Lock::is_held(&PathBuf::from(format!("{}.lock", dir.display())))
}

/// The seconds each finished build in the cache took, as their stamps say.
pub fn past_build_seconds() -> Vec<u64> {
    builds_since(&cache::dir(), SystemTime::UNIX_EPOCH)
        .into_iter()
        .map(|(_, seconds, _)| seconds)
        .collect()
}

/// The builds in the cache `cache` that finished at `since` or later: for each, what it is
/// (`Linux 7.3.4 for riscv64`, from its directory's name), the seconds its stamp holds and
/// when it was written.
pub fn builds_since(cache: &Path, since: SystemTime) -> Vec<(String, u64, SystemTime)> {
    fs::read_dir(cache.join("build"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let stamp = e.path().join(BUILT);
            let at = fs::metadata(&stamp).and_then(|m| m.modified()).ok()?;
            let seconds = fs::read_to_string(&stamp).ok()?.trim().parse().ok()?;
            // `<version>-<arch>-<key>`: neither an architecture's name nor the key holds a `-`.
            let name = e.file_name().to_string_lossy().into_owned();
            let mut parts = name.rsplitn(3, '-');
            let (_key, arch, version) = (parts.next()?, parts.next()?, parts.next()?);
            (at >= since).then(|| (format!("Linux {version} for {arch}"), seconds, at))
        })
        .collect()
}

/// Configures and builds `kernel`'s source for `arch`, or reuses the cached build.
pub fn build(kernel: &Kernel, arch: &Arch, tools: &Toolchain) -> Result<Build> {
    let source = source::fetch(kernel)?;
    let dir = build_dir(kernel, arch, &source, tools);
    if !is_built(&dir, arch) {
        // Another run may be building it: wait for it, then use its build. A build that was
        // killed halfway has no stamp; the next run resumes it in the same directory.
        let lock = PathBuf::from(format!("{}.lock", dir.display()));
        let lock = Lock::exclusive(&lock, "a kernel build")?;
        if !is_built(&dir, arch) {
            return build_locked(kernel, arch, tools, source, dir, &lock);
        }
    }
    crate::note!(
        "    Linux {} for {}: cached in {}",
        source.version,
        arch.name,
        dir.display()
    );
    mark_used(&dir);
    prune_superseded(&dir, &source, arch);
    Ok(Build {
        image: dir.join(arch.image_path),
        dir,
        source,
        seconds: None,
        kunit: true,
    })
}

/// [`build`] once the build's lock is held and the build is not finished.
fn build_locked(
    kernel: &Kernel,
    arch: &Arch,
    tools: &Toolchain,
    source: Source,
    dir: PathBuf,
    _lock: &Lock,
) -> Result<Build> {
    let stamp = dir.join(BUILT);
    fs::create_dir_all(&dir).at(&dir)?;
    setup::ensure_space(&dir, 4 << 30, "a kernel build")?;
    preflight::check_bindgen(&tools.bindgen).map_err(anyhow::Error::msg)?;
    let start = progress::step(&format!(
        "building Linux {} for {} in {} (several minutes on 2 cores)",
        source.version,
        arch.name,
        dir.display()
    ));

    let make = |args: &[&str]| {
        let mut cmd = tools.make(&source.dir, arch);
        cmd.arg(format!("O={}", dir.display())).args(args);
        cmd
    };
    command::run(
        make(&["tinyconfig"]).stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    source::verify_executed(&source.dir)?;
    let mut merge = Command::new(source.dir.join("scripts/kconfig/merge_config.sh"));
    merge
        .current_dir(&source.dir)
        .arg("-m")
        .arg("-O")
        .arg(&dir)
        .arg(dir.join(".config"));
    let fragment_dir = dir.join(".kernel-core-configs");
    fs::create_dir_all(&fragment_dir).at(&fragment_dir)?;
    for fragment in fragments(kernel, arch) {
        let path = fragment_dir.join(fragment.name);
        fs::write(&path, &fragment.text).at(&path)?;
        merge.arg(path);
    }
    command::run(
        merge.stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    command::run(
        make(&["olddefconfig"]).stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    check_config(&dir, kernel, arch, tools, &source)?;

    let jobs = format!(
        "-j{}",
        std::thread::available_parallelism().map_or(2, |n| n.get())
    );
    let log = dir.join("build.log");
    let logged = process::run_logged(
        make(&[&jobs, arch.image_target, "modules"]).env("KBUILD_BUILD_TIMESTAMP", "kernel-core"),
        &log,
        "make",
        Duration::from_secs(20),
        BUILD_TIMEOUT,
        &mut process::NoMonitor,
    )?;
    logged.succeeded(
        &format!("building Linux {} for {}", source.version, arch.name),
        &log,
    )?;
    let seconds = start.elapsed().as_secs();
    fs::write(&stamp, format!("{seconds}\n")).at(&stamp)?;
    progress::done(
        &format!("Linux {} for {} built", source.version, arch.name),
        start,
    );
    mark_used(&dir);
    prune_superseded(&dir, &source, arch);
    Ok(Build {
        image: dir.join(arch.image_path),
        dir,
        source,
        seconds: Some(seconds),
        kunit: true,
    })
}

/// Records that a run uses the build in `dir` now ([`SUPERSEDED_KEPT`] counts from it). Best
/// effort: a cache that cannot be written to still serves its builds.
fn mark_used(dir: &Path) {
    let _ = fs::write(dir.join(USED), b"");
}

/// When a run last used the build in `dir` (or finished it, for a build from before the
/// stamp existed).
fn last_used(dir: &Path) -> Option<SystemTime> {
    [USED, BUILT]
        .iter()
        .filter_map(|stamp| {
            fs::metadata(dir.join(stamp))
                .and_then(|m| m.modified())
                .ok()
        })
        .max()
}

/// Removes the builds in the cache that the build in `current` supersedes (the same kernel
/// series for the same architecture, under another key or an older source version) and that
/// no run used for [`SUPERSEDED_KEPT`]; a build whose lock another run holds stays. Returns
/// what it removed, each said. Failures only leave a build behind: they are said, not fatal.
fn prune_superseded(current: &Path, source: &Source, arch: &Arch) -> Vec<PathBuf> {
    prune_superseded_at(current, source, arch, SystemTime::now(), SUPERSEDED_KEPT)
}

/// [`prune_superseded`] at time `now`, keeping what was used within `kept`.
fn prune_superseded_at(
    current: &Path,
    source: &Source,
    arch: &Arch,
    now: SystemTime,
    kept: Duration,
) -> Vec<PathBuf> {
    let Some(builds) = current.parent() else {
        return Vec::new();
    };
    // `7.3.4` is of the series `7.3`.
    let series = source
        .version
        .split('.')
        .take(2)
        .collect::<Vec<_>>()
        .join(".");
    let mut removed = Vec::new();
    for entry in fs::read_dir(builds).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // `<version>-<arch>-<key>`: neither an architecture's name nor the key holds a `-`.
        let mut parts = name.rsplitn(3, '-');
        let (Some(_key), Some(its_arch), Some(version)) =
            (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let same_series = version
            .strip_prefix(series.as_str())
            .is_some_and(|rest| rest.starts_with('.'));
        if path == current
            || name.ends_with(".lock")
            || its_arch != arch.name
            || !same_series
            || !path.is_dir()
        {
            continue;
        }
        let idle = last_used(&path)
            .and_then(|at| now.duration_since(at).ok())
            .unwrap_or(Duration::MAX);
        if idle < kept {
            continue;
        }
        let lock_path = PathBuf::from(format!("{}.lock", path.display()));
        let Ok(Some(_lock)) = Lock::try_exclusive(&lock_path) else {
            continue;
        };
        // The lock file stays: a run waiting on it holds it open.
        match fs::remove_dir_all(&path) {
            Ok(()) => {
                crate::note!(
                    "    removed {} from the cache: superseded by {} and unused for {}",
                    path.display(),
                    current.display(),
                    idle_for(idle)
                );
                removed.push(path);
            }
            Err(e) => crate::note!(
                "    could not remove the superseded build {}: {e}",
                path.display()
            ),
        }
    }
    removed
}

/// `idle` in words: hours, or days past two.
fn idle_for(idle: Duration) -> String {
    let hours = idle.as_secs() / 3600;
    match hours {
        _ if idle == Duration::MAX => "as long as it has a stamp".to_string(),
        0..48 => format!("{hours} h"),
        _ => format!("{} days", hours / 24),
    }
}

/// Fails if an option the fragments ask for did not survive `olddefconfig`, saying why when
/// the reason is known.
fn check_config(
    dir: &Path,
    kernel: &Kernel,
    arch: &Arch,
    tools: &Toolchain,
    source: &Source,
) -> Result {
    let config = fs::read_to_string(dir.join(".config")).at(dir.join(".config"))?;
    let mut missing = Vec::new();
    for fragment in fragments(kernel, arch) {
        for line in fragment.text.lines() {
            let Some((name, value)) = line.split_once('=') else {
                continue;
            };
            if line.starts_with('#') {
                continue;
            }
            if !config.lines().any(|l| l == format!("{name}={value}")) {
                missing.push(name.to_string());
            }
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    if missing.iter().any(|m| m == "CONFIG_RUST") {
        let mut cmd = tools.make(&source.dir, arch);
        cmd.arg(format!("O={}", dir.display())).arg("rustavailable");
        let why = Command::new(cmd.get_program())
            .args(cmd.get_args())
            .output()
            .map(|o| {
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        bail!(
            "CONFIG_RUST=y did not survive olddefconfig for Linux {} on {}: `make rustavailable` says: {why}",
            source.version,
            arch.name
        );
    }
    bail!(
        "these options of {} did not survive olddefconfig for Linux {} on {}: {} (see {}/.config)",
        fragments(kernel, arch)
            .iter()
            .map(|f| f.name.to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        source.version,
        arch.name,
        missing.join(", "),
        dir.display()
    );
}

/// Removes the cached builds of `kernel` for `arch` (every key: older configurations and
/// toolchains too); returns what it removed. Sources and packages stay.
pub fn clean(kernel: &Kernel, arch: &Arch) -> Result<Vec<PathBuf>> {
    let Some(source) = source::cached(kernel)? else {
        return Ok(Vec::new());
    };
    let builds = cache::dir().join("build");
    let prefix = format!("{}-{}-", source.version, arch.name);
    let mut removed = Vec::new();
    let Ok(entries) = fs::read_dir(&builds) else {
        return Ok(removed);
    };
    for entry in entries {
        let entry = entry.at(&builds)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && !name.ends_with(".lock") {
            let path = entry.path();
            // Not while another run builds or uses it.
            let _lock = Lock::exclusive(
                &PathBuf::from(format!("{}.lock", path.display())),
                "a kernel build",
            )?;
            fs::remove_dir_all(&path).at(&path)?;
            removed.push(path);
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::arch::ARCHES;

    fn arch(name: &str) -> &'static Arch {
        ARCHES.iter().find(|a| a.name == name).unwrap()
    }

    /// A finished build `name` in `builds`, last used `ago` before `now`.
    fn build_at(builds: &Path, name: &str, now: SystemTime, ago: Duration) -> PathBuf {
        let dir = builds.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(BUILT), "300\n").unwrap();
        fs::File::options()
            .write(true)
            .open(dir.join(BUILT))
            .unwrap()
            .set_modified(now - ago)
            .unwrap();
        dir
    }

    #[test]
    fn only_idle_builds_of_the_same_series_and_arch_go() {
        let scratch = tempfile::tempdir().unwrap();
        let builds = scratch.path().join("build");
        let now = SystemTime::now();
        let day = Duration::from_secs(24 * 60 * 60);
        let current = build_at(&builds, "7.3.4-riscv64-aaaa", now, Duration::ZERO);
        let old_key = build_at(&builds, "7.3.4-riscv64-bbbb", now, 2 * day);
        let old_version = build_at(&builds, "7.3.2-riscv64-cccc", now, 2 * day);
        let recent = build_at(&builds, "7.3.4-riscv64-dddd", now, Duration::from_secs(60));
        let other_arch = build_at(&builds, "7.3.4-arm64-eeee", now, 2 * day);
        let other_series = build_at(&builds, "7.2.12-riscv64-ffff", now, 2 * day);
        let other_series_prefix = build_at(&builds, "7.31.1-riscv64-ffff", now, 2 * day);
        let locked = build_at(&builds, "7.3.4-riscv64-9999", now, 2 * day);
        let _held = Lock::exclusive(
            &PathBuf::from(format!("{}.lock", locked.display())),
            "a test",
        )
        .unwrap();
        let source = Source {
            dir: scratch.path().join("src"),
            version: "7.3.4".into(),
        };

        let mut removed =
            prune_superseded_at(&current, &source, arch("riscv64"), now, SUPERSEDED_KEPT);
        removed.sort();
        assert_eq!(removed, [old_version.clone(), old_key.clone()]);
        for gone in [&old_key, &old_version] {
            assert!(!gone.exists(), "{}", gone.display());
        }
        for kept in [
            &current,
            &recent,
            &other_arch,
            &other_series,
            &other_series_prefix,
            &locked,
        ] {
            assert!(kept.exists(), "{}", kept.display());
        }
    }

    #[test]
    fn a_use_restarts_the_clock() {
        let scratch = tempfile::tempdir().unwrap();
        let builds = scratch.path().join("build");
        let now = SystemTime::now();
        let current = build_at(&builds, "6.12.118-x86_64-aaaa", now, Duration::ZERO);
        let used = build_at(&builds, "6.12.118-x86_64-bbbb", now, 10 * SUPERSEDED_KEPT);
        mark_used(&used);
        let source = Source {
            dir: scratch.path().join("src"),
            version: "6.12.118".into(),
        };
        assert!(
            prune_superseded_at(&current, &source, arch("x86_64"), now, SUPERSEDED_KEPT).is_empty()
        );
        assert!(used.exists());
    }
}
