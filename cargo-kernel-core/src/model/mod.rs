// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What the runner works on and what it finds, as data: the matrix ([`arch`]), a driver
//! ([`driver`]), the plans a cell runs ([`plan`]), a built kernel ([`build`]), what a run
//! found ([`report`]), a cell's directory ([`cell`]), the events a run emits and the
//! reporters that consume them ([`event`]), and the formats a run reads (the console, KTAP,
//! the cases a module declares, kernel-core's API levels, the host's test results ([`host`])
//! and the lines of a host test's scope ([`scope`]).

pub mod api;
pub mod arch;
pub mod build;
pub mod cell;
pub mod console;
pub mod declared;
pub mod driver;
pub mod event;
pub mod host;
pub mod ktap;
pub mod plan;
pub mod report;
pub mod scope;
