// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! QEMU's machine protocol (QMP), as much of it as saving and resuming a guest needs: connect
//! to the socket that `-qmp unix:PATH,server=on,wait=off` opens, and run commands.
//!
//! QMP is JSON, one object per line: QEMU greets, the client leaves negotiation mode with
//! `qmp_capabilities`, then each `{"execute": ...}` is answered by `{"return": ...}` or
//! `{"error": {"class", "desc"}}`; events (`{"event": ...}`) may come in between and are
//! skipped. See QEMU's `docs/interop/qmp-spec.rst`.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A QMP connection, out of negotiation mode.
pub struct Qmp {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    /// The socket's path, for errors.
    path: PathBuf,
}

impl Qmp {
    /// Connects to the socket at `path`, waiting up to `wait` for QEMU to open it, and leaves
    /// negotiation mode.
    pub fn connect(path: &Path, wait: Duration) -> Result<Self> {
        let start = Instant::now();
        let stream = loop {
            match UnixStream::connect(path) {
                Ok(stream) => break stream,
                Err(e) if start.elapsed() >= wait => {
                    anyhow::bail!(
                        "cannot connect to QEMU's QMP socket {}: {e}",
                        path.display()
                    )
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        // A QEMU that stops answering must not hang the run.
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .at(path)?;
        let mut qmp = Self {
            reader: BufReader::new(stream.try_clone().at(path)?),
            writer: stream,
            path: path.to_path_buf(),
        };
        let greeting = qmp.next()?;
        if greeting.get("QMP").is_none() {
            anyhow::bail!("QEMU's QMP socket did not greet: {greeting}");
        }
        qmp.execute("qmp_capabilities", json!({}))?;
        Ok(qmp)
    }

    /// The next object QEMU sends.
    fn next(&mut self) -> Result<Value> {
        let mut line = String::new();
        if self.reader.read_line(&mut line).at(&self.path)? == 0 {
            anyhow::bail!("{}: QEMU closed its QMP socket", self.path.display());
        }
        serde_json::from_str(&line)
            .map_err(|e| anyhow::anyhow!("{}: not JSON ({e}): {line}", self.path.display()))
    }

    /// Runs `command` with `arguments` (an object) and returns what it returned.
    pub fn execute(&mut self, command: &str, arguments: Value) -> Result<Value> {
        let request = json!({ "execute": command, "arguments": arguments });
        writeln!(self.writer, "{request}").at(&self.path)?;
        loop {
            let mut answer = self.next()?;
            if let Some(value) = answer.get_mut("return") {
                return Ok(value.take());
            }
            if let Some(error) = answer.get("error") {
                anyhow::bail!(
                    "QEMU refused `{command}`: {}",
                    error.get("desc").and_then(Value::as_str).unwrap_or("?")
                );
            }
            // An event: not the answer.
        }
    }

    /// Polls `query-migrate` until the migration (outgoing or incoming) has completed, or fails
    /// if it failed or `timeout` passed.
    pub fn wait_for_migration(&mut self, timeout: Duration) -> Result {
        let start = Instant::now();
        loop {
            let status = self.execute("query-migrate", json!({}))?;
            match status.get("status").and_then(Value::as_str) {
                Some("completed") => return Ok(()),
                Some("failed" | "cancelled") => anyhow::bail!(
                    "QEMU's migration failed: {}",
                    status
                        .get("error-desc")
                        .and_then(Value::as_str)
                        .unwrap_or("no reason given")
                ),
                _ if start.elapsed() >= timeout => {
                    anyhow::bail!("QEMU's migration did not complete within {timeout:?}")
                }
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }
}
