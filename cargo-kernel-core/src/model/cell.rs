// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A cell's directory and the files in it: one place for the names that the pipeline, the
//! reporters, `cargo xtask` and the bench all use.
//!
//! `<out>/<kernel>-<arch>/` (`target/kernel-core/7.3-um/` for a driver,
//! `target/kernel/7.3-x86_64/` for kernel-core's own checks) holds the first plan's results;
//! each further plan has a directory of its own inside it.

use std::path::{Path, PathBuf};

/// The guest's console of a plan's boot.
pub const CONSOLE: &str = "console.log";
/// A plan's JUnit XML.
pub const JUNIT: &str = "junit.xml";
/// The cell's record of its latest run ([`crate::model::report::CellRun`]).
pub const RUN_JSON: &str = "run.json";
/// The initramfs a plan's guest booted.
pub const INITRAMFS: &str = "initramfs.cpio";
/// The modules a plan's resumed guest read through its port
/// ([`crate::pipeline::snapshot::bundle`]).
pub const MODULES: &str = "modules.bundle";

/// The name of the cell of `kernel` and `arch` (the matrix's names): `7.3-um`.
pub fn name(kernel: &str, arch: &str) -> String {
    format!("{kernel}-{arch}")
}

/// The directory of the cell of `kernel` and `arch` under `out`.
pub fn dir(out: &Path, kernel: &str, arch: &str) -> PathBuf {
    out.join(name(kernel, arch))
}

/// The KTAP log of `module` (`mydrv.ko`) in the plan directory `dir`: `ktap-mydrv.log`.
pub fn ktap_file(dir: &Path, module: &str) -> PathBuf {
    dir.join(format!("ktap-{}.log", module.trim_end_matches(".ko")))
}

/// Whether `name` is a file a plan leaves in its directory: removed before the plan runs
/// again, so that no result outlives its run.
pub fn is_result(name: &str) -> bool {
    [CONSOLE, JUNIT, RUN_JSON, INITRAMFS, MODULES].contains(&name)
        || (name.starts_with("ktap-") && name.ends_with(".log"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_a_cell_and_its_files() {
        assert_eq!(
            dir(Path::new("/t/kernel-core"), "7.3", "um"),
            Path::new("/t/kernel-core/7.3-um")
        );
        assert_eq!(
            ktap_file(Path::new("/c"), "mydrv.ko"),
            Path::new("/c/ktap-mydrv.log")
        );
        assert!(is_result("ktap-mydrv.log") && is_result("run.json"));
        assert!(!is_result("build.log") && !is_result("ktap-x.txt"));
    }
}
