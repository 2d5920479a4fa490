// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `rust-analyzer diagnostics` on the module, once the file is written: the proof that
//! rust-analyzer resolves the module's imports with it. What it reports in the module's files
//! and in kernel-core's (`kernel-core`, its macros and its pin-init crate) is printed (the
//! kernel's own crates are only counted), and with `--strict` an error there fails the run.

use super::{Sources, DIAGNOSTICS_TIMEOUT};
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{command, progress};
use anyhow::bail;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// One diagnostic of `rust-analyzer diagnostics`.
#[derive(Debug, PartialEq, Eq)]
struct Diagnostic {
    file: String,
    /// 1-based, as editors show them.
    line: usize,
    column: usize,
    severity: String,
    message: String,
}

/// Reads `rust-analyzer diagnostics` output: progress text with carriage returns, and lines
/// `at crate C, file F: Error Code from LineCol { line: L, col: C } to LineCol {...}: message`
/// with 0-based positions.
fn parse_diagnostics(output: &str) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    for part in output.split(['\r', '\n']) {
        let Some((_, rest)) = part.split_once("at crate ") else {
            continue;
        };
        let parsed = (|| {
            let (_, rest) = rest.split_once(", file ")?;
            let (file, rest) = rest.split_once(": ")?;
            let severity = rest.split_whitespace().next()?.to_string();
            let (_, position) = rest.split_once("from LineCol { line: ")?;
            let (line, position) = position.split_once(", col: ")?;
            let (column, _) = position.split_once(' ')?;
            let (_, message) = rest.split_once(" }: ")?;
            Some(Diagnostic {
                file: file.to_string(),
                line: line.parse::<usize>().ok()? + 1,
                column: column.parse::<usize>().ok()? + 1,
                severity,
                message: message.trim().to_string(),
            })
        })();
        if let Some(d) = parsed {
            if !found.contains(&d) {
                found.push(d);
            }
        }
    }
    found
}

/// Runs `rust-analyzer diagnostics` on the module if rust-analyzer is installed, and prints
/// what it reports for the module's files and kernel-core's (not the kernel's own).
pub(super) fn diagnostics(sources: &Sources, module: &Path, out: &Path, strict: bool) -> Result {
    let Some(version) = command::output(Command::new("rust-analyzer").arg("--version")) else {
        if strict {
            bail!("rust-analyzer is not installed (`rustup component add rust-analyzer`)");
        }
        crate::note!(
            "    rust-analyzer is not installed, so the file was not tried with it \
             (`rustup component add rust-analyzer`)"
        );
        return Ok(());
    };
    let start = progress::step(&format!(
        "rust-analyzer diagnostics {} ({}; a minute or more)",
        module.display(),
        version.trim()
    ));
    let log = out.join("diagnostics.log");
    let logged = crate::infra::process::run_logged(
        Command::new("rust-analyzer").arg("diagnostics").arg(module),
        &log,
        "rust-analyzer",
        Duration::from_secs(30),
        DIAGNOSTICS_TIMEOUT,
        &mut crate::infra::process::NoMonitor,
    )?;
    let text = fs::read_to_string(&log).at(&log)?;
    // It exits with an error when anything has an error, the kernel's own crates included.
    if logged.ending == crate::infra::process::Ending::TimedOut
        || !text.contains("diagnostic scan complete")
    {
        if strict {
            bail!(
                "rust-analyzer did not finish its scan (see {})",
                log.display()
            );
        }
        crate::note!(
            "    rust-analyzer did not finish its scan, so the file is untested by it (see {})",
            log.display()
        );
        return Ok(());
    }
    let all = parse_diagnostics(&text);
    let in_module = |d: &Diagnostic| Path::new(&d.file).starts_with(module);
    let in_core = |d: &Diagnostic| {
        let file = Path::new(&d.file);
        !in_module(d)
            && [&sources.kernel_core, &sources.macros, &sources.pin_init]
                .iter()
                .any(|dir| file.starts_with(dir))
    };
    let count = |place: &dyn Fn(&Diagnostic) -> bool, severity: &str| {
        all.iter()
            .filter(|d| place(d) && d.severity == severity)
            .count()
    };
    for d in all.iter().filter(|d| {
        (in_module(d) || in_core(d)) && matches!(d.severity.as_str(), "Error" | "Warning")
    }) {
        crate::note!(
            "    {}:{}:{}: {}: {}",
            d.file,
            d.line,
            d.column,
            d.severity.to_lowercase(),
            d.message
        );
    }
    let in_kernel = |d: &Diagnostic| !in_module(d) && !in_core(d);
    progress::done(
        &format!(
            "rust-analyzer: {} error(s), {} warning(s) in the module; {} error(s), {} warning(s) \
             in kernel-core; {} error(s) in the kernel's own crates (full output: {})",
            count(&in_module, "Error"),
            count(&in_module, "Warning"),
            count(&in_core, "Error"),
            count(&in_core, "Warning"),
            count(&in_kernel, "Error"),
            log.display()
        ),
        start,
    );
    let ours = count(&in_module, "Error") + count(&in_core, "Error");
    if strict && ours > 0 {
        bail!("rust-analyzer found {ours} error(s) in the module or in kernel-core (listed above)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rust_analyzer_diagnostics() {
        let output = "0/3 0% processing /m/a.rs     at crate a, file /m/a.rs: Error \
            RustcHardError(\"E0432\") from LineCol { line: 9, col: 23 } to LineCol { line: 9, \
            col: 32 }: unresolved import\n\
            0/3 0% processing /m/a.rs\r1/3 50% processing /k/b.rs   at crate b, file /k/b.rs: \
            WeakWarning Ra(\"inactive-code\", WeakWarning) from LineCol { line: 0, col: 0 } to \
            LineCol { line: 1, col: 3 }: code is inactive\n\
            0/3 0% processing /m/a.rs     at crate a, file /m/a.rs: Error \
            RustcHardError(\"E0432\") from LineCol { line: 9, col: 23 } to LineCol { line: 9, \
            col: 32 }: unresolved import\n\
            \ndiagnostic scan complete\n";
        assert_eq!(
            parse_diagnostics(output),
            [
                Diagnostic {
                    file: "/m/a.rs".into(),
                    line: 10,
                    column: 24,
                    severity: "Error".into(),
                    message: "unresolved import".into(),
                },
                Diagnostic {
                    file: "/k/b.rs".into(),
                    line: 1,
                    column: 1,
                    severity: "WeakWarning".into(),
                    message: "code is inactive".into(),
                },
            ]
        );
    }
}
