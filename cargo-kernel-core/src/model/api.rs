// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Which kernel has which API: the cfgs of kernel-core's `api-levels`, the one list that
//! `kernel-core.mk` (Kbuild), the rust-analyzer set-up and kernel-core's own checks read.
//!
//! Each line is `VERSION.PATCHLEVEL NAME`: a kernel of that version or newer gets `--cfg NAME`
//! (`7.1 kernel_core_linux_7_1`). The file ships in the `kernel-core` package next to
//! `kernel-core.mk`, so the runner reads the one of the kernel-core a driver resolves.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::path::Path;

/// The cfg that says a kernel has the whole API kernel-core mirrors (Linux 7.3's).
pub const MIRRORED: &str = "kernel_core_linux_7_3";

/// The cfg that says a kernel has the 7.1 APIs the conformance suite compares.
pub const CONFORMANCE: &str = "kernel_core_linux_7_1";

/// One level: from `(major, minor)` on, the cfg.
pub type Level = ((u32, u32), String);

/// The levels of `text`.
pub fn parse(text: &str) -> std::result::Result<Vec<Level>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (version, name) = line
                .split_once(' ')
                .ok_or_else(|| format!("`{line}`: expected `VERSION.PATCHLEVEL NAME`"))?;
            let (major, minor) = version
                .split_once('.')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .ok_or_else(|| format!("`{line}`: `{version}` is not VERSION.PATCHLEVEL"))?;
            Ok(((major, minor), name.trim().to_string()))
        })
        .collect()
}

/// The `api-levels` of the kernel-core package in `kernel_core`.
pub fn read(kernel_core: &Path) -> Result<Vec<Level>> {
    let path = kernel_core.join("api-levels");
    let text = std::fs::read_to_string(&path).at(&path)?;
    parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `VERSION.PATCHLEVEL` of a kernel version such as `7.3.4` or `6.12.118+deb13-amd64`.
pub fn series(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split(['.', '+', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The cfgs a kernel of `version` gets from `levels`.
pub fn cfgs(levels: &[Level], version: (u32, u32)) -> Vec<String> {
    levels
        .iter()
        .filter(|(at, _)| version >= *at)
        .map(|(_, name)| name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_and_what_each_kernel_gets() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernel-core");
        let levels = read(&checkout).unwrap();
        assert_eq!(cfgs(&levels, (6, 12)), Vec::<String>::new());
        assert_eq!(cfgs(&levels, (7, 2)), [CONFORMANCE]);
        assert_eq!(cfgs(&levels, (7, 3)), [CONFORMANCE, MIRRORED]);
        assert_eq!(cfgs(&levels, (8, 0)), [CONFORMANCE, MIRRORED]);
        assert_eq!(series("6.12.118+deb13-amd64"), Some((6, 12)));
        assert_eq!(series("7.3"), Some((7, 3)));
        assert!(parse("7 x\n").is_err());
        assert!(parse("x.1 y\n").is_err());
        assert_eq!(
            parse("# c\n\n7.1 a\n").unwrap(),
            [((7, 1), "a".to_string())]
        );
    }
}
