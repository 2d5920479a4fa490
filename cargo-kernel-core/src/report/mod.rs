// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a run tells: the reporters of its event stream ([`crate::model::event`]). Each takes
//! the events it needs and ignores the others; the command that runs assembles them.
//!
//! - [`terminal::Terminal`]: the lines a person reads, cells side by side kept apart;
//! - [`junit::Junit`]: a `junit.xml` per plan;
//! - [`ktap::KtapFiles`]: a `ktap-<module>.log` per module that printed KTAP;
//! - [`run_json::RunJson`]: a `run.json` per cell;
//! - [`summary::Summary`]: the tables at the run's end;
//! - [`json_lines::JsonLines`]: every event as a line of JSON (`--events FILE`).

pub mod json_lines;
pub mod junit;
pub mod ktap;
pub mod run_json;
pub mod summary;
pub mod terminal;
