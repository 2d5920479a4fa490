// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The preflight of a Rust module build against a distribution kernel's headers, on the
//! machine that builds it: whether the kernel has Rust, its Rust metadata (Debian's headers
//! carry none: the overlay package, [`super::overlay`]), the exact rustc and bindgen it was
//! built with, proc macros this machine can run, `target.json` where the architecture uses it,
//! and an overlay made for these very headers. Each item that is missing says how to get it.
//!
//! One implementation, [`SCRIPT`] (`preflight.sh`), a POSIX shell script: the DKMS packages
//! that `cargo kernel-core package --dkms` writes ship it and run it before every build, so a
//! user's failed build says what to install instead of printing a rustc error (E0463 without
//! metadata, E0514 with another build of the compiler); `cargo kernel-core doctor` runs the
//! same script here ([`run`]) and reads its lines ([`parse`]). The kernel's own files decide:
//! its `.config`, the version rustc recorded in its metadata, its arch Makefile.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::files;
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// The preflight script (`kernel-core-preflight KERNELRELEASE [KERNEL_BUILD_DIR]`).
pub const SCRIPT: &str = include_str!("preflight.sh");

/// Its name where it is installed (a DKMS package's source directory).
pub const SCRIPT_NAME: &str = "kernel-core-preflight";

/// What every report's items are, in order.
pub const ITEMS: &[&str] = &[
    "headers",
    "CONFIG_RUST",
    "rustc",
    "Rust metadata",
    "proc macros",
    "target.json",
    "bindgen",
    "overlay",
];

/// One item of the preflight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its name ([`ITEMS`]).
    pub name: String,
    /// Whether it is ok.
    pub ok: bool,
    /// What was found; for a missing item, what is wrong and its fix.
    pub detail: String,
}

/// What the preflight said.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Its items, in the script's order.
    pub items: Vec<Item>,
    /// Its whole output.
    pub text: String,
    /// Whether every item is ok (the script's exit status said so too).
    pub passed: bool,
}

impl Outcome {
    /// The missing items.
    pub fn missing(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| !i.ok)
    }
}

/// Reads the items of the script's output: `  ok       ITEM: detail` and
/// `  missing  ITEM: detail` lines.
pub fn parse(output: &str) -> Vec<Item> {
    output
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("  ")?;
            let (ok, rest) = match rest.split_once(' ') {
                Some(("ok", rest)) => (true, rest),
                Some(("missing", rest)) => (false, rest),
                _ => return None,
            };
            let (name, detail) = rest.trim_start().split_once(": ")?;
            Some(Item {
                name: name.to_string(),
                ok,
                detail: detail.to_string(),
            })
        })
        .collect()
}

/// Runs the preflight of `release` on this machine, with its headers in `kdir` (default
/// `/lib/modules/<release>/build`) and the environment `env` added (`RUSTC`, `BINDGEN`).
pub fn run(release: &str, kdir: Option<&Path>, env: &[(&str, OsString)]) -> Result<Outcome> {
    let scratch = files::scratch_dir("kernel-core-preflight-")?;
    let script = scratch.path().join(SCRIPT_NAME);
    files::write_atomic(&script, SCRIPT, Some(0o755))?;
    let mut cmd = Command::new("sh");
    cmd.arg(&script).arg(release);
    if let Some(kdir) = kdir {
        cmd.arg(kdir);
    }
    for (name, value) in env {
        cmd.env(name, value);
    }
    let out = cmd.output().doing("running the preflight script with sh")?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let items = parse(&text);
    if out.status.code() == Some(2) || items.len() != ITEMS.len() {
        anyhow::bail!(
            "the preflight script ({}) ended with {} and {} item(s) of {}:\n{text}{}",
            script.display(),
            out.status,
            items.len(),
            ITEMS.len(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let passed = out.status.success();
    if passed != items.iter().all(|i| i.ok) {
        anyhow::bail!(
            "the preflight script's exit status ({}) disagrees with its items:\n{text}",
            out.status
        );
    }
    Ok(Outcome {
        items,
        text,
        passed,
    })
}

/// The record the metadata overlay keeps in the headers (`rust/metadata-overlay`, read by the
/// script's `overlay` item): the package, the headers' version it was built for, the rustc that
/// built it, and the SHA256 of the headers' `.config` and `Module.symvers`.
pub fn overlay_record(
    package: &str,
    headers_version: &str,
    rustc: &str,
    headers: &Path,
) -> Result<String> {
    let config = crate::infra::hash::sha256(&headers.join(".config"))?;
    let symvers = crate::infra::hash::sha256(&headers.join("Module.symvers"))?;
    Ok(format!(
        "# Written by cargo kernel-core: what this Rust metadata was built for (read by kernel-core-preflight).\n\
         package {package}\nheaders-version {headers_version}\nrustc {rustc}\n\
         config-sha256 {config}\nsymvers-sha256 {symvers}\n"
    ))
}

/// Where the overlay record lives, relative to the headers.
pub const OVERLAY_RECORD: &str = "rust/metadata-overlay";

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::PathBuf;

    const RUSTC: &str = "rustc 1.85.1 (4eb161250 2025-03-15) (built from a source tarball)";
    const KREL: &str = "7.3.4+deb13-amd64";

    /// An `.rmeta` header as rustc writes it: `rust`, three zeros, the format version, eight
    /// bytes of the root's position, then the version string, its length first.
    fn rmeta(version: &str) -> Vec<u8> {
        let mut bytes = b"rust\0\0\0\x09".to_vec();
        bytes.extend([0x96, 0x51, 0x16, 0x03, 0, 0, 0, 0]);
        bytes.push(version.len() as u8);
        bytes.extend(version.as_bytes());
        bytes.extend([0xc1, 0, 0x0c]);
        bytes
    }

    /// The first bytes of a little-endian 64-bit ELF shared object for `machine`.
    fn elf(machine: u16) -> Vec<u8> {
        let mut bytes = vec![0u8; 64];
        bytes[..4].copy_from_slice(b"\x7fELF");
        bytes[4] = 2;
        bytes[5] = 1;
        bytes[18..20].copy_from_slice(&machine.to_le_bytes());
        bytes
    }

    /// This machine's ELF number, as the script names machines.
    fn host_machine() -> u16 {
        match std::env::consts::ARCH {
            "aarch64" => 183,
            "riscv64" => 243,
            _ => 62,
        }
    }

    /// A machine with the headers, metadata, overlay record, rustc and bindgen of a stock
    /// kernel, every item ok; `kdir` the headers, `tools` the compilers' directory.
    struct Fake {
        _dir: tempfile::TempDir,
        kdir: PathBuf,
        tools: PathBuf,
    }

    impl Fake {
        fn new() -> Self {
            let dir = tempfile::Builder::new()
                .prefix("kernel-core-preflight-")
                .tempdir()
                .unwrap();
            let kdir = dir.path().join("linux-headers");
            let tools = dir.path().join("bin");
            let fake = Fake {
                kdir,
                tools,
                _dir: dir,
            };
            fake.write(
                ".config",
                format!(
                    "CONFIG_RUSTC_VERSION=108501\nCONFIG_RUST=y\nCONFIG_RUSTC_VERSION_TEXT=\"{RUSTC}\"\nCONFIG_BINDGEN_VERSION_TEXT=\"bindgen 0.71.1\"\n"
                ),
            );
            fake.write("Module.symvers", "0x0\tfoo\tvmlinux\tEXPORT_SYMBOL_GPL\t\n");
            fake.write("rust/libcore.rmeta", rmeta(RUSTC));
            fake.write("rust/libkernel.rmeta", rmeta(RUSTC));
            fake.write("rust/libmacros.so", elf(host_machine()));
            fake.write(
                "arch/x86/Makefile",
                "KBUILD_RUSTFLAGS += --target=$(objtree)/scripts/target.json\n",
            );
            fake.write("scripts/target.json", "{}\n");
            fake.record();
            fake.tool("rustc", RUSTC);
            fake.tool("bindgen", "bindgen 0.71.1");
            fake
        }

        fn write(&self, file: &str, text: impl AsRef<[u8]>) {
            let path = self.kdir.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }

        fn record(&self) {
            let text = overlay_record(
                "linux-rust-metadata-x",
                "7.3.4-1~bpo13+1",
                RUSTC,
                &self.kdir,
            )
            .unwrap();
            self.write(OVERLAY_RECORD, text);
        }

        /// A tool in `tools` whose `--version` prints `version`.
        fn tool(&self, name: &str, version: &str) {
            fs::create_dir_all(&self.tools).unwrap();
            let path = self.tools.join(name);
            fs::write(&path, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        }

        fn run(&self) -> Outcome {
            run(
                KREL,
                Some(&self.kdir),
                &[
                    ("RUSTC", self.tools.join("rustc").into()),
                    ("BINDGEN", self.tools.join("bindgen").into()),
                ],
            )
            .unwrap()
        }

        /// The run's one missing item: its name and detail.
        fn only_missing(&self) -> (String, String) {
            let outcome = self.run();
            let missing: Vec<&Item> = outcome.missing().collect();
            assert!(!outcome.passed, "{}", outcome.text);
            assert_eq!(missing.len(), 1, "{}", outcome.text);
            (missing[0].name.clone(), missing[0].detail.clone())
        }
    }

    #[test]
    fn every_item_of_a_complete_machine_is_ok() {
        let outcome = Fake::new().run();
        assert!(outcome.passed, "{}", outcome.text);
        let names: Vec<&str> = outcome.items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ITEMS);
        assert!(
            outcome
                .text
                .ends_with("kernel-core preflight: every item ok\n"),
            "{}",
            outcome.text
        );
    }

    #[test]
    fn no_headers_and_no_rust_are_said_first() {
        let fake = Fake::new();
        let outcome = run(KREL, Some(&fake.kdir.join("nothing")), &[]).unwrap();
        assert_eq!(outcome.missing().count(), ITEMS.len(), "{}", outcome.text);
        assert!(outcome.items[0]
            .detail
            .starts_with("no kernel headers for 7.3.4+deb13-amd64"));
        fake.write(
            ".config",
            "CONFIG_RUSTC_VERSION=0\n# CONFIG_RUST is not set\n",
        );
        let outcome = fake.run();
        assert!(outcome.items[0].ok);
        assert_eq!(outcome.items[1].name, "CONFIG_RUST");
        assert!(
            outcome.items[1].detail.contains(
                "was built without Rust (CONFIG_RUST is not set, CONFIG_RUSTC_VERSION=0)"
            ),
            "{}",
            outcome.text
        );
    }

    #[test]
    fn another_rustc_is_named_with_the_kernel_s() {
        let fake = Fake::new();
        fake.tool("rustc", "rustc 1.85.1 (4eb161250 2025-03-15)");
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "rustc");
        assert!(detail.contains("is `rustc 1.85.1 (4eb161250 2025-03-15)`, but the kernel was built with `rustc 1.85.1 (4eb161250 2025-03-15) (built from a source tarball)`"), "{detail}");
        assert!(detail.contains("E0514"), "{detail}");
        fs::remove_file(fake.tools.join("rustc")).unwrap();
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "rustc");
        assert!(detail.starts_with("no "), "{detail}");
    }

    #[test]
    fn missing_metadata_names_the_overlay_package() {
        let fake = Fake::new();
        fs::remove_dir_all(fake.kdir.join("rust")).unwrap();
        let outcome = fake.run();
        let missing: Vec<&str> = outcome.missing().map(|i| i.name.as_str()).collect();
        assert_eq!(
            missing,
            ["Rust metadata", "proc macros", "overlay"],
            "{}",
            outcome.text
        );
        let detail = &outcome.items[3].detail;
        assert!(
            detail.contains("lacks rust/libcore.rmeta rust/libkernel.rmeta rust/libmacros.so")
                && detail.contains("install linux-rust-metadata-7.3.4+deb13-amd64"),
            "{detail}"
        );
    }

    #[test]
    fn metadata_of_another_rustc_is_refused() {
        let fake = Fake::new();
        fake.write(
            "rust/libcore.rmeta",
            rmeta("rustc 1.85.1 (4eb161250 2025-03-15)"),
        );
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "Rust metadata");
        assert!(
            detail
                .contains("was built by `rustc 1.85.1 (4eb161250 2025-03-15)`, but the kernel by"),
            "{detail}"
        );
    }

    #[test]
    fn proc_macros_of_another_machine_are_refused() {
        let fake = Fake::new();
        let other = if host_machine() == 183 { 62 } else { 183 };
        fake.write("rust/libmacros.so", elf(other));
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "proc macros");
        assert!(
            detail.contains("libmacros.so (aarch64)") || detail.contains("libmacros.so (x86_64)"),
            "{detail}"
        );
    }

    #[test]
    fn target_json_is_needed_where_the_arch_makefile_says() {
        let fake = Fake::new();
        fs::remove_file(fake.kdir.join("scripts/target.json")).unwrap();
        let (name, _) = fake.only_missing();
        assert_eq!(name, "target.json");
        // Debian's headers: the arch Makefiles are in the common headers their Makefile
        // includes.
        let common = fake.kdir.with_file_name("linux-headers-common");
        fs::create_dir_all(&common).unwrap();
        fs::rename(fake.kdir.join("arch"), common.join("arch")).unwrap();
        fake.write(
            "Makefile",
            format!("include {}/Makefile\n", common.display()),
        );
        let (name, _) = fake.only_missing();
        assert_eq!(name, "target.json");
        fs::remove_file(fake.kdir.join("Makefile")).unwrap();
        assert!(
            fake.run().passed,
            "an architecture whose Makefile names no target.json needs none"
        );
    }

    #[test]
    fn another_bindgen_is_named() {
        let fake = Fake::new();
        fake.tool("bindgen", "bindgen 0.72.1");
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "bindgen");
        assert!(
            detail.contains(
                "is `bindgen 0.72.1`, but the kernel's Rust was built with `bindgen 0.71.1`"
            ),
            "{detail}"
        );
    }

    #[test]
    fn a_stale_overlay_is_refused() {
        let fake = Fake::new();
        // New headers of the same release (a new upload): another Module.symvers.
        fake.write("Module.symvers", "0x0\tbar\tvmlinux\tEXPORT_SYMBOL_GPL\t\n");
        let (name, detail) = fake.only_missing();
        assert_eq!(name, "overlay");
        assert!(
            detail.starts_with("stale: linux-rust-metadata-x was built for linux-headers-7.3.4+deb13-amd64 7.3.4-1~bpo13+1, whose Module.symvers differ"),
            "{detail}"
        );
        fake.record();
        assert!(fake.run().passed);
    }

    #[test]
    fn misuse_is_refused() {
        let e = run("", None, &[]).unwrap_err().to_string();
        assert!(e.contains("usage:"), "{e}");
    }

    #[test]
    fn lines_are_read_as_items() {
        let items = parse("kernel-core preflight for x\n  ok       headers: /k (v)\n  missing  Rust metadata: no: Fix: x\nnot an item\n");
        assert_eq!(
            items,
            [
                Item {
                    name: "headers".into(),
                    ok: true,
                    detail: "/k (v)".into()
                },
                Item {
                    name: "Rust metadata".into(),
                    ok: false,
                    detail: "no: Fix: x".into()
                }
            ]
        );
    }
}
