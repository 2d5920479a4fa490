// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Whether everything the matrix fetches can be fetched, checked from nothing in a minute.
//!
//! A run whose cache already holds a package never fetches it again, so a broken fetch path
//! (an archive that moved, a suite served from another archive) stays hidden until a fresh
//! machine meets it, an hour into its first run. This check resolves, from empty apt roots of
//! its own (never the cache's), every package the matrix's kernels fetch: each suite's signed
//! lists (`apt-get update`, checked against Debian's keyring), each package's entry, its size
//! and SHA256, and a `HEAD` of the file's URL, whose length must be the entry's size. Nothing
//! is downloaded but the lists. Its failures name the package, the suite, the URL and the
//! variable that points the suite's archive elsewhere.
//!
//! The packages are those the kernel rows name ([`crate::model::arch::KERNELS`]): each row's
//! `linux-source-*`, and for a distribution's stock kernel on each of its architectures, the
//! headers its `linux-headers-<flavour>` names and the boot image of that release, found as
//! [`crate::kernel::distro`] finds them; and the packages of the Debian root file system in
//! which DKMS packages are proven ([`crate::kernel::distro::rootfs`]) from its base suite
//! (whose signed lists are what `debootstrap` fetches first).

use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel::apt::{self, Apt, Stanza};
use crate::kernel::distro::rootfs;
use crate::model::arch::{Arch, Kernel, KERNELS};
use std::path::Path;
use std::time::Duration;

/// One package, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The suite and Debian architecture whose lists hold it.
    pub suite: String,
    pub arch: String,
    pub package: String,
    pub version: String,
    /// Its size in bytes and SHA256, from the signed index.
    pub size: u64,
    pub sha256: String,
    /// Where its file is served.
    pub url: String,
}

/// The packages `kernel` fetches, as `(Debian architecture, package)`: its source for the
/// kernels built here; for a stock kernel, on each architecture, its headers and image (found
/// through the lists of `apt_of`).
fn packages(kernel: &Kernel, apt_of: &mut dyn FnMut(&str) -> Result<Apt>) -> Result<Vec<Resolved>> {
    let mut found = Vec::new();
    let Some(stock) = kernel.stock else {
        let apt = apt_of("amd64")?;
        found.push(resolve(&apt, kernel.package)?);
        return Ok(found);
    };
    for arch in kernel.arches {
        let arch: Arch = crate::model::arch::arch(arch)?;
        let (Some(debian), Some(flavour)) = (
            crate::kernel::distro::debian_arch(&arch),
            crate::kernel::distro::flavour(kernel, &arch),
        ) else {
            continue;
        };
        let apt = apt_of(debian)?;
        let meta = resolve_stanza(&apt, &format!("linux-headers-{flavour}"))?;
        let krel = apt::depends(meta.get("Depends").map_or("", String::as_str))
            .into_iter()
            .find_map(|d| d.strip_prefix("linux-headers-").map(str::to_string))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "linux-headers-{flavour} of Debian {} ({}) names no headers package",
                    kernel.suite,
                    apt.archive.url()
                )
            })?;
        if !krel.starts_with(&format!("{}.", stock.series)) {
            anyhow::bail!(
                "Debian {}'s newest {flavour} kernel is {krel}, not of the row's series {}: update the row {}",
                kernel.suite,
                stock.series,
                kernel.name
            );
        }
        found.push(resolve(&apt, &format!("linux-headers-{krel}"))?);
        found.push(
            resolve(&apt, &format!("linux-binary-{krel}")).or_else(|first| {
                resolve(&apt, &format!("linux-image-{krel}-unsigned")).map_err(|_| first)
            })?,
        );
        found.push(resolve(&apt, kernel.package)?);
    }
    Ok(found)
}

/// The stanza of `package` in `apt`'s lists, or an error naming the package, suite and URL.
fn resolve_stanza(apt: &Apt, package: &str) -> Result<Stanza> {
    apt.show(package)?.ok_or_else(|| {
        anyhow::anyhow!(
            "{package}: not in Debian {} ({}, {}); set {} if packages come from a mirror",
            apt.suite,
            apt.arch,
            apt.archive.url(),
            apt.archive.override_var()
        )
    })
}

/// `package` resolved in `apt`'s lists.
fn resolve(apt: &Apt, package: &str) -> Result<Resolved> {
    let stanza = resolve_stanza(apt, package)?;
    let field = |name: &str| {
        stanza.get(name).cloned().ok_or_else(|| {
            anyhow::anyhow!(
                "{package} of Debian {} ({}) has no {name} in its index entry",
                apt.suite,
                apt.archive.url()
            )
        })
    };
    let size = field("Size")?;
    Ok(Resolved {
        suite: apt.suite.clone(),
        arch: apt.arch.clone(),
        package: package.to_string(),
        version: field("Version")?,
        size: size.parse().map_err(|_| {
            anyhow::anyhow!(
                "{package} of Debian {}: Size `{size}` is no number",
                apt.suite
            )
        })?,
        sha256: field("SHA256")?,
        url: format!("{}/{}", apt.archive.url(), field("Filename")?),
    })
}

/// How long one `HEAD` may take.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// Fails unless `url` serves a file of `resolved.size` bytes (a `HEAD` request, through the
/// proxy of `http_proxy` if one is set).
fn check_served(resolved: &Resolved) -> Result {
    let agent = ureq::AgentBuilder::new()
        .timeout(HEAD_TIMEOUT)
        .try_proxy_from_env(true)
        .build();
    let response = agent.head(&resolved.url).call().map_err(|e| {
        anyhow::anyhow!(
            "{} {} (Debian {}): {} is not served: {e}",
            resolved.package,
            resolved.version,
            resolved.suite,
            resolved.url
        )
    })?;
    if let Some(length) = response.header("Content-Length") {
        if length.trim().parse::<u64>().ok() != Some(resolved.size) {
            anyhow::bail!(
                "{} {} (Debian {}): {} is {length} bytes, but the signed index says {}",
                resolved.package,
                resolved.version,
                resolved.suite,
                resolved.url,
                resolved.size
            );
        }
    }
    Ok(())
}

/// Resolves every package of `kernels` from empty apt roots under `dir` and checks that each
/// is served; returns them, or fails with every package that could not be resolved.
pub fn check(kernels: &[Kernel], dir: &Path) -> Result<Vec<Resolved>> {
    let start = progress::step(&format!(
        "resolving every package the matrix fetches, from empty apt roots in {}",
        dir.display()
    ));
    let mut resolved = Vec::new();
    let mut failures = Vec::new();
    for kernel in kernels {
        let mut apt_of = |arch: &str| -> Result<Apt> {
            let apt = Apt::at(dir, kernel.suite, kernel.archive, arch);
            // Empty: the signed lists are fetched now, by this check.
            if !apt.root.join("updated").exists() {
                apt.update()?;
            }
            Ok(apt)
        };
        match packages(kernel, &mut apt_of) {
            Ok(found) => {
                for package in found {
                    // The same file through another architecture's lists.
                    if resolved.iter().any(|r: &Resolved| r.url == package.url) {
                        continue;
                    }
                    match check_served(&package) {
                        Ok(()) => {
                            crate::note!(
                                "    {} {} (Debian {}, {}): {} bytes, sha256 {}, {}",
                                package.package,
                                package.version,
                                package.suite,
                                package.arch,
                                package.size,
                                package.sha256,
                                package.url
                            );
                            resolved.push(package);
                        }
                        Err(e) => failures.push(e.to_string()),
                    }
                }
            }
            Err(e) => failures.push(format!(
                "{} ({} from Debian {}, {}): {e}",
                kernel.name,
                kernel.package,
                kernel.suite,
                kernel.archive.url()
            )),
        }
    }
    // The root file systems of the stock kernels required on amd64: their base suites.
    let mut bases: Vec<(&str, crate::model::arch::Archive)> = Vec::new();
    for kernel in kernels
        .iter()
        .filter(|k| k.stock.is_some() && k.required.contains(&crate::model::arch::x86_64().name))
    {
        let base = (rootfs::base_suite(kernel), kernel.archive);
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    for (suite, archive) in bases {
        let apt = Apt::at(dir, suite, archive, "amd64");
        let found = (|| -> Result<Vec<Resolved>> {
            if !apt.root.join("updated").exists() {
                apt.update()?;
            }
            rootfs::DKMS_PACKAGES
                .iter()
                .map(|package| resolve(&apt, package))
                .collect()
        })();
        match found {
            Ok(found) => {
                for package in found {
                    match check_served(&package) {
                        Ok(()) => {
                            crate::note!(
                                "    {} {} (Debian {}, {}, the DKMS root): {} bytes, sha256 {}, {}",
                                package.package,
                                package.version,
                                package.suite,
                                package.arch,
                                package.size,
                                package.sha256,
                                package.url
                            );
                            resolved.push(package);
                        }
                        Err(e) => failures.push(e.to_string()),
                    }
                }
            }
            Err(e) => failures.push(format!(
                "the Debian {suite} root file system of the DKMS check ({}): {e}",
                archive.url()
            )),
        }
    }
    if !failures.is_empty() {
        anyhow::bail!(
            "{} of the matrix's packages cannot be fetched:\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    progress::done(
        &format!("{} packages resolved and served", resolved.len()),
        start,
    );
    Ok(resolved)
}

/// [`check`] on every kernel of the matrix, in a temporary directory.
pub fn check_all() -> Result<Vec<Resolved>> {
    let dir = tempfile::Builder::new()
        .prefix("kernel-core-fetch-check-")
        .tempdir()
        .map_err(|e| anyhow::anyhow!("a temporary directory for the fetch check: {e}"))?;
    check(KERNELS, dir.path())
}
