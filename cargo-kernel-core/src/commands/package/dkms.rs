// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver as a DKMS source package, which builds its modules on the user's machine for each
//! kernel whose headers are installed, again at every kernel upgrade.
//!
//! The package is a directory, `<name>-<version>/`, and a `.deb` that installs it under
//! `/usr/src/<name>-<version>/` and has DKMS build it (`<name>-dkms`). The directory holds:
//!
//! - `driver/`: the driver's module sources (its `Kbuild`, the glue, its library);
//! - `kernel-core/<package>/`: the kernel-core packages it builds with, copied whole from
//!   where the driver's `Cargo.toml` resolves them (the same sources its host tests use);
//! - `kernel-core-preflight`: the preflight ([`crate::kernel::distro::preflight`]), which the
//!   build runs first, so that a missing piece (no Rust metadata, another rustc) fails the build
//!   with what to install instead of a rustc error;
//! - `Makefile`: the build step, `make KDIR=<headers>`: the preflight, then Kbuild's
//!   `make -C <headers> M=driver modules` with kernel-core's variables, and kernel-core's shared
//!   objects kept in the tree, never written into the headers;
//! - `dkms.conf`: the modules, `BUILD_EXCLUSIVE_CONFIG="CONFIG_RUST"` (DKMS skips kernels
//!   without Rust), `AUTOINSTALL`.
//!
//! With tests (`--with-tests`), the package is `<name>-kunit`: its modules are built with their
//! `#[kunit_tests]` suites for kernel-core's harness module (`harness/kernel_core_kunit.ko`,
//! built and installed too), which runs them when the module loads on kernels without KUnit.
//! Nothing in the package names the author's machine: the writer checks that no file holds a
//! path of the driver's directory, of kernel-core's sources or of the cache.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{cache, deb, files};
use crate::kernel::distro::preflight;
use crate::model::driver::Driver;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};

/// What was written.
#[derive(Clone, Debug)]
pub struct Written {
    /// The DKMS name and version (`PACKAGE_NAME`, `PACKAGE_VERSION`).
    pub name: String,
    pub version: String,
    /// The modules it builds, in `dkms.conf`'s order (the harness first in a test build).
    pub modules: Vec<String>,
    /// The source directory and the `.deb`.
    pub tree: PathBuf,
    pub deb: PathBuf,
    /// The `.deb`'s package name (`<name>-dkms`).
    pub package: String,
}

/// The harness module's directory in a test build's tree, and its module.
const HARNESS_DIR: &str = "harness";
const HARNESS_MODULE: &str = "kernel_core_kunit";

/// The modules a `Kbuild` builds: the objects of its `obj-m` lines (`obj-m := a.o`,
/// `obj-m += b.o`, continued with `\`), without `.o`.
pub fn kbuild_modules(kbuild: &str) -> Result<Vec<String>> {
    let joined = kbuild.replace("\\\n", " ");
    let mut modules = Vec::new();
    for line in joined.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        let Some(rest) = line.strip_prefix("obj-m") else {
            continue;
        };
        let Some(objects) = rest
            .trim_start()
            .strip_prefix(":=")
            .or_else(|| rest.trim_start().strip_prefix("+="))
            .or_else(|| rest.trim_start().strip_prefix('='))
        else {
            continue;
        };
        for object in objects.split_whitespace() {
            let Some(name) = object.strip_suffix(".o").filter(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            }) else {
                bail!(
                    "the Kbuild's obj-m names `{object}`, which is not a module's object (`name.o`): DKMS must be told each module's name, so write obj-m with plain object names"
                );
            };
            modules.push(name.to_string());
        }
    }
    if modules.is_empty() {
        bail!("the Kbuild has no `obj-m := <module>.o` line: it builds no module to package");
    }
    Ok(modules)
}

/// Copies the files of the package directory `from` into `to`, following links (a checkout's
/// `kernel-core.mk` is one), leaving out hidden entries and `target/`.
fn copy_package(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).at(to)?;
    for entry in fs::read_dir(from).at(from)? {
        let entry = entry.at(from)?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if text.starts_with('.') || text == "target" {
            continue;
        }
        let path = entry.path();
        let meta = fs::metadata(&path).at(&path)?;
        if meta.is_dir() {
            copy_package(&path, &to.join(&name))?;
        } else if meta.is_file() {
            fs::copy(&path, to.join(&name)).at(&path)?;
        }
    }
    Ok(())
}

/// The `dkms.conf` of package `name` `version` building `modules`, each `(name, directory)`.
fn dkms_conf(name: &str, version: &str, modules: &[(String, &str)]) -> String {
    let mut text = format!(
        "# SPDX-License-Identifier: GPL-2.0-only OR MIT\n\
         # Written by cargo kernel-core package --dkms: {name} {version}, a Rust driver on kernel-core.\n\
         PACKAGE_NAME=\"{name}\"\n\
         PACKAGE_VERSION=\"{version}\"\n\
         # Rust modules can only be built for a kernel with Rust: DKMS skips the others.\n\
         BUILD_EXCLUSIVE_CONFIG=\"CONFIG_RUST\"\n\
         # The Makefile runs kernel-core-preflight first: what is missing fails the build, saying\n\
         # what to install, in DKMS's make.log.\n\
         MAKE[0]=\"make KDIR=${{kernel_source_dir}}\"\n"
    );
    for (i, (module, dir)) in modules.iter().enumerate() {
        text.push_str(&format!(
            "BUILT_MODULE_NAME[{i}]=\"{module}\"\nBUILT_MODULE_LOCATION[{i}]=\"{dir}/\"\nDEST_MODULE_LOCATION[{i}]=\"/updates/dkms\"\n"
        ));
    }
    text.push_str("AUTOINSTALL=\"yes\"\n");
    text
}

/// The tree's `Makefile`: the preflight, then the modules with kernel-core's variables
/// (`variables`, paths relative to the tree), the harness first in a test build.
fn makefile(name: &str, version: &str, variables: &[String], with_tests: bool) -> String {
    let mut text = format!(
        "# SPDX-License-Identifier: GPL-2.0-only OR MIT\n\
         #\n\
         # Written by cargo kernel-core package --dkms: builds {name} {version}'s modules for one kernel\n\
         # release with its headers, once kernel-core-preflight says that every piece is there (the\n\
         # Rust metadata, the kernel's own rustc and bindgen). DKMS runs\n\
         # `make KERNELRELEASE=<release> KDIR=<headers>`; by hand, `make` builds for the running kernel.\n\
         \n\
         KERNELRELEASE ?= $(shell uname -r)\n\
         KDIR ?= /lib/modules/$(KERNELRELEASE)/build\n\
         HERE := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))\n\
         \n\
         # kernel-core's sources, and where the objects it shares between modules are kept: in this\n\
         # tree, never in the kernel's headers.\n\
         KERNEL_CORE_VARIABLES :="
    );
    for variable in variables {
        let (key, value) = variable.split_once('=').unwrap_or((variable, ""));
        let value = if value.starts_with("kernel-core/") {
            format!("$(HERE)/{value}")
        } else {
            value.to_string()
        };
        text.push_str(&format!(" \\\n\t{key}={value}"));
    }
    text.push_str(
        " \\\n\tKERNEL_CORE_MACROS_CACHE=$(HERE)/.kernel-core/macros \\\n\
         \tKERNEL_CORE_OBJECT_CACHE=$(HERE)/.kernel-core/objects \\\n\
         \tKERNEL_CORE_USER_RUSTFLAGS=--remap-path-prefix=$(HERE)/driver/=\n\n\
         all: modules\n\n\
         preflight:\n\
         \tsh $(HERE)/kernel-core-preflight $(KERNELRELEASE) $(KDIR)\n\n",
    );
    if with_tests {
        text.push_str(&format!(
            "# A test build: the suites built in, run by kernel-core's harness module when the\n\
             # module loads (the kernel has no KUnit); modpost takes the harness's symbols.\n\
             modules: preflight\n\
             \t$(MAKE) -C $(KDIR) M=$(HERE)/{HARNESS_DIR} modules\n\
             \t$(MAKE) -C $(KDIR) M=$(HERE)/driver $(KERNEL_CORE_VARIABLES) KERNEL_CORE_KUNIT_HARNESS=y \\\n\
             \t\tKBUILD_EXTRA_SYMBOLS=$(HERE)/{HARNESS_DIR}/Module.symvers modules\n\n\
             clean:\n\
             \t$(MAKE) -C $(KDIR) M=$(HERE)/{HARNESS_DIR} clean\n"
        ));
    } else {
        text.push_str(
            "modules: preflight\n\
             \t$(MAKE) -C $(KDIR) M=$(HERE)/driver $(KERNEL_CORE_VARIABLES) modules\n\n\
             clean:\n",
        );
    }
    text.push_str(
        "\t$(MAKE) -C $(KDIR) M=$(HERE)/driver $(KERNEL_CORE_VARIABLES) clean\n\
         \trm -rf $(HERE)/.kernel-core\n\n\
         .PHONY: all preflight modules clean\n",
    );
    text
}

/// The `.deb`'s maintainer scripts, as `dh_dkms` writes them: DKMS adds the source and builds
/// it for every kernel whose headers are installed; removing or upgrading the package removes
/// it from DKMS (and its modules).
fn scripts(name: &str, version: &str, package: &str) -> [(&'static str, String); 2] {
    [
        (
            "postinst",
            format!(
                "#!/bin/sh\n\
                 # Written by cargo kernel-core package --dkms: DKMS adds {name} {version} and builds it for\n\
                 # every kernel whose headers are installed.\n\
                 set -e\n\
                 if [ \"$1\" = configure ]; then\n\
                 \x20   /usr/lib/dkms/common.postinst {name} {version} /usr/share/{package} \"\" \"$2\"\n\
                 fi\n"
            ),
        ),
        (
            "prerm",
            format!(
                "#!/bin/sh\n\
                 # Written by cargo kernel-core package --dkms: {name} {version} leaves DKMS, with its modules.\n\
                 set -e\n\
                 case \"$1\" in\n\
                 \x20   remove | upgrade | deconfigure)\n\
                 \x20       if [ -n \"$(dkms status -m {name} -v {version} 2>/dev/null)\" ]; then\n\
                 \x20           dkms remove -m {name} -v {version} --all || true\n\
                 \x20       fi\n\
                 \x20       ;;\n\
                 esac\n"
            ),
        ),
    ]
}

/// What the tree's README says.
fn readme(name: &str, version: &str, with_tests: bool) -> String {
    format!(
        "{name} {version}: the source of a Rust kernel driver built on kernel-core, for DKMS{}.\n\
         \n\
         DKMS builds it for every kernel whose headers are installed, and again for each new\n\
         kernel's headers. A kernel needs Rust (CONFIG_RUST) and its Rust metadata, which\n\
         Debian's linux-headers packages lack: install linux-rust-metadata-<release> (the\n\
         metadata overlay package) with the headers of each release, and the kernel's own rustc\n\
         and bindgen. Before every build, kernel-core-preflight says which of these is missing\n\
         and how to get it (in /var/lib/dkms/{name}/{version}/build/make.log when DKMS fails):\n\
         \n\
         \x20   sh /usr/src/{name}-{version}/kernel-core-preflight \"$(uname -r)\"\n\
         \n\
         By hand: make KERNELRELEASE=<release>, in a copy of this directory.\n",
        if with_tests {
            " (a test build: its suites run when the module loads)"
        } else {
            ""
        }
    )
}

/// Fails if a file of `tree` holds one of `paths` (the author's driver, sources, cache).
fn check_no_author_paths(tree: &Path, paths: &[PathBuf]) -> Result {
    let mut pending = vec![tree.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).at(&dir)? {
            let path = entry.at(&dir)?.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let text = String::from_utf8_lossy(&fs::read(&path).at(&path)?).into_owned();
            if let Some(found) = paths
                .iter()
                .map(|p| p.display().to_string())
                .find(|p| p.len() > 1 && text.contains(p.as_str()))
            {
                bail!(
                    "{} names {found}, a path of the author's machine: the package must build anywhere",
                    path.display()
                );
            }
        }
    }
    Ok(())
}

/// Writes `driver`'s DKMS package into `out` (`<name>-<version>/` and its `.deb`), a test
/// build with `with_tests`.
pub fn write(driver: &Driver, with_tests: bool, out: &Path) -> Result<Written> {
    let name = if with_tests {
        format!("{}-kunit", driver.package)
    } else {
        driver.package.clone()
    };
    let version = driver.version.clone();
    let kbuild = driver.dir.join("Kbuild");
    let mut modules: Vec<(String, &str)> =
        kbuild_modules(&fs::read_to_string(&kbuild).at(&kbuild)?)?
            .into_iter()
            .map(|m| (m, "driver"))
            .collect();
    if with_tests {
        modules.insert(0, (HARNESS_MODULE.to_string(), HARNESS_DIR));
    }
    let tree = out.join(format!("{name}-{version}"));
    let _ = fs::remove_dir_all(&tree);
    fs::create_dir_all(&tree).at(&tree)?;

    // The driver's module sources, and the kernel-core packages it builds with.
    for relative in driver.module_sources()? {
        let (from, to) = (
            driver.dir.join(&relative),
            tree.join("driver").join(&relative),
        );
        fs::create_dir_all(to.parent().expect("in the tree")).at(&to)?;
        fs::copy(&from, &to).at(&from)?;
    }
    let mut variables = Vec::new();
    for package in driver.source_packages() {
        let relative = Path::new("kernel-core").join(package.short);
        copy_package(package.dir, &tree.join(&relative))?;
        variables.push(format!("{}={}", package.variable, relative.display()));
    }
    variables.extend(driver.library_variables()?);
    if with_tests {
        let harness = tree.join(HARNESS_DIR);
        let packaged = driver.kernel_core.join("kernel_core_kunit.c");
        for (file, text) in crate::pipeline::module::HARNESS {
            let text = match (*file, fs::read_to_string(&packaged)) {
                ("kernel_core_kunit.c", Ok(own)) => own,
                _ => text.to_string(),
            };
            files::write_atomic(&harness.join(file), text, None)?;
        }
    }
    files::write_atomic(
        &tree.join(preflight::SCRIPT_NAME),
        preflight::SCRIPT,
        Some(0o755),
    )?;
    files::write_atomic(
        &tree.join("Makefile"),
        makefile(&name, &version, &variables, with_tests),
        None,
    )?;
    files::write_atomic(
        &tree.join("dkms.conf"),
        dkms_conf(&name, &version, &modules),
        None,
    )?;
    files::write_atomic(
        &tree.join("README"),
        readme(&name, &version, with_tests),
        None,
    )?;
    let mut author = vec![driver.dir.clone(), driver.target_dir.clone(), cache::dir()];
    author.extend(driver.source_packages().iter().map(|p| p.dir.to_path_buf()));
    check_no_author_paths(&tree, &author)?;

    // The .deb: the tree under /usr/src, DKMS's scripts.
    let package = format!("{name}-dkms");
    let other = if with_tests {
        format!("{}-dkms", driver.package)
    } else {
        format!("{}-kunit-dkms", driver.package)
    };
    let root = out.join(format!(".{package}-root"));
    let _ = fs::remove_dir_all(&root);
    copy_package(
        &tree,
        &root.join("usr/src").join(tree.file_name().expect("named")),
    )?;
    let deb_version = deb::version(&version);
    let deb = out.join(format!("{package}_{deb_version}_all.deb"));
    let [postinst, prerm] = scripts(&name, &version, &package);
    deb::build(
        &root,
        &deb::Control {
            package: &package,
            version: &deb_version,
            architecture: "all",
            relations: vec![
                ("Depends", "dkms (>= 3.0.4), rustc, bindgen".to_string()),
                ("Conflicts", other.clone()),
                ("Replaces", other),
            ],
            summary: &format!("{name} driver, built by DKMS for each kernel with Rust"),
            description: &format!(
                "{name} {version}: the source of an out-of-tree Rust kernel driver built on\n\
                 kernel-core, which DKMS builds for every installed kernel whose headers and Rust\n\
                 metadata (linux-rust-metadata-<release>) are installed.{}",
                if with_tests {
                    "\nA test build: its #[kunit_tests] suites run when the module loads."
                } else {
                    ""
                }
            ),
        },
        &[(postinst.0, &postinst.1), (prerm.0, &prerm.1)],
        deb::Compression::Gzip,
        &deb,
    )?;
    Ok(Written {
        name,
        version,
        modules: modules.into_iter().map(|(m, _)| m).collect(),
        tree,
        deb,
        package,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modules_are_those_of_obj_m() {
        assert_eq!(
            kbuild_modules("kernel-core-lib := d\nobj-m := d.o # the module\nd-y := d_main.o\n")
                .unwrap(),
            ["d"]
        );
        assert_eq!(
            kbuild_modules("obj-m := a.o \\\n\tb.o\nobj-m += c-d.o\n").unwrap(),
            ["a", "b", "c-d"]
        );
        let e = kbuild_modules("obj-m := $(NAME).o\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`$(NAME).o`"), "{e}");
        let e = kbuild_modules("obj-y := x.o\n").unwrap_err().to_string();
        assert!(e.contains("no `obj-m"), "{e}");
    }

    #[test]
    fn dkms_conf_names_every_module_and_builds_only_with_rust() {
        let conf = dkms_conf(
            "d-kunit",
            "0.1.0",
            &[
                ("kernel_core_kunit".into(), "harness"),
                ("d".into(), "driver"),
            ],
        );
        for line in [
            "PACKAGE_NAME=\"d-kunit\"",
            "BUILD_EXCLUSIVE_CONFIG=\"CONFIG_RUST\"",
            "MAKE[0]=\"make KDIR=${kernel_source_dir}\"",
            "BUILT_MODULE_NAME[0]=\"kernel_core_kunit\"",
            "BUILT_MODULE_LOCATION[0]=\"harness/\"",
            "BUILT_MODULE_NAME[1]=\"d\"",
            "BUILT_MODULE_LOCATION[1]=\"driver/\"",
            "DEST_MODULE_LOCATION[1]=\"/updates/dkms\"",
            "AUTOINSTALL=\"yes\"",
        ] {
            assert!(conf.lines().any(|l| l == line), "{line}:\n{conf}");
        }
    }

    #[test]
    fn the_makefile_runs_the_preflight_first() {
        let vars = [
            "KERNEL_CORE_SRC=kernel-core/kernel-core".to_string(),
            "KERNEL_CORE_CARGO_LIB=d".to_string(),
        ];
        let text = makefile("d", "0.1.0", &vars, false);
        assert!(
            text.contains("\tKERNEL_CORE_SRC=$(HERE)/kernel-core/kernel-core \\\n"),
            "{text}"
        );
        assert!(text.contains("\tKERNEL_CORE_CARGO_LIB=d \\\n"), "{text}");
        assert!(text.contains("modules: preflight\n\t$(MAKE) -C $(KDIR) M=$(HERE)/driver $(KERNEL_CORE_VARIABLES) modules\n"), "{text}");
        // make itself reads it: the preflight fails the build before Kbuild runs.
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("Makefile"), &text).unwrap();
        fs::write(
            dir.path().join("kernel-core-preflight"),
            "echo \"preflight $1 $2\"; exit 1\n",
        )
        .unwrap();
        let out = std::process::Command::new("make")
            .args([
                "-C",
                &dir.path().display().to_string(),
                "KERNELRELEASE=7.3.4+deb13-amd64",
                "KDIR=/k",
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success());
        assert!(
            stdout.contains("preflight 7.3.4+deb13-amd64 /k"),
            "{stdout}"
        );
        assert!(
            !stdout.contains("M="),
            "Kbuild ran after a failed preflight:\n{stdout}"
        );
        let test = makefile("d-kunit", "0.1.0", &vars, true);
        assert!(
            test.contains("KERNEL_CORE_KUNIT_HARNESS=y")
                && test.contains("KBUILD_EXTRA_SYMBOLS=$(HERE)/harness/Module.symvers"),
            "{test}"
        );
    }

    #[test]
    fn author_paths_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a"), "KERNEL_CORE_SRC=/home/me/kc\n").unwrap();
        check_no_author_paths(dir.path(), &[PathBuf::from("/home/me/other")]).unwrap();
        let e = check_no_author_paths(dir.path(), &[PathBuf::from("/home/me/kc")])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("names /home/me/kc, a path of the author's machine"),
            "{e}"
        );
    }
}
