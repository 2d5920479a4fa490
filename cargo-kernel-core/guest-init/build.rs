// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Build-time guard: refuses builds that would not yield a static, non-PIE `/init`.
//!
//! The flags that make the binary static live in `.cargo/config.toml`, which Cargo only reads
//! when it runs from inside `guest-init/`; a `RUSTFLAGS` environment variable silently replaces
//! them. Both mistakes would produce a position-independent binary whose relocations nobody
//! applies, which crashes as PID 1 with nothing but a kernel panic to show for it. This script
//! turns that into a clear build error instead.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");

    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let target = env::var("TARGET").unwrap_or_default();
    // PowerPC has no bare-metal Rust target with a prebuilt `core`: its Linux targets
    // (`powerpc64le-unknown-linux-gnu`, `powerpc-unknown-linux-gnu`) build it, freestanding
    // (`#![no_std]`, no libc linked) and linked by rust-lld as a static executable.
    let linux_powerpc = os == "linux" && (arch == "powerpc" || arch == "powerpc64");
    if os != "none" && !linux_powerpc {
        fail(&format!(
            "kernel-core-guest-init is a freestanding binary and must be built for a \
             bare-metal target (x86_64-unknown-none, aarch64-unknown-none, \
             riscv64imac-unknown-none-elf, loongarch64-unknown-none, armv7a-none-eabi, \
             s390x-unknown-none-softfloat) or, for PowerPC, powerpc64le-unknown-linux-gnu or \
             powerpc-unknown-linux-gnu, not `{target}`; see guest-init/README.md"
        ));
    }

    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if linux_powerpc {
        // Without `crt-static` a Linux target links a dynamic executable: a `PT_INTERP` naming
        // a loader the initramfs does not have.
        let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
        if !features.split(',').any(|f| f == "crt-static") {
            fail(&format!(
                "kernel-core-guest-init needs `-C target-feature=+crt-static` for `{target}`: \
                 run cargo from inside guest-init/ so that guest-init/.cargo/config.toml \
                 applies (or pass `--config guest-init/.cargo/config.toml`), and do not set \
                 RUSTFLAGS; see guest-init/README.md"
            ));
        }
    }
    let model = relocation_model(flags.split('\x1f'));
    // The targets' own defaults: x86_64-unknown-none and the Linux targets are
    // position-independent (armv7a and s390x default to static as well).
    let default = if arch == "x86_64" || linux_powerpc {
        "pic"
    } else {
        "static"
    };
    let model = model.unwrap_or(default);
    if model != "static" {
        fail(&format!(
            "kernel-core-guest-init needs `-C relocation-model=static` (effective: `{model}`) for \
             `{target}`: run cargo from inside guest-init/ so that guest-init/.cargo/config.toml \
             applies (or pass `--config guest-init/.cargo/config.toml`), and do not set \
             RUSTFLAGS; see guest-init/README.md"
        ));
    }
}

/// The last `-C relocation-model=...` among `flags`, in any of rustc's spellings.
fn relocation_model<'a>(flags: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut model = None;
    let mut codegen_next = false;
    for flag in flags {
        let value = if codegen_next {
            codegen_next = false;
            Some(flag)
        } else if flag == "-C" || flag == "--codegen" {
            codegen_next = true;
            None
        } else {
            flag.strip_prefix("--codegen=")
                .or_else(|| flag.strip_prefix("-C"))
        };
        if let Some(m) = value.and_then(|v| v.strip_prefix("relocation-model=")) {
            model = Some(m);
        }
    }
    model
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
