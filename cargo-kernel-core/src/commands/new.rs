// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core new DIR`: a driver skeleton in the recommended layout, which builds and
//! passes as generated.
//!
//! The layout: the driver's library in cargo's usual form (`src/lib.rs` and modules under it,
//! here three files with a suite each, one of them the driver's state behind a lock in an
//! `Arc`, tested on threads on the host), one crate that `cargo test` builds on the host and
//! Kbuild builds into the module (`kernel-core-lib`), so that `crate::` paths, `mod`
//! declarations and its `#[kunit_tests]` suites mean the same in both worlds; the module glue
//! in `<name>_main.rs`, a second crate that uses the library; a `Kbuild` that includes
//! kernel-core's `kernel-core.mk`; rust-analyzer set-up; a CI workflow with a job per kernel
//! and architecture.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};

/// The skeleton's files: `(path, template)`. `{{name}}` is the driver's name,
/// `{{kernel_core}}` its kernel-core dependency, `{{pin_init}}` its `pin_init` one,
/// `{{runner_version}}` this tool's version.
const FILES: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../templates/Cargo.toml.in")),
    ("Kbuild", include_str!("../../templates/Kbuild.in")),
    (
        "{{name}}_main.rs",
        include_str!("../../templates/main.rs.in"),
    ),
    ("src/lib.rs", include_str!("../../templates/src/lib.rs.in")),
    (
        "src/queue.rs",
        include_str!("../../templates/src/queue.rs.in"),
    ),
    (
        "src/ring.rs",
        include_str!("../../templates/src/ring.rs.in"),
    ),
    (
        "src/transfer.rs",
        include_str!("../../templates/src/transfer.rs.in"),
    ),
    ("README.md", include_str!("../../templates/README.md.in")),
    (".gitignore", include_str!("../../templates/gitignore.in")),
    (
        ".vscode/settings.json",
        include_str!("../../templates/vscode-settings.json.in"),
    ),
    (
        ".github/workflows/kernel-core.yml",
        include_str!("../../templates/github/kernel-core.yml.in"),
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

/// Where the skeleton's kernel-core comes from, and so how its CI installs this runner.
#[derive(Debug, PartialEq, Eq)]
enum Source {
    /// crates.io, this version.
    Version(String),
    /// A kernel-core package on this machine (a checkout's `kernel-core/`, a vendor directory).
    Path(PathBuf),
    /// A git repository, at a revision if given.
    Git { url: String, rev: Option<String> },
}

/// The `kernel-core/` of the checkout this runner was built from, if it was (`cargo install
/// --path cargo-kernel-core`): a crates.io install has no such sibling.
fn checkout() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()?
        .join("kernel-core");
    dir.join("src/kernel_core.rs")
        .is_file()
        .then(|| dir.canonicalize().unwrap_or(dir))
}

impl Source {
    /// `--kernel-core`: a version, a path, or `git+URL[#REV]`; by default this runner's own
    /// source: its checkout, or its version on crates.io.
    fn parse(spec: Option<&str>) -> Result<Self> {
        let version = env!("CARGO_PKG_VERSION");
        Ok(match spec {
            None => match checkout() {
                Some(dir) => {
                    crate::note!(
                        "    kernel-core from the checkout this runner was built from, {} (pass --kernel-core {version} for crates.io's)",
                        dir.display()
                    );
                    Source::Path(dir)
                }
                None => Source::Version(version.to_string()),
            },
            Some(spec) if spec.starts_with("git+") => {
                let rest = &spec["git+".len()..];
                let (url, rev) = match rest.split_once('#') {
                    Some((url, rev)) => (url, Some(rev.to_string())),
                    None => (rest, None),
                };
                if url.is_empty() {
                    bail!("--kernel-core {spec}: no repository after git+");
                }
                Source::Git {
                    url: url.to_string(),
                    rev,
                }
            }
            Some(spec) if spec.contains('/') || Path::new(spec).exists() => {
                let path = Path::new(spec);
                let path = path.canonicalize().at(path)?;
                if !path.join("src/kernel_core.rs").is_file() {
                    bail!(
                        "{} is not a kernel-core package (no src/kernel_core.rs): give the kernel-core/ directory of a checkout, a version, or git+URL[#REV]",
                        path.display()
                    );
                }
                Source::Path(path)
            }
            Some(spec) => Source::Version(spec.to_string()),
        })
    }

    /// The dependency line's value in `Cargo.toml`.
    fn dependency(&self) -> String {
        let version = env!("CARGO_PKG_VERSION");
        match self {
            Source::Version(v) => format!("\"{v}\""),
            Source::Path(path) => format!(
                "{{ version = \"{version}\", path = {:?} }}",
                path.display().to_string()
            ),
            Source::Git { url, rev: None } => format!("{{ git = {url:?} }}"),
            Source::Git {
                url,
                rev: Some(rev),
            } => format!("{{ git = {url:?}, rev = {rev:?} }}"),
        }
    }

    /// The same dependency with kernel-core's `std` feature: the host tests' (a
    /// dev-dependency), whose features cargo adds to the library's for `cargo test` alone.
    fn dependency_with_std(&self) -> String {
        let plain = self.dependency();
        match plain.strip_suffix(" }") {
            Some(table) => format!("{table}, features = [\"std\"] }}"),
            None => format!("{{ version = {plain}, features = [\"std\"] }}"),
        }
    }

    /// The `pin_init` dependency's value: kernel-core's `kernel-core-pin-init` package under the
    /// kernel's crate name, from kernel-core's own source, so that the two resolve to one
    /// package. From a path: the pin-init package beside kernel-core (a checkout's
    /// `pin-init/`, a vendor directory's `kernel-core-pin-init[-VERSION]/`), or by version if
    /// there is none, as the kernel-core package itself then names it.
    fn pin_init_dependency(&self) -> String {
        let version = env!("CARGO_PKG_VERSION");
        let package = "package = \"kernel-core-pin-init\"";
        match self {
            Source::Version(v) => format!("{{ {package}, version = \"{v}\" }}"),
            Source::Path(path) => match pin_init_beside(path) {
                Some(dir) => format!(
                    "{{ {package}, version = \"{version}\", path = {:?} }}",
                    dir.display().to_string()
                ),
                None => format!("{{ {package}, version = \"{version}\" }}"),
            },
            Source::Git { url, rev: None } => format!("{{ {package}, git = {url:?} }}"),
            Source::Git {
                url,
                rev: Some(rev),
            } => format!("{{ {package}, git = {url:?}, rev = {rev:?} }}"),
        }
    }

    /// The workflow's lines that install this runner from the same source, and a note when
    /// CI cannot.
    fn install_runner(&self) -> (String, Option<String>) {
        let indent = "          ";
        match self {
            Source::Version(v) => (
                format!("{indent}\"$HOME/.cargo/bin/cargo\" install --locked cargo-kernel-core --version {v}"),
                None,
            ),
            Source::Git { url, rev } => (
                format!(
                    "{indent}\"$HOME/.cargo/bin/cargo\" install --locked --git {url}{} cargo-kernel-core",
                    rev.as_ref().map(|r| format!(" --rev {r}")).unwrap_or_default()
                ),
                None,
            ),
            Source::Path(path) => {
                let why = format!(
                    "kernel-core comes from a path on this machine ({}), which CI does not have: its kernel jobs stop until Cargo.toml's kernel-core line names a version or `git = ...`",
                    path.display()
                );
                (
                    format!("{indent}echo \"::error::{}\"\n{indent}exit 1", why.replace('"', "'")),
                    Some(why),
                )
            }
        }
    }
}

/// The `kernel-core-pin-init` package beside the kernel-core package in `kernel_core`: a
/// checkout's `pin-init/`, or a vendor directory's `kernel-core-pin-init/` or
/// `kernel-core-pin-init-VERSION/`.
fn pin_init_beside(kernel_core: &Path) -> Option<PathBuf> {
    let parent = kernel_core.parent()?;
    let versioned = format!("kernel-core-pin-init-{}", env!("CARGO_PKG_VERSION"));
    ["pin-init", "kernel-core-pin-init", versioned.as_str()]
        .iter()
        .map(|name| parent.join(name))
        .find(|dir| dir.join("src/kernel_core_pin_init.rs").is_file())
}

/// The workflow's matrix: every cell of the required matrix, one `include` entry each.
fn workflow_matrix() -> String {
    crate::model::arch::required()
        .iter()
        .map(|(k, a)| {
            format!(
                "          - kernel: \"{}\"\n            arch: {}\n",
                k.name, a.name
            )
        })
        .collect::<String>()
        .trim_end()
        .to_string()
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
    let source = Source::parse(kernel_core)?;
    let dependency = source.dependency();
    let (install_runner, ci_note) = source.install_runner();
    let matrix = workflow_matrix();
    for (path, template) in FILES {
        let path = dir.join(path.replace("{{name}}", &name));
        let text = template
            .replace("{{name}}", &name)
            .replace("{{kernel_core}}", &dependency)
            .replace("{{kernel_core_std}}", &source.dependency_with_std())
            .replace("{{pin_init}}", &source.pin_init_dependency())
            .replace("{{install_runner}}", &install_runner)
            .replace("{{matrix}}", &matrix)
            .replace("{{runner_version}}", env!("CARGO_PKG_VERSION"));
        let parent = path.parent().expect("a file in the driver's directory");
        fs::create_dir_all(parent).at(parent)?;
        fs::write(&path, text).at(&path)?;
    }
    crate::note!(
        "    made {name} in {}: `cargo test` runs its host suites, `cargo kernel-core test` its KUnit suites in the fast cell (UML), `--kernel all --arch all` on the required matrix",
        dir.display()
    );
    if let Some(note) = ci_note {
        crate::note!("    note: its CI workflow cannot run as it is: {note}");
    }
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
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().to_path_buf();
        let dir = root.join("mydrv");
        create(&dir, Some("0.1.0")).unwrap();
        let kbuild = fs::read_to_string(dir.join("Kbuild")).unwrap();
        assert!(kbuild.contains("kernel-core-lib := mydrv"));
        assert!(kbuild.contains("kernel-core-users := mydrv_main"));
        assert!(kbuild.contains("mydrv-y := mydrv_main.o $(kernel-core-objs)"));
        assert!(dir.join("mydrv_main.rs").is_file());
        assert!(dir.join("src/lib.rs").is_file() && dir.join("src/ring.rs").is_file());
        let queue = fs::read_to_string(dir.join("src/queue.rs")).unwrap();
        assert!(queue.contains("new_spinlock!(state, \"mydrv_queue\")"));
        assert!(queue.contains("#[kunit_tests(mydrv_queue)]"));
        let cargo = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(cargo.contains("kernel-core = \"0.1.0\""));
        assert!(cargo
            .contains("pin_init = { package = \"kernel-core-pin-init\", version = \"0.1.0\" }"));
        assert!(cargo.contains("[dev-dependencies]\n# The host tests' kernel-core"));
        assert!(cargo.contains("kernel-core = { version = \"0.1.0\", features = [\"std\"] }"));
        let workflow = fs::read_to_string(dir.join(".github/workflows/kernel-core.yml")).unwrap();
        assert!(workflow.contains("install --locked cargo-kernel-core --version 0.1.0"));
        for file in FILES {
            let text = fs::read_to_string(dir.join(file.0.replace("{{name}}", "mydrv"))).unwrap();
            // GitHub's own `${{ ... }}` expressions stay; no placeholder of ours does.
            assert!(
                !text.replace("${{", "").contains("{{"),
                "{}: {text}",
                file.0
            );
        }
        assert!(create(&dir, None).is_err(), "not empty");
    }
}

#[cfg(test)]
mod source_tests {
    use super::*;

    #[test]
    fn sources_and_how_ci_installs_the_runner() {
        let git = Source::parse(Some("git+https://example.org/kc.git#abc123")).unwrap();
        assert_eq!(
            git.dependency(),
            "{ git = \"https://example.org/kc.git\", rev = \"abc123\" }"
        );
        assert_eq!(
            git.dependency_with_std(),
            "{ git = \"https://example.org/kc.git\", rev = \"abc123\", features = [\"std\"] }"
        );
        let (install, note) = git.install_runner();
        assert!(install.contains("--git https://example.org/kc.git --rev abc123 cargo-kernel-core"));
        assert!(note.is_none());
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernel-core");
        let path = Source::parse(Some(checkout.to_str().unwrap())).unwrap();
        let (install, note) = path.install_runner();
        assert!(install.contains("exit 1"), "{install}");
        assert!(note.unwrap().contains("a path on this machine"));
        assert_eq!(
            git.pin_init_dependency(),
            "{ package = \"kernel-core-pin-init\", git = \"https://example.org/kc.git\", rev = \"abc123\" }"
        );
        // A checkout's pin-init sits beside its kernel-core.
        let pin_init = path.pin_init_dependency();
        let beside = checkout.join("../pin-init").canonicalize().unwrap();
        assert!(
            pin_init.contains(&format!("path = {:?}", beside.display().to_string())),
            "{pin_init}"
        );
        assert!(Source::parse(Some("git+")).is_err());
        assert!(Source::parse(Some("/nonexistent/kc")).is_err());
        // Built from this checkout: the default is its kernel-core, which resolves.
        assert!(matches!(Source::parse(None).unwrap(), Source::Path(_)));
    }

    #[test]
    fn the_workflow_s_matrix_is_the_required_one() {
        let matrix = workflow_matrix();
        for (kernel, arch) in crate::model::arch::required() {
            assert!(
                matrix.contains(&format!(
                    "- kernel: \"{}\"\n            arch: {}\n",
                    kernel.name, arch.name
                )) || matrix.ends_with(&format!(
                    "- kernel: \"{}\"\n            arch: {}",
                    kernel.name, arch.name
                )),
                "{} {} missing:\n{matrix}",
                kernel.name,
                arch.name
            );
        }
        assert_eq!(
            matrix.matches("- kernel:").count(),
            crate::model::arch::required().len()
        );
    }
}
