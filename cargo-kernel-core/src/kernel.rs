// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel sources and kernel builds, cached outside the repository.
//!
//! The cache (`$KERNEL_CORE_CACHE`, else `$XDG_CACHE_HOME/kernel-core`, else
//! `~/.cache/kernel-core`) holds the Debian source packages, their extracted trees, and one
//! build directory per kernel version, architecture and configuration key. The key hashes
//! everything a build depends on (the config fragments, rustc, bindgen and clang versions), so
//! a build is reused exactly as long as nothing that feeds it changed.

use crate::arch::{Arch, Kernel};
use crate::bail;
use crate::setup;
use crate::ui::Context as _;
use crate::ui::{self, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How long a kernel build may take before it is considered hung.
const BUILD_TIMEOUT: Duration = Duration::from_secs(60 * 60);

/// What `--help` says of the cache, for every command line that uses it.
pub const CACHE_HELP: &str = "Environment:
  KERNEL_CORE_CACHE                   where kernel sources and builds are cached
                                      (default: $XDG_CACHE_HOME/kernel-core or ~/.cache/kernel-core)
  KERNEL_CORE_DEBIAN_MIRROR           the Debian archive that kernel packages come from
                                      (default: http://deb.debian.org/debian)
  KERNEL_CORE_DEBIAN_SECURITY_MIRROR  the archive of Debian's security suites, bookworm-security
                                      (default: http://deb.debian.org/debian-security)";

/// The cache directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("KERNEL_CORE_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Path::new(&dir).join("kernel-core");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    Path::new(&home).join(".cache/kernel-core")
}

/// The tools a kernel and module build use, as `make` variables.
#[derive(Debug, Default, Clone)]
pub struct Toolchain {
    pub rustc: PathBuf,
    pub bindgen: PathBuf,
    /// The variables that choose the C toolchain; empty means `LLVM=-19`, as for the kernels
    /// this tool builds. A distribution's kernel has `CC=...` (the kernel's GCC, or a shim).
    pub variables: Vec<String>,
    /// Environment of every `make`: `RUSTC_FORCE_RUSTC_VERSION` for a distribution's kernel
    /// (its Rust symbols hash the distribution's rustc version string).
    pub env: Vec<(String, String)>,
}

impl Toolchain {
    /// Finds the rustc that builds `arch`'s kernels (the stable toolchain, or the release the
    /// architecture needs) and the bindgen [`setup::ensure_kernel_tools`] installed.
    pub fn find(arch: &Arch) -> Result<Self> {
        let toolchain = arch.rustc.unwrap_or("stable");
        Ok(Self {
            rustc: setup::which("rustc", toolchain)?,
            bindgen: setup::ensure_bindgen()?,
            variables: Vec::new(),
            env: Vec::new(),
        })
    }

    /// The toolchain that builds `kernel`'s modules on `arch`: [`Self::find`]'s, or for a
    /// distribution's kernel the exact one its `.config` names (`distro::toolchain`).
    pub fn for_kernel(kernel: &Kernel, arch: &Arch) -> Result<Self> {
        if kernel.stock.is_some() {
            return crate::distro::toolchain(kernel, arch);
        }
        Self::find(arch)
    }

    /// `make -C dir ARCH=... LLVM=-19 RUSTC=... BINDGEN=...`.
    pub fn make(&self, dir: &Path, arch: &Arch) -> Command {
        let mut cmd = Command::new("make");
        cmd.arg("-C")
            .arg(dir)
            .arg(format!("ARCH={}", arch.kernel_arch))
            .args(self.variables())
            .arg(format!("RUSTC={}", self.rustc.display()))
            .arg(format!("HOSTRUSTC={}", self.rustc.display()))
            .arg(format!("BINDGEN={}", self.bindgen.display()))
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// The C toolchain's variables: [`Self::variables`], or `LLVM=-19`.
    pub fn variables(&self) -> Vec<String> {
        if self.variables.is_empty() {
            vec![format!("LLVM=-{}", setup::LLVM_VERSION)]
        } else {
            self.variables.clone()
        }
    }

    /// Everything that identifies the toolchain, for cache keys: the compilers' versions, the
    /// variables and the environment.
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for version in [
            ui::output_once(Command::new(&self.rustc).arg("-vV")),
            ui::output_once(Command::new(&self.bindgen).arg("--version")),
        ] {
            text.push_str(&version.unwrap_or_default());
        }
        for variable in &self.variables() {
            text.push_str(variable);
            if let Some(cc) = variable.strip_prefix("CC=") {
                text.push_str(
                    &ui::output_once(Command::new(cc).arg("--version")).unwrap_or_default(),
                );
                text.push_str(&std::fs::read_to_string(cc).unwrap_or_default());
            }
        }
        for (k, v) in &self.env {
            text.push_str(&format!("{k}={v}"));
        }
        text
    }

    /// The C compiler: `CC`, or `clang-19`.
    pub fn cc(&self) -> String {
        self.variables
            .iter()
            .find_map(|v| v.strip_prefix("CC="))
            .map_or_else(|| format!("clang-{}", setup::LLVM_VERSION), str::to_string)
    }
}

/// An extracted kernel source tree.
pub struct Source {
    pub dir: PathBuf,
    /// `VERSION.PATCHLEVEL.SUBLEVEL` from its Makefile.
    pub version: String,
}

/// Reads `VERSION.PATCHLEVEL.SUBLEVEL` from a kernel tree's Makefile.
fn makefile_version(dir: &Path) -> Result<String> {
    let makefile = fs::read_to_string(dir.join("Makefile")).at(dir.join("Makefile"))?;
    let field = |name: &str| {
        makefile
            .lines()
            .find_map(|l| {
                l.strip_prefix(name)?
                    .trim_start()
                    .strip_prefix('=')
                    .map(|v| v.trim().to_string())
            })
            .ok_or_else(|| anyhow::anyhow!("{}/Makefile has no {name}", dir.display()))
    };
    Ok(format!(
        "{}.{}.{}",
        field("VERSION")?,
        field("PATCHLEVEL")?,
        field("SUBLEVEL")?
    ))
}

/// The source of `kernel`, fetched from Debian and extracted into the cache if needed.
pub fn source(kernel: &Kernel) -> Result<Source> {
    if let Some(source) = cached_source(kernel)? {
        return Ok(source);
    }
    let cache = cache_dir();
    let _lock = crate::lock::Lock::exclusive(
        &cache.join("src").join(format!("{}.lock", kernel.package)),
        "a kernel source's extraction",
    )?;
    if let Some(source) = cached_source(kernel)? {
        return Ok(source);
    }
    let dir = source_dir(kernel);
    let stamp = dir.join(EXTRACTED);
    fs::create_dir_all(cache.join("src")).at(cache.join("src"))?;
    setup::ensure_space(&cache.join("src"), 3 << 30, "a kernel source tree")?;
    let start = ui::step(&format!("fetching {} ({})", kernel.package, kernel.suite));
    // Through the private apt configuration (no /etc/apt edits), checked against the index.
    let apt = crate::apt::Apt::new(kernel.suite, kernel.archive, "amd64");
    let stanza = apt
        .show(kernel.package)?
        .ok_or_else(|| anyhow::anyhow!("Debian {} has no {}", kernel.suite, kernel.package))?;
    let deb = apt.fetch(&stanza, &cache.join("debs"))?;
    let unpack = cache
        .join("src")
        .join(format!(".{}-unpack", kernel.package));
    let _ = fs::remove_dir_all(&unpack);
    ui::run(
        Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&unpack),
        "the .deb may be truncated: delete it from the cache and retry",
    )?;
    let tarball = fs::read_dir(unpack.join("usr/src"))
        .at(unpack.join("usr/src"))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.xz"))
        .ok_or_else(|| anyhow::anyhow!("{} holds no usr/src/*.tar.xz", deb.display()))?;
    let _ = fs::remove_dir_all(&dir);
    let extract = cache
        .join("src")
        .join(format!(".{}-extract", kernel.package));
    let _ = fs::remove_dir_all(&extract);
    fs::create_dir_all(&extract).at(&extract)?;
    ui::run(
        Command::new("tar")
            .arg("xf")
            .arg(&tarball)
            .arg("-C")
            .arg(&extract),
        "is xz-utils installed and is there disk space?",
    )?;
    let top = fs::read_dir(&extract)
        .at(&extract)?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .ok_or_else(|| anyhow::anyhow!("{} held no directory", tarball.display()))?;
    fs::rename(&top, &dir).at(&dir)?;
    let _ = fs::remove_dir_all(&extract);
    let _ = fs::remove_dir_all(&unpack);
    // The stamp names the package it came from: a distribution kernel's headers must be of
    // exactly that version.
    let deb_name = deb
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    fs::write(dir.join(MANIFEST), manifest(&dir)?).at(dir.join(MANIFEST))?;
    fs::write(&stamp, format!("{deb_name}\n")).at(&stamp)?;
    let version = makefile_version(&dir)?;
    ui::done(
        &format!("Linux {version} source in {}", dir.display()),
        start,
    );
    Ok(Source { dir, version })
}

/// The manifest, in an extracted kernel tree, of the files the runner executes from it.
const MANIFEST: &str = ".kernel-core-manifest";

/// The files of a kernel tree the runner executes (`merge_config.sh` for a configuration,
/// `kunit.py` and its modules for `kunit.py parse`), relative to the tree.
fn executed_files(tree: &Path) -> Result<Vec<PathBuf>> {
    let mut files = vec![PathBuf::from("scripts/kconfig/merge_config.sh")];
    let kunit = tree.join("tools/testing/kunit");
    let mut scripts: Vec<PathBuf> = fs::read_dir(&kunit)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .filter_map(|p| p.strip_prefix(tree).ok().map(Path::to_path_buf))
        .collect();
    scripts.sort();
    files.extend(scripts);
    Ok(files)
}

/// The manifest's text for `tree`: `<sha256>  <path>` per executed file.
fn manifest(tree: &Path) -> Result<String> {
    let mut text = String::new();
    for file in executed_files(tree)? {
        let hash = crate::apt::sha256(&tree.join(&file))?;
        text.push_str(&format!("{hash}  {}\n", file.display()));
    }
    Ok(text)
}

/// Checks the files the runner executes from the cached kernel `tree` against the manifest
/// written when it was extracted (from a `.deb` checked against Debian's index): a tree that
/// was changed since fails, naming the file. A tree extracted by an older version, without a
/// manifest, gets one now.
pub fn verify_executed(tree: &Path) -> Result {
    let path = tree.join(MANIFEST);
    let now = manifest(tree)?;
    let Ok(recorded) = fs::read_to_string(&path) else {
        return fs::write(&path, now).at(&path);
    };
    if recorded != now {
        let changed: Vec<&str> = now
            .lines()
            .filter(|l| !recorded.lines().any(|r| r == *l))
            .filter_map(|l| l.split_once("  ").map(|(_, f)| f))
            .collect();
        bail!(
            "{}: {} changed since the tree was extracted ({}): remove the tree to fetch it again",
            tree.display(),
            changed.join(", "),
            path.display()
        );
    }
    Ok(())
}

/// The Debian package version of the cached source of `kernel`: from the package its
/// extraction stamp names, or for an older stamp that names none, from the one package of it
/// in the cache's `debs/`; `None` if it cannot be told.
pub fn source_package_version(kernel: &Kernel) -> Result<Option<String>> {
    let stamp = source_dir(kernel).join(EXTRACTED);
    let named = fs::read_to_string(&stamp)
        .unwrap_or_default()
        .trim()
        .to_string();
    let version_of = |file: &str| {
        file.strip_prefix(&format!("{}_", kernel.package))
            .and_then(|rest| rest.split('_').next())
            .map(|v| v.replace("%3a", ":"))
    };
    if !named.is_empty() {
        return Ok(version_of(&named));
    }
    let debs = cache_dir().join("debs");
    let found: Vec<String> = fs::read_dir(&debs)
        .at(&debs)?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{}_", kernel.package)) && n.ends_with(".deb"))
        .collect();
    Ok(match found.as_slice() {
        [one] => version_of(one),
        _ => None,
    })
}

/// The file that marks a finished extraction of a kernel source in its directory.
const EXTRACTED: &str = ".kernel-core-extracted";

/// The file that marks a finished kernel build in its directory (it holds the build's seconds).
const BUILT: &str = ".kernel-core-built";

/// Where the source of `kernel` is extracted in the cache.
fn source_dir(kernel: &Kernel) -> PathBuf {
    cache_dir().join("src").join(kernel.package)
}

/// The source of `kernel`, if it is already extracted in the cache.
fn cached_source(kernel: &Kernel) -> Result<Option<Source>> {
    let dir = source_dir(kernel);
    if !dir.join(EXTRACTED).exists() {
        return Ok(None);
    }
    let version = makefile_version(&dir)?;
    Ok(Some(Source { dir, version }))
}

/// A configuration fragment, built into the runner (`configs/` in this crate).
pub struct Fragment {
    /// Its file name, such as `common.config`.
    pub name: &'static str,
    /// Its text: one `CONFIG_...=...` per line, `#` comments; without the options its
    /// architecture does not have ([`Arch::unavailable`]).
    pub text: String,
}

/// The configuration fragments for `arch`, in merge order: what every kernel of the matrix
/// needs (Rust, KUnit, modules, a serial console, the kernel's bug detectors), then the
/// architecture's machine.
pub fn fragments(arch: &Arch) -> [Fragment; 2] {
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
    [
        Fragment {
            name: "common.config",
            text: available(include_str!("../configs/common.config")),
        },
        Fragment {
            name: arch.config_name,
            text: available(arch.config),
        },
    ]
}

/// 64-bit FNV-1a, for cache keys.
pub fn fnv(bytes: &[u8], mut hash: u64) -> u64 {
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x100_0000_01b3);
    }
    hash
}

/// A configured, built kernel: what a module is built against (`make -C dir M=...`) and what
/// a guest boots.
pub struct Build {
    /// The build directory (`O=`), with `.config`, `Module.symvers` and the kernel crate's
    /// metadata.
    pub dir: PathBuf,
    pub source: Source,
    /// The image a guest boots (for UML, the kernel program itself).
    pub image: PathBuf,
    /// How long the build took, if it ran.
    pub seconds: Option<u64>,
    /// Whether the kernel has KUnit built in (`CONFIG_KUNIT=y`), so that a module's
    /// `#[kunit_tests]` suites run when it loads. Distribution kernels have none: their cells
    /// check that the modules load, print their init lines and unload (`distro::judge`).
    pub kunit: bool,
}

impl Build {
    /// A kernel build directory made elsewhere (`cargo xtask modules --kdir`), for `arch`.
    pub fn existing(dir: &Path, arch: &Arch) -> Result<Self> {
        let release =
            fs::read_to_string(dir.join("include/config/kernel.release")).unwrap_or_default();
        let source = dir.join("source");
        Ok(Self {
            dir: dir.to_path_buf(),
            source: Source {
                dir: if source.exists() {
                    source
                } else {
                    dir.to_path_buf()
                },
                version: release.trim().to_string(),
            },
            image: dir.join(arch.image_path),
            seconds: None,
            kunit: fs::read_to_string(dir.join(".config"))
                .is_ok_and(|c| c.lines().any(|l| l == "CONFIG_KUNIT=y")),
        })
    }
}

/// The cache key of a build: everything its output depends on.
fn build_key(arch: &Arch, source: &Source, tools: &Toolchain) -> String {
    let mut hash = 0xcbf2_9ce4_8422_2325;
    hash = fnv(source.version.as_bytes(), hash);
    hash = fnv(arch.name.as_bytes(), hash);
    for fragment in fragments(arch) {
        hash = fnv(fragment.text.as_bytes(), hash);
    }
    for version in [
        ui::output_once(Command::new(&tools.rustc).arg("-vV")),
        ui::output_once(Command::new(&tools.bindgen).arg("--version")),
        ui::output_once(Command::new(format!("clang-{}", setup::LLVM_VERSION)).arg("--version")),
    ] {
        hash = fnv(version.unwrap_or_default().as_bytes(), hash);
    }
    format!("{hash:016x}")
}

/// Where the build of `source` for `arch` lives in the cache.
fn build_dir(arch: &Arch, source: &Source, tools: &Toolchain) -> PathBuf {
    let key = build_key(arch, source, tools);
    cache_dir()
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
    if kernel.stock.is_some() {
        return crate::distro::is_cached(kernel, arch);
    }
    let Ok(tools) = Toolchain::find(arch) else {
        return false;
    };
    let Ok(Some(source)) = cached_source(kernel) else {
        return false;
    };
    is_built(&build_dir(arch, &source, &tools), arch)
}

/// Where the build of a kernel for an architecture stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Built and in the cache.
    Cached,
    /// Being built by a run now.
    Building,
    /// Neither.
    Absent,
}

/// Where the build of `kernel` for `arch` stands.
pub fn state(kernel: &Kernel, arch: &Arch) -> State {
    if is_cached(kernel, arch) {
        return State::Cached;
    }
    if kernel.stock.is_some() {
        return State::Absent;
    }
    let (Ok(tools), Ok(Some(source))) = (Toolchain::find(arch), cached_source(kernel)) else {
        return State::Absent;
    };
    let dir = build_dir(arch, &source, &tools);
    if crate::lock::Lock::is_held(&PathBuf::from(format!("{}.lock", dir.display()))) {
        State::Building
    } else {
        State::Absent
    }
}

/// Says, before anything starts, which of `cells` need a kernel built (and a source fetched),
/// and about how long that takes, from the builds already in the cache.
pub fn announce_cold(cells: &[(Kernel, Arch)]) {
    let cold: Vec<&(Kernel, Arch)> = cells.iter().filter(|(k, a)| !is_cached(k, a)).collect();
    if cold.is_empty() {
        return;
    }
    let past: Vec<u64> = fs::read_dir(cache_dir().join("build"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| fs::read_to_string(e.path().join(BUILT)).ok())
        .filter_map(|t| t.trim().parse().ok())
        .collect();
    let each = if past.is_empty() {
        "5 to 10 minutes on 2 cores".to_string()
    } else {
        let mean = past.iter().sum::<u64>() / past.len() as u64;
        format!(
            "about {} each, as builds on this machine took",
            ui::elapsed(Duration::from_secs(mean))
        )
    };
    crate::say!(
        "==> {} kernel(s) not in the cache ({}): each is built once, {each}",
        cold.len(),
        cache_dir().display()
    );
    for (kernel, arch) in cold {
        let fetch = if cached_source(kernel).ok().flatten().is_none() {
            format!(
                ", after fetching {} from Debian {} (about 170 MB)",
                kernel.package, kernel.suite
            )
        } else {
            String::new()
        };
        crate::say!("    Linux {} for {}{fetch}", kernel.name, arch.name);
    }
}

/// Configures and builds `source` for `arch`, or reuses the cached build.
pub fn build(kernel: &Kernel, arch: &Arch, tools: &Toolchain) -> Result<Build> {
    // A distribution's kernel: its metadata rebuilt and checked, its own image.
    if kernel.stock.is_some() {
        return crate::distro::build(kernel, arch, tools);
    }
    let source = self::source(kernel)?;
    let dir = build_dir(arch, &source, tools);
    if !is_built(&dir, arch) {
        // Another run may be building it: wait for it, then use its build. A build that was
        // killed halfway has no stamp; the next run resumes it in the same directory.
        let lock = PathBuf::from(format!("{}.lock", dir.display()));
        let lock = crate::lock::Lock::exclusive(&lock, "a kernel build")?;
        if !is_built(&dir, arch) {
            return build_locked(arch, tools, source, dir, &lock);
        }
    }
    crate::say!(
        "    Linux {} for {}: cached in {}",
        source.version,
        arch.name,
        dir.display()
    );
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
    arch: &Arch,
    tools: &Toolchain,
    source: Source,
    dir: PathBuf,
    _lock: &crate::lock::Lock,
) -> Result<Build> {
    let stamp = dir.join(BUILT);
    fs::create_dir_all(&dir).at(&dir)?;
    setup::ensure_space(&dir, 4 << 30, "a kernel build")?;
    crate::preflight::check_bindgen(&tools.bindgen).map_err(anyhow::Error::msg)?;
    let start = ui::step(&format!(
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
    ui::run(
        make(&["tinyconfig"]).stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    verify_executed(&source.dir)?;
    let mut merge = Command::new(source.dir.join("scripts/kconfig/merge_config.sh"));
    merge
        .current_dir(&source.dir)
        .arg("-m")
        .arg("-O")
        .arg(&dir)
        .arg(dir.join(".config"));
    let fragment_dir = dir.join(".kernel-core-configs");
    fs::create_dir_all(&fragment_dir).at(&fragment_dir)?;
    for fragment in fragments(arch) {
        let path = fragment_dir.join(fragment.name);
        fs::write(&path, &fragment.text).at(&path)?;
        merge.arg(path);
    }
    ui::run(
        merge.stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    ui::run(
        make(&["olddefconfig"]).stdout(std::process::Stdio::null()),
        "see the error above",
    )?;
    check_config(&dir, arch, tools, &source)?;

    let jobs = format!(
        "-j{}",
        std::thread::available_parallelism().map_or(2, |n| n.get())
    );
    let log = dir.join("build.log");
    let logged = crate::process::run_logged(
        make(&[&jobs, arch.image_target, "modules"]).env("KBUILD_BUILD_TIMESTAMP", "kernel-core"),
        &log,
        "make",
        Duration::from_secs(20),
        BUILD_TIMEOUT,
        &mut crate::process::NoMonitor,
    )?;
    logged.succeeded(
        &format!("building Linux {} for {}", source.version, arch.name),
        &log,
    )?;
    let seconds = start.elapsed().as_secs();
    fs::write(&stamp, format!("{seconds}\n")).at(&stamp)?;
    ui::done(
        &format!("Linux {} for {} built", source.version, arch.name),
        start,
    );
    Ok(Build {
        image: dir.join(arch.image_path),
        dir,
        source,
        seconds: Some(seconds),
        kunit: true,
    })
}

/// Fails if an option the fragments ask for did not survive `olddefconfig`, saying why when
/// the reason is known.
fn check_config(dir: &Path, arch: &Arch, tools: &Toolchain, source: &Source) -> Result {
    let config = fs::read_to_string(dir.join(".config")).at(dir.join(".config"))?;
    let mut missing = Vec::new();
    for fragment in fragments(arch) {
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
        fragments(arch)
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
    // A distribution's kernel: its metadata builds, never the builds of the row it shares a
    // source with.
    if kernel.stock.is_some() {
        return crate::distro::clean(kernel, arch);
    }
    let Some(source) = cached_source(kernel)? else {
        return Ok(Vec::new());
    };
    let builds = cache_dir().join("build");
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
            let _lock = crate::lock::Lock::exclusive(
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

    #[test]
    fn executed_files_are_checked_against_the_manifest() {
        let tree = tempfile::tempdir().unwrap();
        let tree = tree.path();
        for (file, text) in [
            ("scripts/kconfig/merge_config.sh", "#!/bin/sh\n"),
            ("tools/testing/kunit/kunit.py", "print()\n"),
            ("tools/testing/kunit/kunit_parser.py", "\n"),
        ] {
            fs::create_dir_all(tree.join(file).parent().unwrap()).unwrap();
            fs::write(tree.join(file), text).unwrap();
        }
        verify_executed(tree).unwrap();
        assert!(tree.join(MANIFEST).is_file(), "written on first use");
        verify_executed(tree).unwrap();
        fs::write(
            tree.join("tools/testing/kunit/kunit_parser.py"),
            "import os\n",
        )
        .unwrap();
        let e = verify_executed(tree).unwrap_err().to_string();
        assert!(
            e.contains("tools/testing/kunit/kunit_parser.py changed since the tree was extracted"),
            "{e}"
        );
    }
}
