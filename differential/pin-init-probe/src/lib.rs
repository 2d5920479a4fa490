// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The pin-init scenarios ([`scenarios`]) on Linux 7.3's own `pin_init` crate, for the
//! differential tests (`tests/pin_init.rs`), which run the same file on kernel-core's.

pub mod scenarios;
