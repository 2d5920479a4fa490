// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Arms the link-time half of `build_assert!` for optimized host builds.
//!
//! In an optimized build (`OPT_LEVEL` other than `0`) on an ELF target this script
//!
//! - sets `cfg(kernel_core_link_check)`, which places [`build_error`] in its own section together
//!   with the marker symbol `kernel_core_build_error_linked`, and
//! - writes `libkernel_core_build_assert.a`, which is not an archive but a GNU linker script
//!   holding one `ASSERT`, and links it into every downstream binary with `-bundle`, so the final
//!   link of the binary (not of this rlib) reads it.
//!
//! Both GNU ld and LLVM lld accept a linker script wherever they accept a library. The marker is
//! only defined in the final link when the section survives, that is when some call to
//! [`build_error`] or `build_error_at` was kept by the optimizer, and then the `ASSERT` fails
//! the link with a message that names `build_error` and points at the documentation.
//!
//! The same cfg makes `build_error_here!` name each call site in an undefined symbol, which the
//! linker reports before the `ASSERT` (see `src/lib.rs`); the `ASSERT` is the backstop for calls
//! that carry no site.
//!
//! `KERNEL_CORE_BUILD_ASSERT=panic` turns the link-time check off, for linkers that cannot read
//! GNU linker scripts: an unprovable assertion then panics at run time when its condition is
//! false, as in a debug build.
//!
//! [`build_error`]: https://docs.rs/kernel-core-build-error/latest/kernel_core_build_error/fn.build_error.html

use std::{env, fs, path::PathBuf, process::Command};

/// The marker symbol, also spelled out in `src/lib.rs`.
const MARKER: &str = "kernel_core_build_error_linked";

/// What the linker prints when the check fails. A linker script string cannot hold a `"`.
///
/// It is the backstop: a surviving call made through `build_error_here!` is also an undefined
/// symbol named after its site, which the linker reports first (lld then stops before it gets
/// here). This message is what remains when nothing names the site: a direct call to
/// `build_error`, or link-time optimization that dropped the site's reference.
const MESSAGE: &str = "kernel-core: build_error was linked: a build_assert!() or build_error!() \
call survived optimization, so its condition could not be proven at compile time. Each such \
call of the macros is also an undefined symbol `kernel-core: ... not proven ... at \
FILE:LINE:COLUMN` among these errors, unless link-time optimization removed it. Make the \
inputs compile-time known (an #[inline(always)] caller, constant arguments) or use \
const_assert!/static_assert!. See https://docs.rs/kernel-core/latest/kernel_core/build_assert/index.html";

/// Whether `rustc --version` (as printed by the compiler that builds this crate) is a release
/// whose `core::hint::black_box` is a `const fn`: 1.86 and later. A pre-release of 1.86 may
/// predate the stabilization, so only the release counts.
fn const_black_box(version: &str) -> bool {
    // "rustc 1.95.0 (59807616e 2026-04-14)", or "rustc 1.97.0-nightly (...)".
    let Some(number) = version.split_whitespace().nth(1) else {
        return false;
    };
    let (release, pre) = match number.split_once('-') {
        Some((release, _)) => (release, true),
        None => (number, false),
    };
    let mut parts = release.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => {
            (major, minor) > (1, 86) || ((major, minor) == (1, 86) && !pre)
        }
        _ => false,
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=KERNEL_CORE_BUILD_ASSERT");
    println!("cargo:rerun-if-env-changed=RUSTC");
    println!("cargo:rustc-check-cfg=cfg(kernel_core_link_check)");
    println!("cargo:rustc-check-cfg=cfg(kernel_core_const_black_box)");

    let var = |name: &str| env::var(name).unwrap_or_default();

    // `build_error_at` keeps its site alive through link-time optimization with `black_box`,
    // where the compiler allows it in a `const fn`.
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    if const_black_box(&version) {
        println!("cargo:rustc-cfg=kernel_core_const_black_box");
    }

    let mode = var("KERNEL_CORE_BUILD_ASSERT");
    match mode.as_str() {
        "" | "link" => {}
        "panic" => return,
        other => panic!(
            "KERNEL_CORE_BUILD_ASSERT={other:?} is not understood: use `link` (the default) or `panic`"
        ),
    }

    // Unoptimized code keeps every call, so a link-time check would fail every build: there,
    // `build_error` panics at run time instead, like the kernel's CONFIG_RUST_BUILD_ASSERT_ALLOW.
    if var("OPT_LEVEL") == "0" || env::var_os("CARGO_CFG_MIRI").is_some() {
        return;
    }

    // Linker scripts exist for ELF linkers only; the marker needs `global_asm!`, which is stable
    // on these architectures.
    let elf = var("CARGO_CFG_TARGET_VENDOR") != "apple"
        && !matches!(
            var("CARGO_CFG_TARGET_OS").as_str(),
            "windows" | "uefi" | "aix"
        )
        && var("CARGO_CFG_TARGET_FAMILY") != "wasm";
    let asm = matches!(
        var("CARGO_CFG_TARGET_ARCH").as_str(),
        "x86" | "x86_64" | "arm" | "aarch64" | "riscv32" | "riscv64" | "loongarch64"
    );
    if !(elf && asm) {
        return;
    }

    let out = PathBuf::from(var("OUT_DIR"));
    let script = format!("ASSERT(!DEFINED({MARKER}), \"{MESSAGE}\");\n");
    assert!(
        !MESSAGE.contains('"'),
        "a linker script string cannot contain a double quote"
    );
    fs::write(out.join("libkernel_core_build_assert.a"), script)
        .expect("writing the build_assert linker script into OUT_DIR");

    println!("cargo:rustc-cfg=kernel_core_link_check");
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static:-bundle=kernel_core_build_assert");
}
