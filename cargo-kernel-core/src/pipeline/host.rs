// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A driver's host suites, run before its cells: the same `#[kunit_tests]` suites as
//! ordinary tests, with cargo-nextest if it is installed.

use crate::infra::command::{self, cargo};
use crate::infra::error::Result;
use crate::infra::progress;
use crate::model::driver::Driver;
use anyhow::bail;

/// Runs the driver's host suites: `cargo nextest run` if cargo-nextest is installed, else
/// `cargo test` (said so). A failure is cargo's, reported with its exit status: a test that
/// failed, or a crate that did not build.
pub fn host_tests(driver: &Driver) -> Result {
    let has_nextest = cargo()
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mut cmd = cargo();
    if has_nextest {
        cmd.args(["nextest", "run", "--no-tests=warn"]);
    } else {
        crate::note!("    cargo-nextest is not installed (`cargo install --locked cargo-nextest`): running `cargo test`");
        cmd.arg("test");
    }
    cmd.current_dir(&driver.dir);
    let what = if has_nextest {
        "cargo nextest run"
    } else {
        "cargo test"
    };
    let start = progress::step(&format!("host suites of {} ({what})", driver.dir.display()));
    // Like every command the runner waits for: stopped at once if the run is interrupted.
    let status = command::status(&mut cmd, "is cargo on PATH?")?;
    if !status.success() {
        bail!(
            "`{what}` in {} failed ({status}): a host test failed or did not build (see its output above)",
            driver.dir.display()
        );
    }
    progress::done("host suites passed", start);
    Ok(())
}
