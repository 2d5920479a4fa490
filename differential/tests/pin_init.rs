// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of kernel-core's `pin_init` against Linux 7.3's own
//! (`rust/pin-init/`, its proc macros included, built on the host as the kernel builds it; see
//! `pin-init/`).
//!
//! The scenarios are one file, `pin-init-probe/src/scenarios.rs`, which runs twice: on Linux
//! 7.3's crate in `linux7_3_pin_init_probe`, and on kernel-core's here, where it is included as
//! the module `ours` (the macros' expansions name `::pin_init`, and each side reaches its own
//! crate by that name). Each scenario records every initialiser that ran or failed, every value
//! expression and code block, every drop and pinned drop, and the result; the two records must
//! be the same, line for line, for every combination of the scenario's inputs:
//!
//! - `pin_init!` and `init!` of structs with initialisers (`<-`), values (`:`), code blocks
//!   (`_: {}`), a value that reads an earlier field, `? Error` and `#[default_error]`, with each
//!   initialiser failing and each value panicking in turn: what is dropped, in what order;
//!   `stack_try_pin_init!` with and without `=?`, `project()`, `#[pinned_drop]`;
//! - `init_array_from_fn` and `pin_init_array_from_fn` of 0, 1 and 5 elements, each element
//!   failing in turn; `chain` and `pin_chain`; `pin_init_scope` and `init_scope`; values and
//!   `Result`s as initialisers; `Wrapper` for `UnsafeCell` and `MaybeUninit`;
//! - `..Zeroable::init_zeroed()`, `init_zeroed()`, `zeroed()`, and `&this in`;
//! - which of 70 types implement `Zeroable` (the standard types, the derives' results on
//!   concrete and generic structs, `#[derive(MaybeZeroable)]`), and which `#[pin_data]` structs
//!   are `Unpin`, `Send` and `Sync`.
//!
//!
//! And every compile-fail case of kernel-core's crate (`ui-tests/ui/cases/pin_init_*.rs`) must
//! fail to build on Linux 7.3's too, and not for a name it lacks: a misuse kernel-core rejects
//! is one the kernel rejects ([`every_misuse_kernel_core_rejects_linux_7_3_rejects`]). The
//! crate's own tests (`pin-init/tests/`) also run against Linux 7.3's crate with
//! `pin-init/against-linux.sh`.

// Without `#[macro_use]`: `ours` defines `implements!` itself (from the same file).
mod common;

#[path = "doc_examples/json.rs"]
mod json;
#[path = "common/package.rs"]
mod package;

use linux7_3_pin_init_probe::scenarios as theirs;
use std::path::Path;
use std::process::Command;

/// The scenarios on kernel-core's `pin_init`.
#[allow(dead_code)]
#[path = "../pin-init-probe/src/scenarios.rs"]
mod ours;

/// Where an initialiser fails or a value panics: nowhere, or at each of the scenarios' numbers
/// (0 to 5; a scenario has at most five), and one beyond.
const WHERE: [Option<usize>; 7] = [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(5)];

/// Runs the scenario `$scenario` with the same arguments on both sides and asserts that they
/// recorded the same lines ([`common::same`], which also silences the expected panics).
macro_rules! same_scenario {
    ($scenario:ident $(::<$n:literal>)? ($($argument:expr),* $(,)?)) => {
        common::same(
            &format!(
                concat!(stringify!($scenario), $("::<", stringify!($n), ">",)? "{:?}"),
                ($($argument,)*)
            ),
            || ours::$scenario $(::<$n>)? ($($argument),*),
            || theirs::$scenario $(::<$n>)? ($($argument),*),
        )
    };
}

#[test]
fn pinned_structs_initialise_fail_and_drop_alike() {
    for fail in WHERE {
        for panic in WHERE {
            same_scenario!(pinned_struct(fail, panic));
        }
    }
}

#[test]
fn the_default_error_and_propagation_behave_alike() {
    for fail in WHERE {
        same_scenario!(default_error(fail));
    }
}

#[test]
fn plain_structs_initialise_fail_and_drop_alike() {
    for fail in WHERE {
        for panic in WHERE {
            same_scenario!(plain_struct(fail, panic));
        }
    }
}

#[test]
fn arrays_initialise_fail_and_drop_alike() {
    for fail in WHERE {
        same_scenario!(arrays::<0>(fail));
        same_scenario!(arrays::<1>(fail));
        same_scenario!(arrays::<5>(fail));
    }
}

#[test]
fn chains_and_scopes_behave_alike() {
    for fail in WHERE {
        for second in [false, true] {
            same_scenario!(chains(fail, second));
            same_scenario!(scopes(second, fail));
        }
    }
}

#[test]
fn values_results_and_wrappers_behave_alike() {
    for fail in WHERE {
        same_scenario!(values_and_wrappers(fail));
    }
}

#[test]
fn zeroing_and_self_references_behave_alike() {
    for first in [0, 1, 0xff, u32::MAX] {
        same_scenario!(zeroes(first));
    }
    for byte in [0, 0x5a, u8::MAX] {
        same_scenario!(self_reference(byte));
    }
}

#[test]
fn the_same_types_are_zeroable_unpin_send_and_sync() {
    same_scenario!(zeroable_types());
    same_scenario!(auto_traits());
}

/// The scenarios record something: a probe whose records were empty on both sides would agree
/// vacuously.
#[test]
fn the_scenarios_record_what_happens() {
    let trace = theirs::pinned_struct(Some(2), None);
    assert_eq!(
        trace,
        [
            "init 0",
            "value 1",
            "code block",
            "fail 2",
            "drop 1",
            "drop 0",
            "err Fail(2)"
        ],
        "Linux 7.3: a failing `c` drops `b` and `a`, in reverse order"
    );
    assert!(theirs::zeroable_types()
        .iter()
        .any(|&(_, zeroable)| zeroable));
    assert!(theirs::zeroable_types()
        .iter()
        .any(|&(_, zeroable)| !zeroable));
}

/// Builds `source` as a binary crate named `name` with Linux 7.3's `pin_init` as its `pin_init`
/// (`rlib`, its dependencies in `deps`): rustc's output if it fails.
fn build_on_linux_pin_init(rlib: &Path, deps: &Path, name: &str, source: &Path) -> Option<String> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pin-init-cases");
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("creating {}: {e}", out.display()));
    let mut extern_pin_init = std::ffi::OsString::from("pin_init=");
    extern_pin_init.push(rlib);
    let mut dependency = std::ffi::OsString::from("dependency=");
    dependency.push(deps);
    let output = Command::new(env!("KERNEL_CORE_DIFFERENTIAL_RUSTC"))
        .args(["--edition=2021", "--crate-type=bin", "--crate-name", name])
        .arg("--extern")
        .arg(extern_pin_init)
        .arg("-L")
        .arg(dependency)
        .arg("--out-dir")
        .arg(&out)
        .args(["--error-format=short", "--color=never"])
        .arg(source)
        .output()
        .expect("running rustc");
    (!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Every compile-fail case of kernel-core's `pin_init` fails on Linux 7.3's own crate too, for
/// a reason of its own: not a name that does not resolve (which would also fail a case that
/// the kernel takes). A correct program builds there first, so that the command line is known
/// to work.
#[test]
fn every_misuse_kernel_core_rejects_linux_7_3_rejects() {
    let cross = env!("KERNEL_CORE_DIFFERENTIAL_CROSS");
    if !cross.is_empty() {
        println!("the cases are built for the host, not for {cross}: see the host's runs");
        return;
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let built = package::build(
        "kc-linux-pin-init",
        &format!(
            "pin_init = {{ package = \"kernel-core-differential-pin-init\", path = {:?} }}",
            crate_dir.join("pin-init").display().to_string()
        ),
        &[(
            "KERNEL_CORE_LINUX_SRC",
            env!("KERNEL_CORE_DIFFERENTIAL_TREE"),
        )],
    );
    let rlib = built.library("linux7_3_pin_init");
    let deps = built.deps("linux7_3_pin_init");

    let control = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pin_init_control.rs");
    std::fs::write(
        &control,
        "use core::marker::PhantomPinned;\n\
         use pin_init::{pin_data, pin_init, stack_pin_init};\n\
         #[pin_data]\n\
         struct Device { #[pin] _pin: PhantomPinned, id: u32 }\n\
         fn main() {\n\
             stack_pin_init!(let dev = pin_init!(Device { _pin: PhantomPinned, id: 1 }));\n\
             assert_eq!(dev.id, 1);\n\
         }\n",
    )
    .unwrap_or_else(|e| panic!("writing {}: {e}", control.display()));
    if let Some(errors) = build_on_linux_pin_init(rlib, deps, "pin_init_control", &control) {
        panic!("a correct program does not build on Linux 7.3's pin_init:\n{errors}");
    }

    let cases_dir = crate_dir.join("../ui-tests/ui/cases");
    let mut cases: Vec<_> = std::fs::read_dir(&cases_dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", cases_dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("pin_init_") && name.ends_with(".rs"))
        })
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 10,
        "too few pin_init cases in {}",
        cases_dir.display()
    );
    for case in &cases {
        let name = case
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 name");
        let Some(errors) = build_on_linux_pin_init(rlib, deps, name, case) else {
            panic!(
                "{} is a compile error with kernel-core's pin_init, but builds with Linux 7.3's",
                case.display()
            );
        };
        // E0432/E0433: an unresolved import or path; E0412/E0425: an unknown type or value.
        for code in ["E0432", "E0433", "E0412", "E0425"] {
            assert!(
                !errors.contains(&format!("error[{code}]")),
                "{} fails on Linux 7.3's pin_init for a name it lacks ({code}), not for the \
                 misuse:\n{errors}",
                case.display()
            );
        }
    }
}
