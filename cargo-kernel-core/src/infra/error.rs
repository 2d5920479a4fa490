// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Errors: every one says what went wrong and what to do, and every I/O error names its path.
//! `anyhow` carries them; [`Context`] is the one way to add what an I/O error was about.

use std::path::Path;

/// An error the user can act on: what went wrong and what to do, with what it was about
/// (every I/O error names its path).
pub use anyhow::Error;

/// The result of a step.
pub type Result<T = (), E = Error> = std::result::Result<T, E>;

/// Adds to an I/O error what it was about: every I/O error names its path (or, for the few
/// that have none, what was being done).
pub trait Context<T> {
    /// `"<path>: <error>"`.
    fn at(self, path: impl AsRef<Path>) -> Result<T>;
    /// `"<what>: <error>"`.
    fn doing(self, what: &str) -> Result<T>;
}

impl<T> Context<T> for std::io::Result<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T> {
        self.map_err(|e| anyhow::anyhow!("{}: {e}", path.as_ref().display()))
    }

    fn doing(self, what: &str) -> Result<T> {
        self.map_err(|e| anyhow::anyhow!("{what}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_name_their_path() {
        let missing = Path::new("/nonexistent/kernel-core/file");
        let error = std::fs::read_to_string(missing).at(missing).unwrap_err();
        let error = error.to_string();
        assert!(
            error.starts_with("/nonexistent/kernel-core/file: "),
            "{error}"
        );
        let error = std::fs::read("/nonexistent")
            .doing("reading x")
            .unwrap_err();
        let error = error.to_string();
        assert!(error.starts_with("reading x: "), "{error}");
    }
}
