// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The verdict of a cell whose kernel has no KUnit built in (Debian's stock kernels have
//! `# CONFIG_KUNIT is not set`): `#[kunit_tests]` suites are compiled only with
//! `CONFIG_KUNIT=y`, so there are no cases to judge. What the cell proves instead: every module
//! loads into the stock kernel, prints its init lines, and unloads cleanly, with no Oops, BUG,
//! WARNING or panic (those come from the verdict of every boot, [`crate::pipeline::verdict`]).

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::pipeline::guest::Boot;
use std::fs;
use std::path::PathBuf;

/// Lines the kernel prints for any out-of-tree, unsigned module: not the module's own.
const TAINT_LINES: &[&str] = &[
    "loading out-of-tree module taints kernel",
    "module verification failed",
];

/// A console line without its `[    1.234567] ` printk time.
fn strip_time(line: &str) -> &str {
    let line = line.trim_end_matches('\r');
    line.strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
        .filter(|(time, _)| time.trim().chars().all(|c| c.is_ascii_digit() || c == '.'))
        .map_or(line, |(_, rest)| rest)
}

/// What the console says of each module: its init lines shown, and a problem for one that did
/// not print any or did not unload.
pub fn without_kunit(boot: &Boot, kos: &[PathBuf], release: &str) -> Result<Vec<String>> {
    crate::note!(
        "    {release} has no KUnit built in (CONFIG_KUNIT is not y): the driver's #[kunit_tests] suites are compiled out; checking that each module loads, prints its init lines and unloads cleanly"
    );
    let console = fs::read_to_string(&boot.console).at(&boot.console)?;
    let mut problems = Vec::new();
    for ko in kos {
        let file = ko.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let name = file.trim_end_matches(".ko").replace('-', "_");
        // The module's init lines: what the kernel printed between the load's start and its
        // result (after the result come the next module's lines, or the shutdown).
        let lines: Vec<&str> = console
            .lines()
            .map(strip_time)
            .skip_while(|l| *l != format!("kernel-core-init: begin {file}"))
            .skip(1)
            .take_while(|l| !l.starts_with(&format!("kernel-core-init: insmod {file}:")))
            .filter(|l| !l.starts_with("kernel-core-init:"))
            .filter(|l| !TAINT_LINES.iter().any(|t| l.contains(t)))
            .collect();
        let unloaded = console
            .lines()
            .any(|l| l.contains(&format!("kernel-core-init: rmmod {name}: ok")));
        crate::note!(
            "    {file}: {} init line(s), {}",
            lines.len(),
            if unloaded { "unloaded" } else { "NOT unloaded" }
        );
        for line in &lines {
            crate::note!("      | {line}");
        }
        if lines.is_empty() {
            problems.push(format!(
                "{file} printed no init line (see {})",
                boot.console.display()
            ));
        }
        if !unloaded {
            problems.push(format!(
                "{file} did not unload cleanly (see {})",
                boot.console.display()
            ));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_lines_and_unloading_are_required() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let console = dir.join("console.log");
        let text = "\
[    1.0] kernel-core-init: begin good.ko
[    1.1] good: loading out-of-tree module taints kernel.
[    1.2] good: 64 ring entries
[    1.3] kernel-core-init: insmod good.ko: ok
[    1.4] kernel-core-init: begin quiet.ko
[    1.5] kernel-core-init: insmod quiet.ko: ok
[    1.6] kernel-core-init: rmmod quiet: error 16
[    1.7] kernel-core-init: rmmod good: ok
[    1.8] kernel-core-init: done
[    1.9] reboot: Restarting system
";
        fs::write(&console, text).unwrap();
        use std::os::unix::process::ExitStatusExt as _;
        let boot = Boot {
            log: crate::model::console::parse(text),
            console: console.clone(),
            seconds: 1.0,
            ending: crate::infra::process::Ending::Exited(std::process::ExitStatus::from_raw(0)),
            hang: None,
            restarted: None,
        };
        let kos = [dir.join("good.ko"), dir.join("quiet.ko")];
        let problems = without_kunit(&boot, &kos, "7.3.4+deb13-amd64").unwrap();
        assert_eq!(problems.len(), 2, "{problems:?}");
        // good.ko's one init line, not the taint lines nor what follows its load.
        assert!(problems[0].starts_with("quiet.ko printed no init line"));
        assert!(problems[1].starts_with("quiet.ko did not unload cleanly"));
    }
}
