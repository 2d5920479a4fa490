// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The work of a run: the plans of each cell ([`cell`]) built ([`module`], [`probes`]),
//! booted ([`guest`], [`initramfs`]) and judged ([`verdict`], [`build_error`]), cells
//! scheduled side by side ([`lanes`]), and a driver's host suites ([`host`]).

pub mod build_error;
pub mod cell;
pub mod guest;
pub mod host;
pub mod initramfs;
pub mod lanes;
pub mod module;
pub mod plan;
pub mod probes;
pub mod snapshot;
pub mod verdict;
