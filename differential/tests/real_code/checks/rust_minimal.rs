// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The run of Linux 7.3's `samples/rust/rust_minimal.rs` on kernel-core: what `insmod`, `rmmod`
//! and `modinfo` show of it.
//!
//! `tests/real_code.rs` builds the sample unchanged but for `kernel::` written `kernel_core::`,
//! as a loadable module (`--cfg MODULE`, as Kbuild builds `obj-m`), and makes this file a child
//! module of the sample's crate root, so that it reaches the sample's private items as a test
//! inside the sample would. The expected lines are what the sample's `pr_info!`s print, read from
//! its source: `init` prints its banner, whether it is built in and its two parameters, and
//! `Drop` (its `module_exit()`) prints the numbers `init` pushed into its `KVec` and a last line.
//! The kernel's log prefixes each line with the module's name (`pr_fmt`, from `KBUILD_MODNAME`).

extern crate std;

use super::*;
use kernel_core::extras::log;
use kernel_core::extras::module::{load, load_with, Declared};

/// `insmod rust_minimal.ko`, then `rmmod rust_minimal`: the log of each, and the module's state.
#[test]
fn loads_and_unloads_with_the_default_parameters() {
    let log = log::capture();
    let loaded = load::<RustMinimal>().expect("insmod rust_minimal.ko");
    assert_eq!(
        log.take(),
        [
            "<6>rust_minimal: Rust minimal sample (init)",
            "<6>rust_minimal: Am I built-in? false",
            "<6>rust_minimal: test_parameter: 1",
            "<6>rust_minimal: test_bool_parameter: false",
        ]
    );
    assert_eq!(loaded.numbers.as_slice(), [72, 108, 200]);
    loaded.unload();
    assert_eq!(
        log.take(),
        [
            "<6>rust_minimal: My numbers are [72, 108, 200]",
            "<6>rust_minimal: Rust minimal sample (exit)",
        ]
    );
}

/// `insmod rust_minimal.ko test_parameter=-42 test-bool-parameter=y`: `init` prints the values
/// given, and the next load without parameters the defaults again.
#[test]
fn prints_the_parameters_it_is_loaded_with() {
    let log = log::capture();
    load_with::<RustMinimal>("test_parameter=-42 test-bool-parameter=y")
        .expect("insmod rust_minimal.ko with parameters")
        .unload();
    let lines = log.take();
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[2], "<6>rust_minimal: test_parameter: -42");
    assert_eq!(lines[3], "<6>rust_minimal: test_bool_parameter: true");

    load::<RustMinimal>()
        .expect("insmod rust_minimal.ko")
        .unload();
    let lines = log.take();
    assert_eq!(lines[2], "<6>rust_minimal: test_parameter: 1");
    assert_eq!(lines[3], "<6>rust_minimal: test_bool_parameter: false");
}

/// A parameter that does not parse fails `insmod` before `init` runs: the sample prints nothing.
#[test]
fn a_bad_parameter_fails_the_load_before_init() {
    let log = log::capture();
    let result = load_with::<RustMinimal>("test_parameter=lots");
    assert_eq!(result.err(), Some(EINVAL));
    assert!(
        !log.lines()
            .iter()
            .any(|line| line.text().contains("Rust minimal sample")),
        "{:?}",
        log.lines()
    );
}

/// `modinfo rust_minimal.ko`: what the sample's `module!` declares.
#[test]
fn modinfo_shows_what_module_declares() {
    let info = RustMinimal::modinfo();
    assert_eq!(info.name, "rust_minimal");
    assert_eq!(info.authors, ["Rust for Linux Contributors"]);
    assert_eq!(info.description, Some("Rust minimal sample"));
    assert_eq!(info.license, "GPL");
    let params: std::vec::Vec<_> = info
        .params
        .iter()
        .map(|p| (p.name, p.type_name, p.description))
        .collect();
    assert_eq!(
        params,
        [
            ("test_parameter", "i64", "This parameter has a default of 1"),
            (
                "test_bool_parameter",
                "bool",
                "This boolean parameter defaults to false"
            ),
        ]
    );
}
