// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Console output: whole lines, built in a fixed stack buffer and written with one `write`.
//!
//! Writing each line in a single system call keeps it from being split by kernel messages
//! (`pr_info` from a module's init runs while `/init` waits in `finit_module`), which matters
//! because the host parses the console log line by line.
//!
//! Lines go to `/dev/kmsg`, the kernel's own log, rather than straight to the console: consoles
//! that print from a kernel thread (Linux 7.2's PL011 on arm64 is one) would otherwise show
//! `/init`'s lines ahead of kernel messages logged before them, and the host reads the log in
//! order. `/dev/kmsg` is opened per line, since each open file is rate-limited to a few lines;
//! without it, output falls back to the descriptor given. Every line starts with
//! `kernel-core-init: ` so that the host can tell `/init`'s lines from the kernel's.

use crate::sys;

/// The prefix of every line `/init` prints.
const PREFIX: &[u8] = b"kernel-core-init: ";

/// The longest line, newline included; longer ones are cut and end in `...`.
const CAPACITY: usize = 512;

/// A console line under construction.
pub(crate) struct Line {
    buf: [u8; CAPACITY],
    len: usize,
    truncated: bool,
}

impl Line {
    /// A line holding just the `kernel-core-init: ` prefix.
    pub(crate) fn new() -> Self {
        let mut line = Line {
            buf: [0; CAPACITY],
            len: 0,
            truncated: false,
        };
        line.bytes(PREFIX);
        line
    }

    /// Appends raw bytes (file names need not be UTF-8).
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        // One byte stays free for the newline.
        let room = CAPACITY - 1 - self.len;
        let take = bytes.len().min(room);
        if take < bytes.len() {
            self.truncated = true;
        }
        if let (Some(dst), Some(src)) = (
            self.buf.get_mut(self.len..self.len + take),
            bytes.get(..take),
        ) {
            dst.copy_from_slice(src);
            self.len += take;
        }
        self
    }

    /// Appends a string.
    pub(crate) fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    /// Appends `n` in decimal.
    pub(crate) fn dec(&mut self, mut n: usize) -> &mut Self {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            if let Some(d) = digits.get_mut(start) {
                *d = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 || start == 0 {
                break;
            }
        }
        self.bytes(digits.get(start..).unwrap_or_default())
    }

    /// Appends `ok`, or `error <errno>`.
    pub(crate) fn outcome(&mut self, result: Result<(), sys::Errno>) -> &mut Self {
        match result {
            Ok(()) => self.str("ok"),
            Err(sys::Errno(e)) => self.str("error ").dec(e),
        }
    }

    /// Writes the line and a newline to standard output (the console).
    pub(crate) fn print(&mut self) {
        self.emit(sys::STDOUT);
    }

    /// Writes the line and a newline to standard error (also the console).
    pub(crate) fn eprint(&mut self) {
        self.emit(sys::STDERR);
    }

    fn emit(&mut self, fd: usize) {
        if self.truncated && self.len >= 3 {
            if let Some(tail) = self.buf.get_mut(self.len - 3..self.len) {
                tail.copy_from_slice(b"...");
            }
        }
        if let Some(nl) = self.buf.get_mut(self.len) {
            *nl = b'\n';
        }
        let line = self.buf.get(..self.len + 1).unwrap_or_default();
        let logged = sys::open_write(c"/dev/kmsg")
            .is_ok_and(|kmsg| sys::write_all(kmsg.raw(), line).is_ok());
        if !logged {
            // Nothing sensible is left to do if the console itself fails.
            let _ = sys::write_all(fd, line);
        }
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.str(s);
        Ok(())
    }
}
