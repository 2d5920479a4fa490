// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's detectors that live in a test's scope (feature `std`): failed allocations, as the
//! kernel's fault injection makes them (`fail_nth`, `failslab`), leaks, as kmemleak reports
//! them, and locks left held, as lockdep's `debug_check_no_locks_held()` reports them.
//!
//! - [`scope`]: the per-test scope. Every `#[kunit_tests]` case on the host runs in one
//!   (`kunit_rt::run_case`); other tests open one with `extras::scope::enter()`. It owns the
//!   bookkeeping of the allocations made in it (by its thread, and by the threads that attach
//!   to it), its fault injection, and the checks at its end, which fail the test with the
//!   kernel's words.
//! - [`faults`]: `admit` of the allocation seam (`env/host/alloc/backend.rs`) counts each
//!   allocation of a scope and fails the one `fail_nth` names, printing
//!   `FAULT_INJECTION: forcing a failure.` with the allocation's site.
//! - [`leaks`]: `record` of the seam keeps every live allocation of a scope with its site; at
//!   the scope's end the ones still live are reported as `unreferenced object 0x... (size N):`
//!   with a `backtrace:` of their `file:line`.
//! - [`held`]: `lock_acquire` and `lock_release` of sync's hooks (`env/host/sync/hooks.rs`)
//!   keep, per thread, the locks a scope's members hold; at the scope's end the ones still
//!   held are reported as `WARNING: <comm>/<pid> still has locks held!`.
//!
//! Nothing here runs for an allocation or a lock taken outside every scope, and without the
//! `std` feature none of it is built: the seams' hooks do nothing.
//!
//! These are the modules of `env/host/detect/` that a test's scope owns; lockdep's lock order
//! and the atomic-sleep check (`env/host/detect.rs`, `detect/lockdep.rs`,
//! `detect/atomic_sleep.rs`) watch every thread, scope or not.
//!
//! # The environment
//!
//! Read once per process, when its first scope opens:
//!
//! | variable | effect |
//! |---|---|
//! | `KERNEL_CORE_DETECTORS=off` (or `0`, `false`, `no`) | no bookkeeping: scopes count nothing, inject nothing, check nothing (what the benchmark's ratio compares against); the switch of every host detector |
//! | `KERNEL_CORE_FAIL_NTH=n` | every scope starts with `fail_nth(n)`: its `n`th allocation fails |
//! | `KERNEL_CORE_ALLOW_LEAKS=name,...` | the leaks of these tests are not reported: a test's name as `cargo test` lists it (`ring::tests::grows`), its last part or parts (`tests::grows`, `grows`), or a prefix ending in `*` (`ring::*`) |
//! | `KERNEL_CORE_SCOPE_REPORT=file` | every scope appends one line of JSON to `file` when it ends ([`scope`] documents it): what `cargo kernel-core test --fail-each-alloc` reads |

#[path = "faults.rs"]
pub(crate) mod faults;
#[path = "held.rs"]
pub(crate) mod held;
#[path = "leaks.rs"]
pub(crate) mod leaks;
#[path = "scope.rs"]
pub(crate) mod scope;
