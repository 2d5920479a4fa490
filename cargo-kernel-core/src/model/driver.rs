// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver: a directory with a `Cargo.toml` (its host suites) and a `Kbuild` (its module),
//! and the kernel-core sources both sides use.
//!
//! The module must be built from the kernel-core that the driver's tests use, or a test could
//! pass on the host against one version and run in the kernel against another. So the sources
//! Kbuild gets are those of the `kernel-core`, `kernel-core-macros` and `kernel-core-pin-init`
//! packages that `cargo metadata` resolves for the driver's `Cargo.toml`: a registry version from cargo's
//! source cache, a vendor directory, a git checkout or a path, whatever the driver chose.

use crate::infra::command;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::files;
use crate::infra::paths;
use anyhow::bail;
use serde::Deserialize;
use std::fs;
use std::path::{Path, PathBuf};

/// What the runner needs of `cargo metadata`'s output.
#[derive(Deserialize)]
struct Metadata {
    packages: Vec<Package>,
    target_directory: PathBuf,
}

/// One package of `cargo metadata`.
#[derive(Deserialize)]
struct Package {
    name: String,
    version: String,
    manifest_path: PathBuf,
    #[serde(default)]
    targets: Vec<Target>,
}

/// One target of a package in `cargo metadata`.
#[derive(Deserialize)]
struct Target {
    name: String,
    kind: Vec<String>,
    src_path: PathBuf,
}

/// The driver's library: its `Cargo.toml`'s `[lib]`, which Kbuild builds as the same crate.
#[derive(Debug, Clone)]
pub struct Lib {
    /// The crate's name (`mydrv`).
    pub crate_name: String,
    /// Its root file, relative to the driver's directory (`src/lib.rs`).
    pub src: PathBuf,
}

/// A driver under test.
#[derive(Debug, Clone)]
pub struct Driver {
    /// Its directory: `Cargo.toml` and `Kbuild`.
    pub dir: PathBuf,
    /// Its package's name and version in `Cargo.toml` (what a DKMS package of it is named).
    pub package: String,
    pub version: String,
    /// Cargo's target directory for it, where the runner puts its module builds too.
    pub target_dir: PathBuf,
    /// The `kernel-core` package its `Cargo.toml` resolves: its directory and version.
    pub kernel_core: PathBuf,
    pub kernel_core_version: String,
    /// The `kernel-core-macros` package of the same resolution.
    pub macros: PathBuf,
    /// The `kernel-core-pin-init` package of the same resolution: the `pin_init` crate of a
    /// module built for a kernel that has none (Linux 6.12).
    pub pin_init: PathBuf,
    /// Its library (`[lib]` in `Cargo.toml`).
    pub lib: Lib,
}

impl Driver {
    /// Reads the driver in `dir`: its `Kbuild`, and, through `cargo metadata`, the kernel-core
    /// sources its `Cargo.toml` resolves.
    pub fn open(dir: &Path) -> Result<Self> {
        let dir = dir.canonicalize().at(dir)?;
        for file in ["Cargo.toml", "Kbuild"] {
            if !dir.join(file).is_file() {
                bail!(
                    "{} has no {file}: a driver has a Cargo.toml for its host tests and a Kbuild for its module (`cargo kernel-core new` makes one)",
                    dir.display()
                );
            }
        }
        let out = command::cargo()
            .args(["metadata", "--format-version", "1", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .output()
            .doing("running cargo metadata")?;
        if !out.status.success() {
            bail!(
                "cargo metadata failed for {}:\n{}",
                dir.join("Cargo.toml").display(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let metadata: Metadata = serde_json::from_slice(&out.stdout).map_err(|e| {
            anyhow::anyhow!(
                "cargo metadata for {}: unexpected output: {e}",
                dir.display()
            )
        })?;
        let find = |name: &str| -> Result<&Package> {
            let mut found = metadata.packages.iter().filter(|p| p.name == name);
            let first = found.next().ok_or_else(|| {
                anyhow::anyhow!(
                    "{} does not depend on {name}: add `kernel-core = \"0.1\"` to its [dependencies]",
                    dir.join("Cargo.toml").display()
                )
            })?;
            if let Some(other) = found.next() {
                bail!(
                    "{} resolves two {name} packages ({} and {}): the module can be built from one only",
                    dir.join("Cargo.toml").display(),
                    first.version,
                    other.version
                );
            }
            Ok(first)
        };
        let package_dir = |p: &Package| {
            p.manifest_path
                .parent()
                .expect("a manifest is in a directory")
                .to_path_buf()
        };
        let manifest = dir.join("Cargo.toml");
        let own = metadata
            .packages
            .iter()
            .find(|p| p.manifest_path == manifest)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "cargo metadata for {} lists no package of that manifest: is it a workspace without a [package]?",
                    manifest.display()
                )
            })?;
        let lib = own
            .targets
            .iter()
            .find(|t| t.kind.iter().any(|k| k == "lib" || k == "rlib"))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{} has no library: a driver's code and its #[kunit_tests] suites live in its [lib] \
                     (src/lib.rs), which cargo tests on the host and Kbuild builds into the module; \
                     add src/lib.rs (`cargo kernel-core new` shows the layout)",
                    manifest.display()
                )
            })?;
        let lib = Lib {
            crate_name: lib.name.replace('-', "_"),
            src: lib
                .src_path
                .strip_prefix(&dir)
                .map_err(|_| {
                    anyhow::anyhow!(
                        "{}: the library's root {} is outside the driver's directory, which Kbuild builds",
                        manifest.display(),
                        lib.src_path.display()
                    )
                })?
                .to_path_buf(),
        };
        let kernel_core = find("kernel-core")?;
        let macros = find("kernel-core-macros")?;
        let pin_init = find("kernel-core-pin-init")?;
        if !package_dir(kernel_core).join("kernel-core.mk").is_file() {
            bail!(
                "the kernel-core package in {} has no kernel-core.mk: kernel-core {} is too old for cargo kernel-core",
                package_dir(kernel_core).display(),
                kernel_core.version
            );
        }
        Ok(Self {
            package: own.name.clone(),
            version: own.version.clone(),
            target_dir: metadata.target_directory.clone(),
            kernel_core: package_dir(kernel_core),
            kernel_core_version: kernel_core.version.clone(),
            macros: package_dir(macros),
            pin_init: package_dir(pin_init),
            lib,
            dir,
        })
    }

    /// The name of the driver: its directory's.
    pub fn name(&self) -> String {
        self.dir
            .file_name()
            .map_or_else(|| "driver".into(), |n| n.to_string_lossy().into_owned())
    }

    /// The kernel-core packages the module is built from, each with the `make` variable that
    /// names its directory for `kernel-core.mk` and a short name for copies of it
    /// (`kernel-core`, `macros`, `pin-init`).
    pub fn source_packages(&self) -> Vec<SourcePackage<'_>> {
        vec![
            SourcePackage {
                variable: "KERNEL_CORE_SRC",
                short: "kernel-core",
                dir: &self.kernel_core,
            },
            SourcePackage {
                variable: "KERNEL_CORE_MACROS_SRC",
                short: "macros",
                dir: &self.macros,
            },
            SourcePackage {
                variable: "KERNEL_CORE_PIN_INIT_SRC",
                short: "pin-init",
                dir: &self.pin_init,
            },
        ]
    }

    /// What `Cargo.toml` says the library is, as `kernel-core.mk`'s variables: its crate name
    /// and root, which the `Kbuild` must agree with.
    pub fn library_variables(&self) -> Result<Vec<String>> {
        paths::check(&self.lib.src, "the library's root")?;
        Ok(vec![
            format!("KERNEL_CORE_CARGO_LIB={}", self.lib.crate_name),
            format!("KERNEL_CORE_CARGO_LIB_SRC={}", self.lib.src.display()),
        ])
    }

    /// The `make` variables that point `kernel-core.mk` at the resolved sources (through
    /// links in the build directory `dir` where their own paths are not safe for make) and tell
    /// it what `Cargo.toml` says the library is.
    pub fn make_variables(&self, dir: &Path) -> Result<Vec<String>> {
        let mut variables = Vec::new();
        for package in self.source_packages() {
            let path =
                paths::safe_or_link(package.dir, &dir.join(".kernel-core").join(package.short))?;
            variables.push(format!("{}={}", package.variable, path.display()));
        }
        variables.extend(self.library_variables()?);
        Ok(variables)
    }

    /// The files Kbuild reads: `Kbuild`, `Makefile` and every `.rs`, `.c`, `.h` and `.S` file,
    /// outside `target/` and hidden directories; paths relative to the driver's directory.
    pub fn module_sources(&self) -> Result<Vec<PathBuf>> {
        let mut found = Vec::new();
        let mut pending = vec![PathBuf::new()];
        while let Some(relative) = pending.pop() {
            let dir = self.dir.join(&relative);
            for entry in fs::read_dir(&dir).at(&dir)? {
                let entry = entry.at(&dir)?;
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let path = relative.join(&*name);
                if entry.file_type().at(entry.path())?.is_dir() {
                    if !name.starts_with('.') && self.dir.join(&path) != self.target_dir {
                        pending.push(path);
                    }
                } else if name == "Kbuild"
                    || name == "Makefile"
                    || [".rs", ".c", ".h", ".S"].iter().any(|e| name.ends_with(e))
                {
                    found.push(path);
                }
            }
        }
        found.sort();
        Ok(found)
    }

    /// Copies the module's sources into `build`, leaving files whose content did not change
    /// untouched, so that `make` rebuilds only what changed, and removes the sources an
    /// earlier copy left there that the driver no longer has (a deleted `src/x.rs` must not
    /// build in the module while it fails on the host); objects stay.
    pub fn sync_sources(&self, build: &Path) -> Result {
        let sources = self.module_sources()?;
        let manifest = build.join(SOURCES_MANIFEST);
        if let Ok(old) = fs::read_to_string(&manifest) {
            for stale in old
                .lines()
                .map(Path::new)
                .filter(|p| !sources.iter().any(|s| s == p))
            {
                let path = build.join(stale);
                match fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(e).at(&path);
                    }
                    _ => {}
                }
            }
        }
        for relative in &sources {
            let from = self.dir.join(relative);
            let text = fs::read(&from).at(&from)?;
            files::write_if_changed(&build.join(relative), text)?;
        }
        let list: String = sources
            .iter()
            .map(|p| format!("{}\n", p.display()))
            .collect();
        files::write_if_changed(&manifest, list)?;
        Ok(())
    }
}

/// A kernel-core package a driver's module is built from ([`Driver::source_packages`]).
#[derive(Clone, Copy, Debug)]
pub struct SourcePackage<'a> {
    /// The `make` variable that names its directory for `kernel-core.mk`.
    pub variable: &'static str,
    /// A short name for copies and links of it.
    pub short: &'static str,
    /// Its directory (as `cargo metadata` resolved it).
    pub dir: &'a Path,
}

/// The list of the sources [`Driver::sync_sources`] copied into a build directory.
const SOURCES_MANIFEST: &str = ".kernel-core-sources";

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("kc-driver-{tag}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn a_driver_needs_its_kbuild_and_kernel_core() {
        let scratch = scratch("open");
        let dir = scratch.path().to_path_buf();
        fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"d\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\npath = \"d.rs\"\n[workspace]\n",
        )
        .unwrap();
        fs::write(dir.join("d.rs"), "").unwrap();
        let e = Driver::open(&dir).unwrap_err().to_string();
        assert!(e.contains("has no Kbuild"), "{e}");
        fs::write(dir.join("Kbuild"), "obj-m := d.o\n").unwrap();
        let e = Driver::open(&dir).unwrap_err().to_string();
        assert!(e.contains("does not depend on kernel-core"), "{e}");
    }

    #[test]
    fn a_checkout_s_kernel_core_is_found_with_its_macros() {
        let scratch = scratch("checkout");
        let dir = scratch.path().to_path_buf();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"d\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\npath = \"d.rs\"\n[workspace]\n[dependencies]\nkernel-core = {{ path = {:?} }}\n",
                repo.join("kernel-core").display().to_string()
            ),
        )
        .unwrap();
        fs::write(dir.join("d.rs"), "").unwrap();
        fs::write(dir.join("Kbuild"), "obj-m := d.o\n").unwrap();
        let driver = Driver::open(&dir).unwrap();
        assert_eq!(driver.lib.crate_name, "d");
        assert_eq!(driver.lib.src, Path::new("d.rs"));
        assert_eq!(driver.kernel_core, repo.join("kernel-core"));
        assert_eq!(driver.macros, repo.join("macros"));
        assert_eq!(driver.pin_init, repo.join("pin-init"));
        assert_eq!(
            driver.make_variables(&dir).unwrap()[0],
            format!("KERNEL_CORE_SRC={}", repo.join("kernel-core").display())
        );
    }

    #[test]
    fn sources_are_copied_when_they_change_only() {
        let scratch = scratch("sync");
        let dir = scratch.path().to_path_buf();
        let driver = Driver {
            dir: dir.join("drv"),
            package: "d".into(),
            version: "0.1.0".into(),
            target_dir: dir.join("drv/target"),
            kernel_core: PathBuf::new(),
            kernel_core_version: String::new(),
            macros: PathBuf::new(),
            pin_init: PathBuf::new(),
            lib: Lib {
                crate_name: "d".into(),
                src: "src/lib.rs".into(),
            },
        };
        for (file, text) in [
            ("Kbuild", "obj-m := d.o\n"),
            ("d_main.rs", "mod logic;\n"),
            ("logic.rs", "pub fn f() {}\n"),
            ("sub/more.rs", "\n"),
            ("target/copy.rs", "\n"),
            (".hidden/x.rs", "\n"),
            ("README.md", "\n"),
        ] {
            let path = driver.dir.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let names: Vec<String> = driver
            .module_sources()
            .unwrap()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(names, ["Kbuild", "d_main.rs", "logic.rs", "sub/more.rs"]);
        let build = dir.join("build");
        driver.sync_sources(&build).unwrap();
        let before = fs::metadata(build.join("d_main.rs"))
            .unwrap()
            .modified()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(driver.dir.join("logic.rs"), "pub fn g() {}\n").unwrap();
        driver.sync_sources(&build).unwrap();
        assert_eq!(
            fs::metadata(build.join("d_main.rs"))
                .unwrap()
                .modified()
                .unwrap(),
            before,
            "an unchanged file keeps its time, so make does not rebuild it"
        );
        assert_eq!(
            fs::read_to_string(build.join("logic.rs")).unwrap(),
            "pub fn g() {}\n"
        );
        // A source the driver no longer has leaves the copy; an object stays.
        fs::write(build.join("more.o"), "").unwrap();
        fs::remove_file(driver.dir.join("sub/more.rs")).unwrap();
        driver.sync_sources(&build).unwrap();
        assert!(
            !build.join("sub/more.rs").exists(),
            "a deleted source was left behind"
        );
        assert!(build.join("more.o").exists());
        assert!(build.join("logic.rs").exists());
    }
}
