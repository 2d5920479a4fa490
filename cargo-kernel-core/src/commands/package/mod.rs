// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo kernel-core package` and `cargo kernel-core doctor`: the driver as its users get it.
//!
//! - `--dkms` writes the driver's DKMS source package ([`dkms`]), which builds its modules on
//!   the user's machine for every kernel with Rust whose headers are installed;
//! - `--overlay` writes, for each of Debian's stock kernels asked for, the package of the Rust
//!   metadata its `linux-headers-*` lack ([`crate::kernel::distro::overlay`]), rebuilt and
//!   checked in the cache;
//! - `doctor` runs on this machine the preflight that the DKMS package runs before every build
//!   ([`crate::kernel::distro::preflight`]), printing every item.

pub mod dkms;

use crate::cli::{Doctor, Package};
use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel::distro::{self, preflight};
use crate::kernel::setup;
use crate::model::arch::{self, Arch, Kernel};
use crate::model::driver::Driver;
use anyhow::bail;
use std::path::{Path, PathBuf};

/// `cargo kernel-core package` for the driver in `dir`.
pub fn run(dir: &Path, options: &Package) -> Result {
    if !options.overlay && (options.cells.kernel.is_some() || options.cells.arch.is_some()) {
        bail!("--kernel and --arch choose the stock kernels whose overlays --overlay writes: add --overlay");
    }
    let driver = if options.dkms {
        Some(Driver::open(dir)?)
    } else {
        None
    };
    let out = match (&options.out, &driver) {
        (Some(out), _) => out.clone(),
        (None, Some(driver)) => driver.target_dir.join("kernel-core/package"),
        (None, None) => dir.join("target/kernel-core/package"),
    };
    std::fs::create_dir_all(&out).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    if options.overlay {
        let cells = overlay_cells(options)?;
        for (kernel, arch) in cells {
            for deb in overlay(&kernel, &arch, options.kernel_release.as_deref(), &out)? {
                crate::note!("    wrote {}", deb.display());
            }
        }
    }
    if let Some(driver) = &driver {
        let start = progress::step(&format!(
            "writing {}'s DKMS package{} into {}",
            driver.package,
            if options.with_tests {
                " (a test build: its suites run when the module loads)"
            } else {
                ""
            },
            out.display()
        ));
        let written = dkms::write(driver, options.with_tests, &out)?;
        progress::done(
            &format!(
                "{} {}: modules {} in {} and {}",
                written.name,
                written.version,
                written.modules.join(", "),
                written.tree.display(),
                written.deb.display()
            ),
            start,
        );
        for line in install_notes(&written).lines() {
            progress::note(line);
        }
    }
    Ok(())
}

/// What to tell the author about installing the DKMS package.
fn install_notes(written: &dkms::Written) -> String {
    [
        String::new(),
        "On a user's machine (Debian 13 with its trixie-backports 7.3 kernel, say):".to_string(),
        "  sudo apt install linux-headers-$(uname -r) ./linux-rust-metadata-$(uname -r)_*.deb   # the headers and their Rust metadata".to_string(),
        format!(
            "  sudo apt install ./{}   # DKMS builds {} for every kernel with headers and metadata",
            written
                .deb
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            written.modules.join(", ")
        ),
        "  sudo cargo kernel-core doctor   # or the package's own check: sh /usr/src/<name>-<version>/kernel-core-preflight $(uname -r)".to_string(),
        "The overlays of Debian's stock kernels: cargo kernel-core package --overlay. At each kernel upgrade, the new release's headers need its overlay too.".to_string(),
    ]
    .join("\n")
        + "\n"
}

/// The stock cells whose overlays `--overlay` writes: with `--kernel-release`, that release's
/// row and architecture; those `--kernel`/`--arch` name (stock kernels only); by default every
/// stock cell of the required matrix.
fn overlay_cells(options: &Package) -> Result<Vec<(Kernel, Arch)>> {
    let cells = &options.cells;
    if let Some(krel) = &options.kernel_release {
        let kernel = distro::row_of(krel)?;
        let arches: Vec<Arch> = match &cells.arch {
            Some(name) => vec![arch::arch(name)?],
            None => kernel
                .arches
                .iter()
                .map(|a| arch::arch(a))
                .collect::<Result<_>>()?,
        };
        let arch = arches
            .into_iter()
            .find(|a| distro::flavour(&kernel, a).is_some_and(|f| krel.ends_with(&format!("-{f}"))))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{krel} is no release of {} on the architecture asked for",
                    kernel.name
                )
            })?;
        return Ok(vec![(kernel, arch)]);
    }
    let chosen = if cells.kernel.is_none() && cells.arch.is_none() {
        arch::required()
            .into_iter()
            .filter(|(k, _)| k.stock.is_some())
            .collect()
    } else {
        cells.matrix()?
    };
    if let Some((kernel, _)) = chosen.iter().find(|(k, _)| k.stock.is_none()) {
        bail!(
            "{} is not a distribution's stock kernel: the metadata overlays are for {}",
            kernel.name,
            arch::KERNELS
                .iter()
                .filter(|k| k.stock.is_some())
                .map(|k| k.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(chosen)
}

/// The overlay packages of `kernel` on `arch` (its newest release, or `krel`), written into
/// `out` from its metadata build (built into the cache if needed).
pub fn overlay(
    kernel: &Kernel,
    arch: &Arch,
    krel: Option<&str>,
    out: &Path,
) -> Result<Vec<PathBuf>> {
    distro::stock(kernel)?;
    let release = distro::release(kernel, arch, krel)?;
    setup::ensure_kernel_tools(arch)?;
    let tools = distro::toolchain::find(&release)?;
    let build = distro::build_release(kernel, arch, &tools, &release)?;
    let debian = distro::debian_arch(arch).expect("a stock kernel's architecture");
    distro::overlay::write(&release, &build.dir, debian, out)
}

/// `cargo kernel-core doctor`: the preflight of a kernel release on this machine, every item
/// printed; fails if one is missing.
pub fn doctor(options: &Doctor) -> Result {
    let release = match &options.kernel_release {
        Some(release) => release.clone(),
        None => crate::infra::command::output(std::process::Command::new("uname").arg("-r"))
            .map(|r| r.trim().to_string())
            .ok_or_else(|| {
                anyhow::anyhow!("`uname -r` failed: name the release with --kernel-release")
            })?,
    };
    let outcome = preflight::run(&release, options.kdir.as_deref(), &[])?;
    for line in outcome.text.lines() {
        progress::note(line);
    }
    if !outcome.passed {
        bail!(
            "Rust modules cannot be built for {release} on this machine: {} missing (above)",
            outcome
                .missing()
                .map(|i| i.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cells;

    fn options(kernel: Option<&str>, arch: Option<&str>, release: Option<&str>) -> Package {
        Package {
            dkms: false,
            with_tests: false,
            overlay: true,
            cells: Cells {
                kernel: kernel.map(String::from),
                arch: arch.map(String::from),
            },
            kernel_release: release.map(String::from),
            out: None,
        }
    }

    fn names(cells: &[(Kernel, Arch)]) -> Vec<String> {
        cells
            .iter()
            .map(|(k, a)| format!("{}/{}", k.name, a.name))
            .collect()
    }

    #[test]
    fn the_overlays_are_those_of_the_stock_kernels_asked_for() {
        let every = overlay_cells(&options(None, None, None)).unwrap();
        assert_eq!(
            names(&every),
            [
                "debian-7.3/x86_64",
                "debian-7.3/arm64",
                "debian-7.3-rt/x86_64",
                "debian-7.2/x86_64"
            ]
        );
        let rt = overlay_cells(&options(None, None, Some("7.3.4+deb13-rt-amd64"))).unwrap();
        assert_eq!(names(&rt), ["debian-7.3-rt/x86_64"]);
        let arm = overlay_cells(&options(None, None, Some("7.3.4+deb13-arm64"))).unwrap();
        assert_eq!(names(&arm), ["debian-7.3/arm64"]);
        let one = overlay_cells(&options(Some("debian-7.3"), Some("arm64"), None)).unwrap();
        assert_eq!(names(&one), ["debian-7.3/arm64"]);
        let e = overlay_cells(&options(Some("7.3"), None, None))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("7.3 is not a distribution's stock kernel: the metadata overlays are for debian-7.3"),
            "{e}"
        );
        let e = overlay_cells(&options(None, None, Some("6.12.117+deb13-amd64")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no distribution kernel of the matrix"), "{e}");
    }

    #[test]
    fn kernels_without_overlay_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut package = options(Some("debian-7.3"), None, None);
        package.overlay = false;
        package.dkms = true;
        let e = run(dir.path(), &package).unwrap_err().to_string();
        assert!(e.contains("add --overlay"), "{e}");
    }
}
