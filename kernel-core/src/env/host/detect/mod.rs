// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's detectors that live in a test's scope (feature `std`): failed allocations, as the
//! kernel's fault injection makes them (`fail_nth`, `failslab`), and leaks, as kmemleak reports
//! them.
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
//!
//! Nothing here runs for an allocation made outside every scope, and without the `std`
//! feature none of it is built: the seam's hooks do nothing.
//!
//! # The environment
//!
//! Read once per process, when its first scope opens:
//!
//! | variable | effect |
//! |---|---|
//! | `KERNEL_CORE_SCOPE=off` | no bookkeeping: scopes count nothing, inject nothing, check nothing (to measure what the bookkeeping costs) |
//! | `KERNEL_CORE_FAIL_NTH=n` | every scope starts with `fail_nth(n)`: its `n`th allocation fails |
//! | `KERNEL_CORE_SCOPE_REPORT=file` | every scope appends one line of JSON to `file` when it ends ([`scope`] documents it): what `cargo kernel-core test --fail-each-allocation` reads |

pub(crate) mod faults;
pub(crate) mod leaks;
pub(crate) mod scope;
