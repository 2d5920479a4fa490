// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Hashes: FNV-1a for the cache's keys, SHA256 for what is checked against Debian's index and
//! the manifests of executed files.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use sha2::{Digest as _, Sha256};
use std::path::Path;

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

/// The SHA256 of a file, in lowercase hex.
pub fn sha256(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).at(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).at(path)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_of_known_texts() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("abc");
        std::fs::write(&file, "abc").unwrap();
        assert_eq!(
            sha256(&file).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let missing = dir.path().join("missing");
        let e = sha256(&missing).unwrap_err().to_string();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
        assert_eq!(fnv(b"", FNV_START), FNV_START);
        assert_eq!(fnv(b"a", FNV_START), 0xaf63_dc4c_8601_ec8c);
    }
}
