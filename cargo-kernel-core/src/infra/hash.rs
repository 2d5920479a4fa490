// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Hashes: FNV-1a for the cache's keys, SHA256 for what is checked against Debian's index and
//! the manifests of executed files.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::path::Path;
use std::process::Command;

/// Where an FNV-1a hash starts (its offset basis).
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, continuing from `hash` ([`FNV_START`] for a new one), for cache
/// keys.
pub fn fnv(bytes: &[u8], mut hash: u64) -> u64 {
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x100_0000_01b3);
    }
    hash
}

/// The SHA256 of a file, in lowercase hex (`sha256sum`, from coreutils).
pub fn sha256(path: &Path) -> Result<String> {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .doing("running sha256sum")?;
    if !out.status.success() {
        anyhow::bail!(
            "sha256sum {}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .map(str::to_string)
        .ok_or_else(|| anyhow::anyhow!("sha256sum {}: no output", path.display()))
}
