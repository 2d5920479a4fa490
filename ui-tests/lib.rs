// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Compile-fail and link-fail tests of kernel-core: every misuse must get a clear error.
//!
//! This library is empty; the tests are in `tests/`:
//!
//! - `tests/ui.rs` runs the trybuild cases of `ui/cases/` (each file says what it checks)
//!   against the expected compiler output for the running toolchain, in
//!   `ui/rust-<major>.<minor>/`, which `build.rs` detects.
//! - `tests/link.rs` builds the packages in `fixtures/` with cargo, optimized and not, with
//!   rust-lld and with GNU ld, to check that an unprovable `build_assert!` fails the final link
//!   naming its `file:line:column` and its function in the linker's first lines, that provable
//!   ones link, that a debug build panics at the assertion instead, and (`const-false`) that a
//!   release build still fails const evaluation with the message.
