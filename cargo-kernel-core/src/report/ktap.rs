// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The KTAP log of each module that printed one, in its plan's directory
//! (`ktap-<module>.log`): one document per file, since `kunit.py parse` reads the first
//! document of a file only.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::model::cell;
use crate::model::event::{Event, Lane, Reporter};
use std::fs;
use std::path::{Path, PathBuf};

/// The KTAP reporter.
#[derive(Debug, Default)]
pub struct KtapFiles;

impl Reporter for KtapFiles {
    fn report(&self, _: Option<&Lane>, event: &Event<'_>) -> Result {
        match event {
            Event::Ktap { dir, module, lines } => write(dir, module, lines).map(drop),
            _ => Ok(()),
        }
    }
}

/// Writes the KTAP document `lines` of `module` into the plan directory `dir`; returns the
/// file.
pub fn write(dir: &Path, module: &str, lines: &[String]) -> Result<PathBuf> {
    let file = cell::ktap_file(dir, module);
    fs::write(&file, lines.join("\n") + "\n").at(&file)?;
    Ok(file)
}
