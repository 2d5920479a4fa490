// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Progress lines: every long step says what it does and how long it took, and what runs
//! says so (`    $ command`). The layers above turn them into events of the run's stream
//! ([`set_sink`]); until then they go to standard output as they come.

use std::io::Write as _;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Prints a note line like `println!`: an event of the run's stream ([`note`]).
#[macro_export]
macro_rules! note {
    () => {
        $crate::infra::progress::note("")
    };
    ($($arg:tt)*) => {
        $crate::infra::progress::note(&format!($($arg)*))
    };
}

/// One progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A step begins: `==> what`.
    Step(&'a str),
    /// A step ended, after the time given: `    what (4.2s)`.
    Done(&'a str, Duration),
    /// Any other line, as it is shown (`    $ command`).
    Note(&'a str),
}

impl Line<'_> {
    /// The line as a terminal shows it, without its newline.
    pub fn text(&self) -> String {
        match self {
            Line::Step(what) => format!("==> {what}"),
            Line::Done(what, took) => format!("    {what} ({})", elapsed(*took)),
            Line::Note(line) => (*line).to_string(),
        }
    }
}

/// Where progress lines go once the layers above take them.
pub type Sink = dyn Fn(Line<'_>) + Send + Sync;

static SINK: OnceLock<Box<Sink>> = OnceLock::new();

/// Sends every progress line to `sink` from now on, instead of standard output. The first
/// call wins: the run has one stream.
pub fn set_sink(sink: Box<Sink>) {
    let _ = SINK.set(sink);
}

/// Sends `line` to the sink, or prints it.
pub fn emit(line: Line<'_>) {
    match SINK.get() {
        Some(sink) => sink(line),
        None => print_now(&format!("{}\n", line.text())),
    }
}

/// Writes `text` to standard output at once.
pub fn print_now(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Says that a step begins; returns when.
pub fn step(what: &str) -> Instant {
    emit(Line::Step(what));
    Instant::now()
}

/// Says that the step begun at `start` ended: `what`, with the time it took.
pub fn done(what: &str, start: Instant) {
    emit(Line::Done(what, start.elapsed()));
}

/// A line of its own (`    $ command`).
pub fn note(line: &str) {
    emit(Line::Note(line));
}

/// A count with a comma between thousands, as the reports print figures: `1,087`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Formats a duration as `1m05s` or `4.2s`.
pub fn elapsed(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    } else {
        format!("{secs:.1}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1087), "1,087");
        assert_eq!(thousands(2_000), "2,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn lines_read_as_they_always_did() {
        assert_eq!(Line::Step("building x").text(), "==> building x");
        assert_eq!(
            Line::Done("built", Duration::from_millis(4240)).text(),
            "    built (4.2s)"
        );
        assert_eq!(Line::Note("    $ make").text(), "    $ make");
        assert_eq!(elapsed(Duration::from_secs(65)), "1m05s");
    }
}
