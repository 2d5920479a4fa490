// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What a build log says: its errors, first ones first, and its warnings.
//!
//! A failed build's tail is make's `Error 2` lines; the message that matters is the first
//! error, often hundreds of lines up. The compilers' formats decide what is a diagnostic:
//! rustc's `error[E0425]: ...` and `warning: ...` blocks (up to the blank line that ends
//! each), clang's `file:line:col: error: ...` and `... warning: ...` lines with the source
//! lines that follow, modpost's `ERROR: modpost: ...` and `WARNING: modpost: ...`, and
//! objtool's `file.o: warning: objtool: ...`.

/// Whether a diagnostic is an error or a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
}

/// One diagnostic: its lines, the first of which says what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub level: Level,
    pub lines: Vec<String>,
}

impl Diagnostic {
    /// Its first line.
    pub fn headline(&self) -> &str {
        self.lines.first().map_or("", String::as_str)
    }
}

/// The level of a line that starts a diagnostic, if it does.
fn starts(line: &str) -> Option<Level> {
    let trimmed = line.trim_start();
    if trimmed.starts_with("error[E") || trimmed.starts_with("error:") {
        // rustc's summary ("error: aborting due to 2 previous errors") is not one more.
        if trimmed.starts_with("error: aborting due to")
            || trimmed.starts_with("error: could not compile")
        {
            return None;
        }
        return Some(Level::Error);
    }
    if trimmed.starts_with("warning:") {
        if trimmed.contains(" warning emitted") || trimmed.contains(" warnings emitted") {
            return None;
        }
        return Some(Level::Warning);
    }
    if line.starts_with("ERROR: modpost:") {
        return Some(Level::Error);
    }
    if line.starts_with("WARNING: modpost:") {
        return Some(Level::Warning);
    }
    // clang and objtool: `path:line:col: error: ...`, `file.o: warning: objtool: ...`.
    let (_, rest) = line.split_once(": ")?;
    if rest.starts_with("error: ") || rest.starts_with("fatal error: ") {
        return Some(Level::Error);
    }
    if rest.starts_with("warning: ") {
        return Some(Level::Warning);
    }
    None
}

/// Whether `line` ends the diagnostic it follows: a blank line, or make's own chatter.
fn ends(line: &str) -> bool {
    line.trim().is_empty()
        || line.starts_with("make")
        || line.starts_with("  RUSTC ")
        || line.starts_with("  CC ")
        || line.starts_with("  LD ")
        || line.starts_with("  MODPOST")
}

/// Every diagnostic of `log`, in order.
pub fn diagnostics(log: &str) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    let mut open = false;
    for line in log.lines() {
        if let Some(level) = starts(line) {
            found.push(Diagnostic {
                level,
                lines: vec![line.to_string()],
            });
            open = true;
        } else if open && !ends(line) {
            if let Some(last) = found.last_mut() {
                last.lines.push(line.to_string());
            }
        } else {
            open = false;
        }
    }
    found
}

/// The first error diagnostics of `log`, at most `max` lines of them; empty if it has none.
pub fn first_errors(log: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for diagnostic in diagnostics(log)
        .into_iter()
        .filter(|d| d.level == Level::Error)
    {
        for line in diagnostic.lines {
            if lines.len() == max {
                lines.push("...".to_string());
                return lines;
            }
            lines.push(line);
        }
    }
    lines
}

/// Warnings that the kernel's own flags give every crate, whatever its code, which no driver
/// can act on: s390's `-Ctarget-feature=+backchain` and 64-bit powerpc's
/// `-Ctarget-feature=-mma,-vsx,-hard-float,-altivec` (their arch Makefiles) are unstable, or
/// unknown and unstable, in rustc's eyes.
///
/// And the top Makefile's notes on a stock kernel's build host (Debian's gcc and pahole, which
/// the runner stands in for and says so when it prepares the kernel): they describe the machine,
/// not the driver.
const KERNEL_FLAG_WARNINGS: &[&str] = &[
    "unstable feature specified for `-Ctarget-feature`",
    "the compiler differs from the one used to build the kernel",
    "pahole version differs from the one used to build the kernel",
];

/// The warnings of `log`, but for those the kernel's own flags cause in every crate.
pub fn warnings(log: &str) -> Vec<Diagnostic> {
    diagnostics(log)
        .into_iter()
        .filter(|d| d.level == Level::Warning)
        .filter(|d| {
            !KERNEL_FLAG_WARNINGS
                .iter()
                .any(|w| d.headline().contains(w))
        })
        .collect()
}

/// The compiler-runtime functions that 64-bit division and modulo call on 32-bit targets,
/// which the kernel does not link (its C divides with `div64_u64()` and friends).
const DIVISION_RUNTIME: &[&str] = &[
    "__aeabi_uldivmod",
    "__aeabi_ldivmod",
    "__udivdi3",
    "__divdi3",
    "__umoddi3",
    "__moddi3",
];

/// What a modpost error on an undefined compiler-runtime function means, one line per function
/// the log names.
pub fn runtime_hints(log: &str) -> Vec<String> {
    DIVISION_RUNTIME
        .iter()
        .filter(|f| {
            log.lines().any(|l| {
                l.starts_with("ERROR: modpost:")
                    && l.contains(&format!("\"{f}\""))
                    && l.contains("undefined")
            })
        })
        .map(|f| {
            format!(
                "`{f}` is the compiler's runtime for a 64-bit division or modulo on a 32-bit \
                 kernel, which the kernel does not have: divide `u32`s there, or use \
                 kernel-core's `Delta`, whose arithmetic calls the kernel's own `div64` helpers"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
make: Entering directory '/k'
  RUSTC [M] kernel_core.o
  RUSTC [M] d_lib.o
warning: unused variable: `x`
 --> src/lib.rs:3:9
  |
3 |     let x = 1;
  |         ^ help: if this is intentional, prefix it with an underscore: `_x`

error[E0425]: cannot find value `y` in this scope
 --> src/lib.rs:4:5
  |
4 |     y
  |     ^ not found in this scope

error: aborting due to 1 previous error; 1 warning emitted

make[2]: *** [scripts/Makefile.build:220: d_lib.o] Error 1
d.c:3:5: error: use of undeclared identifier 'z'
    3 |     z = 1;
      |     ^
WARNING: modpost: d.ko: section mismatch
ERROR: modpost: \"rust_build_error\" [d.ko] undefined!
make: *** [Makefile:2000: modules] Error 2
";

    #[test]
    fn errors_and_warnings_in_their_own_formats() {
        let all = diagnostics(LOG);
        let headlines: Vec<_> = all.iter().map(|d| (d.level, d.headline())).collect();
        assert_eq!(
            headlines,
            [
                (Level::Warning, "warning: unused variable: `x`"),
                (
                    Level::Error,
                    "error[E0425]: cannot find value `y` in this scope"
                ),
                (
                    Level::Error,
                    "d.c:3:5: error: use of undeclared identifier 'z'"
                ),
                (Level::Warning, "WARNING: modpost: d.ko: section mismatch"),
                (
                    Level::Error,
                    "ERROR: modpost: \"rust_build_error\" [d.ko] undefined!"
                ),
            ]
        );
        assert_eq!(all[1].lines.len(), 5, "{:?}", all[1].lines);
        assert_eq!(warnings(LOG).len(), 2);
        let s390 = "warning: unstable feature specified for `-Ctarget-feature`: `backchain`\n  |\n";
        assert!(
            warnings(s390).is_empty(),
            "the kernel's own flag, in every crate"
        );
        let first = first_errors(LOG, 6);
        assert_eq!(
            first[0],
            "error[E0425]: cannot find value `y` in this scope"
        );
        assert_eq!(first.len(), 7, "six lines and the ellipsis: {first:?}");
        assert_eq!(first.last().unwrap(), "...");
        assert!(first_errors("make: ok\n", 10).is_empty());
    }

    #[test]
    fn summaries_and_chatter_are_no_diagnostics() {
        assert!(diagnostics("warning: 5 warnings emitted\n").is_empty());
        assert!(diagnostics("error: could not compile `d`\n").is_empty());
        assert!(diagnostics("  RUSTC [M] warning_free.o\n").is_empty());
    }

    #[test]
    fn a_64_bit_division_on_arm_is_explained() {
        let log = "  MODPOST Module.symvers\nERROR: modpost: \"__aeabi_uldivmod\" [/d/m.ko] undefined!\nmake[2]: *** Error 1\n";
        let hints = runtime_hints(log);
        assert_eq!(hints.len(), 1);
        assert!(
            hints[0].starts_with("`__aeabi_uldivmod` is the compiler's runtime"),
            "{hints:?}"
        );
        assert!(runtime_hints("ERROR: modpost: \"rust_build_error\" [m.ko] undefined!").is_empty());
    }
}
