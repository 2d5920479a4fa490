// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Each cell's `run.json` ([`CellRun`]), which benchmarks, CI and the next run read: written
//! atomically into the cell's directory when the cell finishes.

use crate::infra::error::Result;
use crate::infra::files;
use crate::model::cell;
use crate::model::event::{Event, Lane, Reporter};
use crate::model::report::{CellRun, Report};

/// The `run.json` reporter.
#[derive(Debug, Default)]
pub struct RunJson;

impl Reporter for RunJson {
    fn report(&self, _: Option<&Lane>, event: &Event<'_>) -> Result {
        match event {
            Event::CellFinished { report } => write(report),
            _ => Ok(()),
        }
    }
}

/// Writes `report`'s `run.json` into its cell's directory, atomically.
pub fn write(report: &Report) -> Result {
    let path = report.dir.join(cell::RUN_JSON);
    let text = serde_json::to_string_pretty(&CellRun::of(report)).expect("plain data serializes");
    files::write_atomic(&path, text + "\n", None)
}
