// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Every event as a line of JSON, as it happens (`cargo kernel-core test --events FILE`): for
//! editors, CI annotations and whatever else follows a run. Each line is one object: the
//! event's name (`"event": "case-finished"`), its fields, and the lane it belongs to
//! (`"lane": {"index": 0, "cell": "7.3-um"}`) when it belongs to a cell's. Lines come in the
//! order the events happened, cells side by side interleaved.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::model::event::{Event, Lane, Reporter};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The JSON-lines reporter.
pub struct JsonLines {
    path: PathBuf,
    out: Mutex<BufWriter<File>>,
}

/// One line: the lane, then the event's fields.
#[derive(Serialize)]
struct Line<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    lane: Option<&'a Lane>,
    #[serde(flatten)]
    event: &'a Event<'a>,
}

impl JsonLines {
    /// Events to the file `path` (created, or emptied).
    pub fn create(path: &Path) -> Result<Self> {
        let file = File::create(path).at(path)?;
        Ok(Self {
            path: path.to_path_buf(),
            out: Mutex::new(BufWriter::new(file)),
        })
    }
}

impl Reporter for JsonLines {
    fn report(&self, lane: Option<&Lane>, event: &Event<'_>) -> Result {
        let line = serde_json::to_string(&Line { lane, event })
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.path.display()))?;
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .at(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::{self, Events};

    #[test]
    fn one_object_per_event_with_its_lane() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let events = Events::new(vec![Box::new(JsonLines::create(&path).unwrap())]);
        {
            let _installed = events.install();
            event::emit(&Event::RunStarted { cells: 1 }).unwrap();
            let lane = Lane {
                index: 0,
                cell: "7.3-um".into(),
            };
            let _entered = events.enter(Some(lane));
            crate::note!("    $ make");
            event::emit(&Event::LaneFinished).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0]["event"], "run-started");
        assert!(lines[0].get("lane").is_none());
        assert_eq!(lines[1]["event"], "note");
        assert_eq!(lines[1]["line"], "    $ make");
        assert_eq!(lines[1]["lane"]["cell"], "7.3-um");
        assert_eq!(lines[2]["event"], "lane-finished");
        assert_eq!(lines[2]["lane"]["index"], 0);
    }
}
