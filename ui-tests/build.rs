// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Tells the tests which rustc builds them, as `KC_UI_RUSTC=<major>.<minor>` (e.g. `1.95`).
//!
//! Compiler diagnostics change from one rustc release to the next, so `tests/ui.rs` keeps one
//! directory of expected `.stderr` files per toolchain (`ui/rust-<major>.<minor>/`) and picks it
//! with this variable. `tests/link.rs` uses it to know which linker rustc uses by default
//! (rust-lld on x86_64 Linux since 1.90, GNU ld through `cc` before).

use std::{env, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");

    // Cargo always sets `RUSTC` for build scripts: the compiler that builds the tests.
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("running `{rustc} --version`: {e}"));
    let version = String::from_utf8_lossy(&output.stdout);
    // "rustc 1.95.0 (abcdef012 2026-03-21)", or "rustc 1.97.0-nightly (...)".
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|number| {
            let mut parts = number.split(['.', '-']);
            Some(format!("{}.{}", parts.next()?, parts.next()?))
        })
        .unwrap_or_else(|| panic!("cannot read a version in `{rustc} --version`: {version:?}"));
    println!("cargo:rustc-env=KC_UI_RUSTC={minor}");
}
