// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The errors a user hits first when building modules against their own kernel, detected up
//! front and explained in one line each, instead of a page of make output.

use std::path::Path;

/// What a kernel build directory must offer to build Rust modules against it.
pub struct KernelDir<'a> {
    pub dir: &'a Path,
    /// `rustc --version` of the compiler that would build the modules.
    pub rustc_version: &'a str,
}

/// Reads `NAME=value` from a Kconfig output file (`.config` or `include/config/auto.conf`).
fn config_value(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let value = line.strip_prefix(name)?.strip_prefix('=')?;
        Some(value.trim_matches('"').to_string())
    })
}

impl KernelDir<'_> {
    /// Checks the directory; the `Err` is the one-line explanation of the first problem.
    pub fn check(&self) -> Result<(), String> {
        let dir = self.dir;
        let shown = dir.display();
        if !dir.is_dir() {
            return Err(format!(
                "{shown} does not exist: pass the kernel's build directory (the O= of its build)"
            ));
        }
        let Ok(config) = std::fs::read_to_string(dir.join(".config")) else {
            return Err(format!(
                "{shown} is not a configured kernel build directory (no .config): configure and build the kernel first, e.g. `make O={shown} defconfig && make O={shown}`"
            ));
        };
        if config_value(&config, "CONFIG_RUST").as_deref() != Some("y") {
            return Err(format!(
                "the kernel in {shown} has no Rust support (CONFIG_RUST is not set): enable it (General setup -> Rust support) and rebuild; `make O={shown} LLVM=1 rustavailable` says what is missing"
            ));
        }
        let auto =
            std::fs::read_to_string(dir.join("include/config/auto.conf")).unwrap_or_default();
        if let Some(built_with) = config_value(&auto, "CONFIG_RUSTC_VERSION_TEXT") {
            if built_with.trim() != self.rustc_version.trim() {
                return Err(format!(
                    "the kernel in {shown} was built with `{built_with}` but modules would be built with `{}`: Rust modules need the exact compiler of their kernel (rustup toolchain install it, or rebuild the kernel)",
                    self.rustc_version.trim()
                ));
            }
        }
        if !dir.join("rust/libkernel.rmeta").exists() {
            return Err(format!(
                "{shown} has no rust/libkernel.rmeta: build the kernel itself first (`make O={shown}`)"
            ));
        }
        if !dir.join("Module.symvers").exists() {
            return Err(format!(
                "{shown} has no Module.symvers, which modpost needs for every external module: run `make O={shown} modules` once"
            ));
        }
        Ok(())
    }
}

/// Checks that bindgen and libclang, which only a kernel build needs, are usable.
pub fn check_bindgen(bindgen: &Path) -> Result<(), String> {
    let out = std::process::Command::new(bindgen)
        .arg("--version")
        .output();
    match out {
        Err(_) => Err(format!(
            "bindgen is missing ({}): `cargo install --locked bindgen-cli --version 0.71.1`",
            bindgen.display()
        )),
        Ok(out) if !out.status.success() => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains("libclang") {
                Err(format!(
                    "bindgen cannot load libclang: install libclang-{v}-dev (apt install libclang-{v}-dev)",
                    v = crate::kernel::setup::LLVM_VERSION
                ))
            } else {
                Err(format!(
                    "`{} --version` fails: {}",
                    bindgen.display(),
                    stderr.trim()
                ))
            }
        }
        Ok(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const RUSTC: &str = "rustc 1.95.0 (59807616e 2026-04-14)";

    /// A fake kernel build directory with the given files.
    fn fake(name: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("kernel-core-preflight-{name}-"))
            .tempdir()
            .unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        dir
    }

    fn check(dir: &Path) -> Result<(), String> {
        KernelDir {
            dir,
            rustc_version: RUSTC,
        }
        .check()
    }

    const GOOD: &[(&str, &str)] = &[
        (".config", "CONFIG_MODULES=y\nCONFIG_RUST=y\n"),
        (
            "include/config/auto.conf",
            "CONFIG_RUSTC_VERSION_TEXT=\"rustc 1.95.0 (59807616e 2026-04-14)\"\n",
        ),
        ("rust/libkernel.rmeta", ""),
        ("Module.symvers", ""),
    ];

    #[test]
    fn a_complete_directory_passes() {
        assert_eq!(check(fake("good", GOOD).path()), Ok(()));
    }

    #[test]
    fn missing_directory() {
        let err = check(Path::new("/nonexistent/kernel-core")).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn unconfigured() {
        let err = check(fake("unconfigured", &[]).path()).unwrap_err();
        assert!(err.contains("no .config"), "{err}");
    }

    #[test]
    fn no_rust_support() {
        let err =
            check(fake("norust", &[(".config", "# CONFIG_RUST is not set\n")]).path()).unwrap_err();
        assert!(
            err.contains("CONFIG_RUST is not set") && err.contains("rustavailable"),
            "{err}"
        );
    }

    #[test]
    fn wrong_rustc() {
        let mut files = GOOD.to_vec();
        files[1] = (
            "include/config/auto.conf",
            "CONFIG_RUSTC_VERSION_TEXT=\"rustc 1.85.0 (4d91de4e4 2025-02-17)\"\n",
        );
        let err = check(fake("rustc", &files).path()).unwrap_err();
        assert!(
            err.contains("rustc 1.85.0") && err.contains("exact compiler"),
            "{err}"
        );
    }

    #[test]
    fn kernel_not_built() {
        let files: Vec<_> = GOOD
            .iter()
            .copied()
            .filter(|(p, _)| !p.contains("libkernel"))
            .collect();
        let err = check(fake("unbuilt", &files).path()).unwrap_err();
        assert!(err.contains("libkernel.rmeta"), "{err}");
    }

    #[test]
    fn no_module_symvers() {
        let files: Vec<_> = GOOD
            .iter()
            .copied()
            .filter(|(p, _)| *p != "Module.symvers")
            .collect();
        let err = check(fake("symvers", &files).path()).unwrap_err();
        assert!(
            err.contains("Module.symvers") && err.contains("modules"),
            "{err}"
        );
    }

    #[test]
    fn missing_bindgen() {
        let err = check_bindgen(Path::new("/nonexistent/bindgen")).unwrap_err();
        assert!(err.contains("cargo install --locked bindgen-cli"), "{err}");
    }

    #[test]
    fn bindgen_without_libclang() {
        // A stand-in bindgen that fails the way bindgen-cli does when libclang is missing.
        let dir = fake("bindgen", &[]);
        let script = dir.path().join("bindgen");
        fs::write(&script, "#!/bin/sh\necho 'Unable to find libclang: couldnt find any valid shared libraries' >&2\nexit 101\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        let err = check_bindgen(&script).unwrap_err();
        assert!(err.contains("libclang-19-dev"), "{err}");
    }
}
