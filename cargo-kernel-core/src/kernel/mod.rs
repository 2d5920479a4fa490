// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel layer: every kernel a cell runs, built once into the cache, and what builds
//! need on the machine. This file is its one entry point: each function dispatches to
//! [`upstream`] builds (Debian's source of a kernel of the matrix, configured and built with
//! the matrix's toolchain) or to [`distro`] kernels (Debian's stock kernel, its Rust metadata
//! rebuilt), so that nothing above this layer asks which kind a kernel is.
//!
//! Beside them: [`source`] (kernel sources from Debian), [`toolchain`] (the one toolchain
//! type), [`apt`] (Debian packages through a private apt configuration), [`setup`] (what the
//! machine needs, installed when asked), [`preflight`] (a kernel build directory checked
//! before use) and [`fetch_check`] (every package the matrix fetches, resolved from nothing).

pub mod apt;
pub mod distro;
pub mod fetch_check;
pub mod preflight;
pub mod setup;
pub mod source;
pub mod toolchain;
pub mod upstream;

use crate::infra::error::Result;
use crate::infra::{cache, progress};
use crate::model::arch::{Arch, Kernel};
use crate::model::build::Build;
use std::path::PathBuf;
use std::time::Duration;
use toolchain::Toolchain;

/// The toolchain that builds `kernel`'s modules on `arch`: the matrix's
/// ([`Toolchain::find`]), or for a distribution's kernel the exact one its `.config` names
/// ([`distro::toolchain()`]).
pub fn toolchain_for(kernel: &Kernel, arch: &Arch) -> Result<Toolchain> {
    if kernel.stock.is_some() {
        return distro::toolchain(kernel, arch);
    }
    Toolchain::find(arch)
}

/// The kernel of `kernel` for `arch`, built with `tools` (from [`toolchain_for`]), or the
/// cached build.
pub fn build(kernel: &Kernel, arch: &Arch, tools: &Toolchain) -> Result<Build> {
    // A distribution's kernel: its metadata rebuilt and checked, its own image.
    if kernel.stock.is_some() {
        return distro::build(kernel, arch, tools);
    }
    upstream::build(kernel, arch, tools)
}

/// The kernel builds (and stock kernels' metadata builds) in the cache that finished at
/// `since` or later, in the order they finished: what each is and the seconds it took, as its
/// stamp says.
pub fn builds_since(since: std::time::SystemTime) -> Vec<(String, u64)> {
    builds_in(&cache::dir(), since)
}

/// [`builds_since`] in the cache `cache`.
fn builds_in(cache: &std::path::Path, since: std::time::SystemTime) -> Vec<(String, u64)> {
    let mut builds = upstream::builds_since(cache, since);
    builds.extend(distro::builds_since(cache, since));
    builds.sort_by_key(|(_, _, at)| *at);
    builds
        .into_iter()
        .map(|(what, seconds, _)| (what, seconds))
        .collect()
}

/// Whether the build of `kernel` for `arch` is in the cache (its source too), so that using it
/// costs no kernel build.
pub fn is_cached(kernel: &Kernel, arch: &Arch) -> bool {
    if kernel.stock.is_some() {
        return distro::is_cached(kernel, arch);
    }
    upstream::is_cached(kernel, arch)
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
        State::Cached
    } else if kernel.stock.is_none() && upstream::is_being_built(kernel, arch) {
        State::Building
    } else {
        State::Absent
    }
}

/// Removes the cached builds of `kernel` for `arch` (every key: older configurations and
/// toolchains too); returns what it removed. Sources and packages stay.
pub fn clean(kernel: &Kernel, arch: &Arch) -> Result<Vec<PathBuf>> {
    // A distribution's kernel: its metadata builds, never the builds of the row it shares a
    // source with.
    if kernel.stock.is_some() {
        return distro::clean(kernel, arch);
    }
    upstream::clean(kernel, arch)
}

/// Says, before anything starts, which of `cells` need a kernel built (and a source fetched),
/// and about how long that takes, from the builds already in the cache.
pub fn announce_cold(cells: &[(Kernel, Arch)]) {
    let cold: Vec<&(Kernel, Arch)> = cells.iter().filter(|(k, a)| !is_cached(k, a)).collect();
    if cold.is_empty() {
        return;
    }
    let past = upstream::past_build_seconds();
    let each = if past.is_empty() {
        "5 to 10 minutes on 2 cores".to_string()
    } else {
        let mean = past.iter().sum::<u64>() / past.len() as u64;
        format!(
            "about {} each, as builds on this machine took",
            progress::elapsed(Duration::from_secs(mean))
        )
    };
    crate::note!(
        "==> {} kernel(s) not in the cache ({}): each is built once, {each}",
        cold.len(),
        cache::dir().display()
    );
    for (kernel, arch) in cold {
        let fetch = if source::cached(kernel).ok().flatten().is_none() {
            format!(
                ", after fetching {} from Debian {} (about 170 MB)",
                kernel.package, kernel.suite
            )
        } else {
            String::new()
        };
        crate::note!("    Linux {} for {}{fetch}", kernel.name, arch.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::Path;
    use std::time::{Duration, SystemTime};

    /// Writes a build stamp holding `text` at `dir` in `cache`, last written at `at`.
    fn stamp(cache: &Path, dir: &str, text: &str, at: SystemTime) {
        let dir = cache.join(dir);
        fs::create_dir_all(&dir).unwrap();
        let stamp = dir.join(".kernel-core-built");
        fs::write(&stamp, text).unwrap();
        fs::File::options()
            .write(true)
            .open(&stamp)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    #[test]
    fn the_builds_of_a_run_are_those_its_stamps_date_after_its_start() {
        let cache = tempfile::tempdir().unwrap();
        let start = SystemTime::now() - Duration::from_secs(3600);
        let minutes = |m: u64| start + Duration::from_secs(60 * m);
        // Built by the builder beside the host checks, by a cell, and a stock kernel's metadata.
        stamp(
            cache.path(),
            "build/7.3.4-x86_64-6babaab5f4c9f4bc",
            "423\n",
            minutes(7),
        );
        stamp(
            cache.path(),
            "build/7.3.4-riscv64-d4e700c3c645f08b",
            "268\n",
            minutes(30),
        );
        let deb = "distro/7.3.4+deb13-amd64/build-3e771f7a1c87af2f";
        stamp(
            cache.path(),
            deb,
            "169\nsymbol check: 2502/2502\n",
            minutes(20),
        );
        // Built by an earlier run; a build that was killed has no stamp.
        stamp(
            cache.path(),
            "build/6.12.118-arm64-6d12aa3abde73f6c",
            "473\n",
            start - Duration::from_secs(60),
        );
        fs::create_dir_all(cache.path().join("build/7.3.4-um-1b6a6b610b2c9595")).unwrap();
        assert_eq!(
            builds_in(cache.path(), start),
            [
                ("Linux 7.3.4 for x86_64".to_string(), 423),
                ("Debian 7.3.4+deb13-amd64's Rust metadata".to_string(), 169),
                ("Linux 7.3.4 for riscv64".to_string(), 268),
            ]
        );
        assert!(builds_in(cache.path(), minutes(31)).is_empty());
    }
}
