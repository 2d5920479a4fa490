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
