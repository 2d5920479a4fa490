// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A stock kernel's `.config` (from its `linux-headers-*` package): what it says of Rust, of
//! KUnit and of the exact toolchain that built it.
//!
//! Kconfig records the compilers it ran with (`CONFIG_RUSTC_VERSION_TEXT`,
//! `CONFIG_BINDGEN_VERSION_TEXT`, `CONFIG_CC_VERSION_TEXT`, `CONFIG_GCC_VERSION`): the metadata
//! build takes its toolchain from these, and never runs Kconfig again.

use crate::infra::error::Result;
use anyhow::bail;
use std::collections::BTreeMap;

/// The options of a `.config`: `CONFIG_FOO` → its value, unquoted; options that are
/// `# ... is not set` are absent.
#[derive(Debug, Default)]
pub struct Config(BTreeMap<String, String>);

/// How a kernel has KUnit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kunit {
    /// `CONFIG_KUNIT=y`: a module's `#[kunit_tests]` suites run when it loads.
    BuiltIn,
    /// `CONFIG_KUNIT=m`: `#[kunit_tests]` (kernel-core's and the kernel's alike) compiles suites
    /// only with `CONFIG_KUNIT=y`, so a module's suites are left out.
    Module,
    /// Not set.
    None,
}

impl Config {
    /// Parses a `.config`.
    pub fn parse(text: &str) -> Self {
        Self(
            text.lines()
                .filter(|l| l.starts_with("CONFIG_"))
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| {
                    let v = v
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .unwrap_or(v);
                    (k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\"))
                })
                .collect(),
        )
    }

    /// The value of `name` (`CONFIG_...`), unquoted.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Whether `name` is `y`.
    pub fn is_y(&self, name: &str) -> bool {
        self.get(name) == Some("y")
    }

    /// How the kernel has KUnit.
    pub fn kunit(&self) -> Kunit {
        match self.get("CONFIG_KUNIT") {
            Some("y") => Kunit::BuiltIn,
            Some("m") => Kunit::Module,
            _ => Kunit::None,
        }
    }

    /// The toolchain the kernel was built with; an error if it has no Rust, naming `what` (the
    /// kernel release).
    pub fn toolchain(&self, what: &str) -> Result<Built> {
        if !self.is_y("CONFIG_RUST") {
            let rustc = self.get("CONFIG_RUSTC_VERSION").unwrap_or("absent");
            bail!(
                "{what} has no Rust (CONFIG_RUST is not set, CONFIG_RUSTC_VERSION={rustc}): no Rust module can be built for it. Debian kernels with Rust: trixie-backports 7.3 (debian-7.3) and forky 7.2 (debian-7.2)"
            );
        }
        let field = |name: &str| {
            self.get(name)
                .map(str::to_string)
                .ok_or_else(|| anyhow::anyhow!("{what}'s .config has no {name}"))
        };
        let rustc_text = field("CONFIG_RUSTC_VERSION_TEXT")?;
        let Some(forced) = rustc_text.strip_prefix("rustc ") else {
            bail!("{what}'s CONFIG_RUSTC_VERSION_TEXT is not `rustc ...`: {rustc_text}");
        };
        let release = forced.split(' ').next().unwrap_or_default().to_string();
        let bindgen_text = field("CONFIG_BINDGEN_VERSION_TEXT")?;
        let bindgen = bindgen_text
            .strip_prefix("bindgen ")
            .unwrap_or(&bindgen_text)
            .to_string();
        let gcc: u32 = field("CONFIG_GCC_VERSION")?
            .parse()
            .map_err(|_| anyhow::anyhow!("{what}'s CONFIG_GCC_VERSION is not a number"))?;
        if gcc == 0 {
            bail!("{what} was not built with GCC (CONFIG_GCC_VERSION=0): only GCC-built distribution kernels are supported");
        }
        Ok(Built {
            rustc_release: release,
            rustc_version: forced.to_string(),
            bindgen,
            cc_text: field("CONFIG_CC_VERSION_TEXT")?,
            gcc_major: gcc / 10000,
        })
    }
}

/// The toolchain a stock kernel was built with, from its `.config`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The rustc release, `1.85.1`: what rustup installs.
    pub rustc_release: String,
    /// `rustc --version` without `rustc `, `1.85.1 (4eb161250 2025-03-15) (built from a source
    /// tarball)`: what Rust symbol hashes depend on.
    pub rustc_version: String,
    /// The bindgen release, `0.71.1`.
    pub bindgen: String,
    /// `CONFIG_CC_VERSION_TEXT`.
    pub cc_text: String,
    /// GCC's major version, `14`.
    pub gcc_major: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRIXIE_BPO: &str = "\
CONFIG_CC_VERSION_TEXT=\"x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0\"
CONFIG_CC_IS_GCC=y
CONFIG_GCC_VERSION=140200
CONFIG_RUSTC_VERSION=108501
CONFIG_RUST=y
CONFIG_RUSTC_VERSION_TEXT=\"rustc 1.85.1 (4eb161250 2025-03-15) (built from a source tarball)\"
CONFIG_BINDGEN_VERSION_TEXT=\"bindgen 0.71.1\"
# CONFIG_KUNIT is not set
";

    #[test]
    fn reads_the_toolchain_of_a_stock_kernel() {
        let config = Config::parse(TRIXIE_BPO);
        assert_eq!(config.kunit(), Kunit::None);
        let built = config.toolchain("7.3.4+deb13-amd64").unwrap();
        assert_eq!(
            built,
            Built {
                rustc_release: "1.85.1".into(),
                rustc_version: "1.85.1 (4eb161250 2025-03-15) (built from a source tarball)".into(),
                bindgen: "0.71.1".into(),
                cc_text: "x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0".into(),
                gcc_major: 14,
            }
        );
        assert_eq!(Config::parse("CONFIG_KUNIT=m\n").kunit(), Kunit::Module);
        assert_eq!(Config::parse("CONFIG_KUNIT=y\n").kunit(), Kunit::BuiltIn);
    }

    #[test]
    fn a_kernel_without_rust_is_refused() {
        // Debian trixie's own 6.12.
        let config = Config::parse(
            "CONFIG_CC_VERSION_TEXT=\"gcc-14\"\nCONFIG_RUSTC_VERSION=0\n# CONFIG_RUST is not set\n",
        );
        let e = config
            .toolchain("6.12.117+deb13-amd64")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "6.12.117+deb13-amd64 has no Rust (CONFIG_RUST is not set, CONFIG_RUSTC_VERSION=0)"
            ),
            "{e}"
        );
    }
}
