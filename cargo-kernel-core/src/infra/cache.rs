// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Where the cache is: `$KERNEL_CORE_CACHE`, else `$XDG_CACHE_HOME/kernel-core`, else
//! `~/.cache/kernel-core`. It holds the kernel sources and builds, the Debian packages and
//! their private apt roots, the guests' `/init`, the compiler's probe answers, and the module
//! builds of drivers whose path make cannot take.

use std::path::{Path, PathBuf};

/// The cache directory.
pub fn dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("KERNEL_CORE_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Path::new(&dir).join("kernel-core");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    Path::new(&home).join(".cache/kernel-core")
}
