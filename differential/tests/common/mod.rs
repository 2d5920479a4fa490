// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Helpers shared by the differential tests: running one side of a comparison and recording
//! whether it returned or panicked, without printing the expected panics; edge values and
//! strategies; and [`implements!`], to compare which traits the types of each side implement.

// Each test crate uses only some of these.
#![allow(dead_code, unused_macros)]

use std::{
    cell::Cell,
    panic::{self, AssertUnwindSafe},
    sync::Once,
};

use proptest::prelude::*;

/// What running one side of a comparison did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<T> {
    /// It returned this value.
    Value(T),
    /// It panicked with this message.
    Panic(String),
}

thread_local! {
    /// Set while [`outcome`] runs a closure: its panics are expected and not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, catching a panic. The panic hook stays silent for it (and only for it: panics of
/// the test itself, such as failed assertions, are printed as usual).
pub fn outcome<T>(f: impl FnOnce() -> T) -> Outcome<T> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.get() {
                previous(info);
            }
        }));
    });

    QUIET.set(true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.set(false);

    match result {
        Ok(value) => Outcome::Value(value),
        Err(payload) => Outcome::Panic(
            payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "<non-string panic payload>".to_owned()),
        ),
    }
}

/// Asserts that kernel-core (`ours`) and Linux 7.3 (`theirs`) agree: both return the same
/// value, or both panic, and with the same message.
#[track_caller]
pub fn same<T: PartialEq + core::fmt::Debug>(
    what: &str,
    ours: impl FnOnce() -> T,
    theirs: impl FnOnce() -> T,
) {
    let ours = outcome(ours);
    let theirs = outcome(theirs);
    if let (Outcome::Panic(our_message), Outcome::Panic(their_message)) = (&ours, &theirs) {
        assert_eq!(
            our_message, their_message,
            "{what}: both panic, but kernel-core's message (left) differs from Linux 7.3's (right)"
        );
    } else {
        assert_eq!(
            ours, theirs,
            "{what}: kernel-core (left) disagrees with Linux 7.3 (right)"
        );
    }
}

/// `i64`s that reach the interesting regions often: uniform bits alone almost never land near
/// zero or near the ends of the range.
pub fn any_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        -3_000_000_i64..=3_000_000,
        (i64::MAX - 3_000_000)..=i64::MAX,
        i64::MIN..=(i64::MIN + 3_000_000),
        // Near the saturation edges of `from_micros`, `from_millis` and `from_secs`.
        (i64::MAX / 1_000 - 3)..=(i64::MAX / 1_000 + 3),
        (i64::MIN / 1_000 - 3)..=(i64::MIN / 1_000 + 3),
        (i64::MAX / 1_000_000 - 3)..=(i64::MAX / 1_000_000 + 3),
        (i64::MIN / 1_000_000 - 3)..=(i64::MIN / 1_000_000 + 3),
        (i64::MAX / 1_000_000_000 - 3)..=(i64::MAX / 1_000_000_000 + 3),
        (i64::MIN / 1_000_000_000 - 3)..=(i64::MIN / 1_000_000_000 + 3),
    ]
}

/// `i64` edge values: the ends of the range, zero and the unit boundaries around it.
pub fn i64_edges() -> Vec<i64> {
    let mut edges = vec![
        i64::MIN,
        i64::MIN + 1,
        i64::MIN + 999,
        i64::MIN + 1_000,
        i64::MIN + 999_999,
        i64::MIN + 1_000_000,
        -1_000_000_001,
        -1_000_000_000,
        -999_999_999,
        -1_000_001,
        -1_000_000,
        -999_999,
        -1001,
        -1000,
        -999,
        -2,
        -1,
        0,
        1,
        2,
        999,
        1000,
        1001,
        999_999,
        1_000_000,
        1_000_001,
        999_999_999,
        1_000_000_000,
        1_000_000_001,
        i64::MAX - 1_000_000,
        i64::MAX - 999_999,
        i64::MAX - 1000,
        i64::MAX - 999,
        i64::MAX - 1,
        i64::MAX,
    ];
    // The saturation edges of `from_micros`, `from_millis` and `from_secs`.
    for unit in [1_000, 1_000_000, 1_000_000_000] {
        for edge in [i64::MAX / unit, i64::MIN / unit] {
            edges.extend((-2..=2).map(|d| edge + d));
        }
    }
    edges
}

// `implements!($ty: $tr)`, which `pin-init-probe/src/scenarios.rs` includes too.
include!("implements.rs");

/// Which of the standard traits that a derive or an API could add `$ty` implements.
macro_rules! std_traits {
    ($ty:ty) => {
        [
            ("Clone", implements!($ty: Clone)),
            ("Copy", implements!($ty: Copy)),
            ("Debug", implements!($ty: core::fmt::Debug)),
            ("Default", implements!($ty: Default)),
            ("PartialEq", implements!($ty: PartialEq)),
            ("Eq", implements!($ty: Eq)),
            ("PartialOrd", implements!($ty: PartialOrd)),
            ("Ord", implements!($ty: Ord)),
            ("Hash", implements!($ty: core::hash::Hash)),
            ("Send", implements!($ty: Send)),
            ("Sync", implements!($ty: Sync)),
            ("Unpin", implements!($ty: Unpin)),
        ]
    };
}

/// Asserts that kernel-core's `$ours` and Linux 7.3's `$theirs` implement the same standard
/// traits.
macro_rules! same_std_traits {
    ($ours:ty, $theirs:ty) => {
        assert_eq!(
            std_traits!($ours),
            std_traits!($theirs),
            "standard traits of kernel-core's `{}` (left) and Linux 7.3's `{}` (right)",
            stringify!($ours),
            stringify!($theirs),
        )
    };
}

/// The variable `cargo xtask` sets when the tests run under qemu-user (the emulated hosts).
pub const EMULATED: &str = "KERNEL_CORE_EMULATED";

/// How many cases a property test runs: `native` on the host's own CPU, an eighth of it on
/// an emulated host, which runs them some 20 times slower and is there for its byte order and
/// word size, which the edges and a few hundred random cases show as well.
pub fn cases(native: u32) -> u32 {
    if std::env::var_os(EMULATED).is_some() {
        (native / 8).max(64)
    } else {
        native
    }
}
