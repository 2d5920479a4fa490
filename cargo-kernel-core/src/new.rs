// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core new DIR`: a driver skeleton in the recommended layout, which builds and
//! passes as generated.
//!
//! The layout: the driver's library in cargo's usual form (`src/lib.rs` and modules under it,
//! here two files with a suite each), one crate that `cargo test` builds on the host and
//! Kbuild builds into the module (`kernel-core-lib`), so that `crate::` paths, `mod`
//! declarations and its `#[kunit_tests]` suites mean the same in both worlds; the module glue
//! in `<name>_main.rs`, a second crate that uses the library; a `Kbuild` that includes
//! kernel-core's `kernel-core.mk`; rust-analyzer set-up; a CI workflow with a job per kernel
//! and architecture.

use crate::bail;
use crate::ui::Context as _;
use crate::ui::Result;
use std::fs;
use std::path::Path;

/// The skeleton's files: `(path, template)`. `{{name}}` is the driver's name,
/// `{{kernel_core}}` its kernel-core dependency, `{{runner_version}}` this tool's version.
const FILES: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../templates/Cargo.toml.in")),
    ("Kbuild", include_str!("../templates/Kbuild.in")),
    ("{{name}}_main.rs", include_str!("../templates/main.rs.in")),
    ("src/lib.rs", include_str!("../templates/src/lib.rs.in")),
    ("src/ring.rs", include_str!("../templates/src/ring.rs.in")),
    (
        "src/transfer.rs",
        include_str!("../templates/src/transfer.rs.in"),
    ),
    ("README.md", include_str!("../templates/README.md.in")),
    (".gitignore", include_str!("../templates/gitignore.in")),
    (
        ".vscode/settings.json",
        include_str!("../templates/vscode-settings.json.in"),
    ),
    (
        ".github/workflows/kernel-core.yml",
        include_str!("../templates/github/kernel-core.yml.in"),
    ),
];

/// Whether `name` can name the module, its crates and its KUnit suite: a lowercase Rust
/// identifier that no kernel crate or kernel-core crate uses.
pub fn check_name(name: &str) -> Result {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        bail!(
            "`{name}` cannot name a driver: use lowercase letters, digits and `_`, starting with a letter (it names the module, its crates and its KUnit suite)"
        );
    }
    const TAKEN: &[&str] = &[
        "core",
        "alloc",
        "std",
        "kernel",
        "macros",
        "build_error",
        "ffi",
        "bindings",
        "uapi",
        "pin_init",
        "syn",
        "quote",
        "proc_macro2",
        "compiler_builtins",
        "kernel_core",
        "kernel_core_macros",
        "zerocopy",
        "zerocopy_derive",
    ];
    if TAKEN.contains(&name) {
        bail!("`{name}` is the name of a crate the module is built with: choose another");
    }
    Ok(())
}

/// The dependency line for `kernel_core`: a version, or a path to a kernel-core package.
fn dependency(kernel_core: Option<&str>) -> Result<String> {
    let version = env!("CARGO_PKG_VERSION");
    Ok(match kernel_core {
        None => format!("\"{version}\""),
        Some(spec) if spec.contains('/') || Path::new(spec).exists() => {
            let path = Path::new(spec);
            let path = path.canonicalize().at(path)?;
            if !path.join("src/kernel_core.rs").is_file() {
                bail!(
                    "{} is not a kernel-core package (no src/kernel_core.rs): give the kernel-core/ directory of a checkout, or a version",
                    path.display()
                );
            }
            format!(
                "{{ version = \"{version}\", path = {:?} }}",
                path.display().to_string()
            )
        }
        Some(spec) => format!("\"{spec}\""),
    })
}

/// Writes the skeleton into `dir`, which must not exist or be empty.
pub fn create(dir: &Path, kernel_core: Option<&str>) -> Result {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    check_name(&name)?;
    if fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) {
        bail!("{} exists and is not empty", dir.display());
    }
    let dependency = dependency(kernel_core)?;
    for (path, template) in FILES {
        let path = dir.join(path.replace("{{name}}", &name));
        let text = template
            .replace("{{name}}", &name)
            .replace("{{kernel_core}}", &dependency)
            .replace("{{runner_version}}", env!("CARGO_PKG_VERSION"));
        let parent = path.parent().expect("a file in the driver's directory");
        fs::create_dir_all(parent).at(parent)?;
        fs::write(&path, text).at(&path)?;
    }
    println!(
        "    made {name} in {}: `cargo test` runs its host suites, `cargo kernel-core test` its KUnit suites under QEMU",
        dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_cannot_name_a_driver_are_refused() {
        for name in ["mydrv", "nova2", "a_b"] {
            check_name(name).unwrap();
        }
        for name in [
            "",
            "MyDrv",
            "my-drv",
            "2fast",
            "kernel",
            "kernel_core",
            "core",
            "_x",
        ] {
            assert!(check_name(name).is_err(), "{name}");
        }
    }

    #[test]
    fn the_skeleton_is_written_with_its_name() {
        let root = std::env::temp_dir().join(format!("kc-new-{}", std::process::id()));
        let dir = root.join("mydrv");
        create(&dir, Some("0.1.0")).unwrap();
        let kbuild = fs::read_to_string(dir.join("Kbuild")).unwrap();
        assert!(kbuild.contains("kernel-core-lib := mydrv"));
        assert!(kbuild.contains("kernel-core-users := mydrv_main"));
        assert!(kbuild.contains("mydrv-y := mydrv_main.o $(kernel-core-objs)"));
        assert!(dir.join("mydrv_main.rs").is_file());
        assert!(dir.join("src/lib.rs").is_file() && dir.join("src/ring.rs").is_file());
        let cargo = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(cargo.contains("kernel-core = \"0.1.0\""));
        for file in FILES {
            let text = fs::read_to_string(dir.join(file.0.replace("{{name}}", "mydrv"))).unwrap();
            assert!(!text.contains("{{name}}") && !text.contains("{{kernel_core}}"));
        }
        assert!(create(&dir, None).is_err(), "not empty");
        let _ = fs::remove_dir_all(&root);
    }
}
