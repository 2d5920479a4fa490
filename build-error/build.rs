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
//! [`build_error`] was kept by the optimizer, and then the `ASSERT` fails the link with a message
//! that names `build_error` and points at the documentation.
//!
//! `KERNEL_CORE_BUILD_ASSERT=panic` turns the link-time check off, for linkers that cannot read
//! GNU linker scripts: unprovable assertions then panic at run time, as in a debug build.
//!
//! [`build_error`]: https://docs.rs/kernel-core-build-error/latest/kernel_core_build_error/fn.build_error.html

use std::{env, fs, path::PathBuf};

/// The marker symbol, also spelled out in `src/lib.rs`.
const MARKER: &str = "kernel_core_build_error_linked";

/// What the linker prints when the check fails. A linker script string cannot hold a `"`.
const MESSAGE: &str = "kernel-core: build_error was linked: a build_assert!() or build_error!() \
call survived optimization, so its condition could not be proven at compile time. Make the \
inputs compile-time known (an #[inline(always)] caller, constant arguments) or use \
const_assert!/static_assert!. A debug build panics at the failing call and names it. See \
https://docs.rs/kernel-core/latest/kernel_core/build_assert/index.html";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=KERNEL_CORE_BUILD_ASSERT");
    println!("cargo:rustc-check-cfg=cfg(kernel_core_link_check)");

    let var = |name: &str| env::var(name).unwrap_or_default();

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
