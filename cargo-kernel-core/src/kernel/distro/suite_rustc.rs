// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The suite's own rustc: the very compiler Debian built the kernel with, unpacked from the
//! suite's packages into the cache and run by that suite's own dynamic loader, with that
//! suite's libraries. No root, no chroot, no system package installed.
//!
//! Why it is needed beside rustup's rustc with `RUSTC_FORCE_RUSTC_VERSION`: since rustc 1.88,
//! rustc-internal symbols (`#[rustc_std_internal_symbol]`, such as the kernel's panic handler
//! `rust_begin_unwind`) are mangled under a pseudo-crate `__rustc` whose hash rustc takes from
//! the version it was built with, ignoring `RUSTC_FORCE_RUSTC_VERSION` on purpose. rustup's
//! build of the same release has another built-in version string than Debian's (`... (built
//! from a source tarball)`), so only Debian's own binary names that symbol as Debian's kernel
//! does (`_RNvCsjJ6pmSBbkgH_7___rustc17rust_begin_unwind` on forky's 7.2.12).
//!
//! How it runs: `ld-linux-x86-64.so.2 --library-path <root>/usr/lib/x86_64-linux-gnu <root>/usr/bin/rustc`.
//! rustc finds its sysroot (`<root>/usr`, with the suite's `rust-src` and std) from where its
//! driver library is; the proc-macro libraries it links with the host's `cc` load into it.

use crate::infra::command::output;
use crate::infra::error::Result;
use crate::infra::lock::Lock;
use crate::infra::progress;
use crate::infra::{cache, files};
use crate::kernel::apt::{self, Apt, Stanza};
use anyhow::bail;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages a rustc needs to run and build kernel crates: the compiler, its standard
/// library (for proc macros) and the library sources (for `core`), with their libraries.
const ROOTS: &[&str] = &["rustc", "rust-src"];

/// Whether a dependency is followed: run-time libraries only, not the C toolchain rustc also
/// names (`gcc`, `binutils`, `libc-dev`: the host's serve).
pub fn follows(package: &str) -> bool {
    let library = package.starts_with("lib") || package.starts_with("zlib");
    let dev = package.ends_with("-dev") && package != "libstd-rust-dev";
    library && !dev && package != "libc-gconv-modules-extra"
}

/// The rustc package's version if it is `release` (`1.97.1+dfsg1-1` for `1.97.1`).
pub fn is_release(version: &str, release: &str) -> bool {
    let version = version.split_once(':').map_or(version, |(_, v)| v);
    version
        .strip_prefix(release)
        .is_some_and(|rest| rest.starts_with('+') || rest.starts_with('-') || rest.starts_with('~'))
}

/// The suites whose rustc may be a stock kernel's, in order: the kernel's own suite, then, for
/// a backports suite, the suite it extends (trixie-backports' 7.3.4 was built with trixie's
/// rustc 1.85.1; the backports suite itself carries a newer one).
pub fn suites(suite: &str) -> Vec<String> {
    let mut suites = vec![suite.to_string()];
    if let Some(base) = suite.strip_suffix("-backports") {
        suites.push(base.to_string());
    }
    suites
}

/// The rustc of `suites` (each served by `archive`) of `release` whose `--version` is exactly
/// `rustc <version_text>`, run on this machine (an amd64 one: the wrapper runs the amd64
/// binary with its own loader), unpacked into the cache once: the path of a wrapper that runs
/// it, and the suite it came from.
pub fn find_in(
    suites: &[String],
    archive: crate::model::arch::Archive,
    release: &str,
    version_text: &str,
) -> Result<Option<(PathBuf, String)>> {
    if std::env::consts::ARCH != "x86_64" {
        return Ok(None);
    }
    for suite in suites {
        let apt = Apt::new(suite, archive, "amd64");
        if let Some(rustc) = find(&apt, release, version_text)? {
            return Ok(Some((rustc, suite.clone())));
        }
    }
    Ok(None)
}

/// The suite's rustc, if the suite has one of `release` (unpacked into the cache once) whose
/// `--version` is exactly `rustc <version_text>`: the path of a wrapper that runs it.
pub fn find(apt: &Apt, release: &str, version_text: &str) -> Result<Option<PathBuf>> {
    let Some(rustc) = apt.show("rustc")? else {
        return Ok(None);
    };
    let version = rustc.get("Version").cloned().unwrap_or_default();
    if !is_release(&version, release) {
        return Ok(None);
    }
    let dir = cache::dir().join("distro/rustc").join(format!(
        "{}-{}",
        apt.suite,
        version.replace([':', '/'], "_")
    ));
    let wrapper = dir.join("bin/rustc");
    if !wrapper.exists() {
        let lock = PathBuf::from(format!("{}.lock", dir.display()));
        let _lock = Lock::exclusive(&lock, "an unpacked rustc")?;
        if !wrapper.exists() {
            unpack(apt, &rustc, &dir)?;
        }
    }
    let said = output(Command::new(&wrapper).arg("--version")).unwrap_or_default();
    if said.trim() != format!("rustc {version_text}") {
        bail!(
            "Debian {}'s rustc {version} ({}) says `{}`, not `rustc {version_text}`",
            apt.suite,
            wrapper.display(),
            said.trim()
        );
    }
    Ok(Some(wrapper))
}

/// The packages [`find`] fetches from a suite to run its rustc: rustc, rust-src and the
/// run-time libraries they depend on ([`follows`]), looked up a level of dependencies at a
/// time with `show` (the stanzas the suite has of the packages named; one that it lacks, a
/// virtual package, is left out). The fetch check resolves the same.
pub fn packages(show: impl Fn(&[String]) -> Result<Vec<Stanza>>) -> Result<Vec<Stanza>> {
    let mut pending: Vec<String> = ROOTS.iter().map(|p| p.to_string()).collect();
    let mut seen = BTreeSet::new();
    let mut stanzas = Vec::new();
    while !pending.is_empty() {
        let level: Vec<String> = std::mem::take(&mut pending)
            .into_iter()
            .filter(|p| seen.insert(p.clone()))
            .collect();
        if level.is_empty() {
            break;
        }
        // A virtual package (no stanza of its own) is provided by one that is followed anyway.
        for stanza in show(&level)? {
            for field in ["Depends", "Pre-Depends"] {
                if let Some(deps) = stanza.get(field) {
                    pending.extend(apt::depends(deps).into_iter().filter(|d| follows(d)));
                }
            }
            stanzas.push(stanza);
        }
    }
    Ok(stanzas)
}

/// Fetches rustc, rust-src and their libraries (each checked against the index) and unpacks
/// them into `dir`, with the wrapper written last.
fn unpack(apt: &Apt, rustc: &Stanza, dir: &Path) -> Result {
    let start = progress::step(&format!(
        "unpacking Debian {}'s own rustc {} and its libraries into {}",
        apt.suite,
        rustc.get("Version").map_or("", String::as_str),
        dir.display()
    ));
    let stanzas = packages(|level| {
        let mut found = Vec::new();
        for package in level {
            found.extend(apt.show(package)?);
        }
        Ok(found)
    })?;
    let debs = cache::dir().join("debs");
    let root = dir.join("root");
    let lib = root.join("usr/lib/x86_64-linux-gnu");
    let loader = lib.join("ld-linux-x86-64.so.2");
    let wrapper_text = format!(
            "#!/bin/sh\n# Written by cargo kernel-core: Debian {}'s rustc {}, run by its own loader and libraries.\n\
             exec {} --library-path {}:{} {} \"$@\"\n",
            apt.suite,
            rustc.get("Version").map_or("", String::as_str),
            loader.display(),
            lib.display(),
            root.join("lib/x86_64-linux-gnu").display(),
            root.join("usr/bin/rustc").display()
        );
    let _ = fs::remove_dir_all(dir);
    files::create_dir_atomic(dir, |aside| {
        for stanza in &stanzas {
            let deb = apt.fetch(stanza, &debs)?;
            apt::unpack(&deb, &aside.join("root"))?;
        }
        files::write_atomic(&aside.join("bin/rustc"), wrapper_text, Some(0o755))
    })?;
    if !loader.exists() {
        return Err(anyhow::anyhow!(
            "{} has no dynamic loader: Debian {}'s libc6 did not unpack where expected",
            dir.display(),
            apt.suite
        ));
    }
    progress::done(&format!("{} packages unpacked", stanzas.len()), start);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_run_time_libraries_are_followed() {
        for yes in [
            "libstd-rust-1.97",
            "libstd-rust-dev",
            "libllvm22",
            "libc6",
            "zlib1g",
            "libxml2-16",
        ] {
            assert!(follows(yes), "{yes}");
        }
        for no in [
            "gcc",
            "binutils",
            "libc-dev",
            "libc6-dev",
            "libc-gconv-modules-extra",
            "gcc-16-base",
        ] {
            assert!(!follows(no), "{no}");
        }
    }

    #[test]
    fn a_backports_kernel_s_rustc_may_be_its_base_suite_s() {
        assert_eq!(suites("trixie-backports"), ["trixie-backports", "trixie"]);
        assert_eq!(suites("forky"), ["forky"]);
    }

    #[test]
    fn the_release_of_a_package_version() {
        assert!(is_release("1.97.1+dfsg1-1", "1.97.1"));
        assert!(is_release("1.97.1+dfsg1-1~bpo13+1", "1.97.1"));
        assert!(!is_release("1.97.10+dfsg1-1", "1.97.1"));
        assert!(!is_release("1.85.0+dfsg3-1", "1.85.1"));
    }
}
