// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `cargo xtask bench` (this crate, `kernel-core-bench`): what kernel-core costs, measured side by
//! side with doing without it.
//!
//! Eight parts, each in its own module (`src/<name>.rs`), each reporting ratios rather than
//! absolute times (these machines have 2 cores and often run other builds, so only figures
//! measured in the same run compare):
//!
//! 1. `compile`: the compile time of 10,000 assertions, against plain `assert!` in a const
//!    and against `static_assertions` 1.1;
//! 2. `codegen`: the instructions of each run-time function, against a hand-written
//!    reference, on x86_64, aarch64 and riscv64;
//! 3. `module`: the bytes and build seconds kernel-core adds to a Linux 7.3 module;
//! 4. `suite`: what the test suites take;
//! 5. `runner`: a driver author's retest loop with `cargo kernel-core`, on every cell;
//! 6. `mmio`: the instructions of `Mmio::read32`/`write32` on every required cell, against one
//!    call of the helper they reach and Linux 7.3's own `Mmio`;
//! 7. `logic`: the compile time, per use, of the driver-logic modules (`KVec`/`KBox`,
//!    `Arc<Mutex<T>>`, `pin_init!`, `CString::try_from_fmt`), against the same code on `std`;
//! 8. `detectors`: the example's host suites with the host's bug detectors against without,
//!    and how soon `cargo test` reports each planted bug.
//!
//! It writes `bench/RESULTS.md`. A figure that misses its goal is reported as such, but never
//! makes the command fail: only a part that cannot be measured does.
//!
//! Generated crates and modules live in `target/bench/`, never in the source tree. Setting
//! `KERNEL_CORE_BENCH=compile,codegen,module,suite,runner,mmio,logic,detectors` (any subset) runs only
//! those parts; the others keep their sections and summary rows from the `RESULTS.md` it
//! replaces, marked with the date of the run that measured them.

mod codegen;
mod compile;
mod detectors;
mod logic;
mod mmio;
mod module;
mod objects;
mod runner;
mod suite;

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::files::write_if_changed;
use cargo_kernel_core::infra::{command, process, progress};
use cargo_kernel_core::kernel::setup;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

/// Repetitions of each timed measurement; the median is reported.
const REPS: usize = 3;

/// One figure next to its goal, for the summary.
struct Goal {
    /// What was measured.
    what: String,
    /// The figure, as printed.
    figure: String,
    /// The goal, as printed.
    goal: String,
    /// Whether the figure meets the goal; `None` for figures without one.
    met: Option<bool>,
}

/// What one part measured.
struct Part {
    /// Its section of `RESULTS.md`, without the heading.
    markdown: String,
    /// Its figures and goals.
    goals: Vec<Goal>,
}

/// A part of the benchmark: its key for `KERNEL_CORE_BENCH`, its heading, and its runner.
type Runner = fn(&Path, &Path) -> Result<Part>;

const PARTS: &[(&str, &str, Runner)] = &[
    (
        "compile",
        "1. Compile-time cost of assertions",
        compile::run,
    ),
    ("codegen", "2. Run-time cost: instructions", codegen::run),
    ("module", "3. Module cost (Linux 7.3, x86_64)", module::run),
    ("suite", "4. Test-suite cost", suite::run),
    (
        "runner",
        "5. A driver's retest loop (`cargo kernel-core`)",
        runner::run,
    ),
    (
        "mmio",
        "6. `Mmio` accessors on every kernel and architecture",
        mmio::run,
    ),
    (
        "logic",
        "7. Compile-time cost of the driver-logic modules",
        logic::run,
    ),
    ("detectors", "8. The host's bug detectors", detectors::run),
];

/// `cargo xtask bench`: runs every part, prints each figure next to its goal and writes
/// `bench/RESULTS.md`.
fn run(repo: &Path) -> Result {
    let total = Instant::now();
    let out = repo.join("target/bench");
    fs::create_dir_all(&out).at(&out)?;
    let only = std::env::var("KERNEL_CORE_BENCH").ok();
    let selected = |key: &str| {
        only.as_deref()
            .is_none_or(|list| list.split(',').any(|k| k.trim() == key))
    };
    if let Some(list) = &only {
        for key in list.split(',').map(str::trim) {
            if !PARTS.iter().any(|(k, _, _)| *k == key) {
                anyhow::bail!(
                    "KERNEL_CORE_BENCH names `{key}`: use a comma-separated subset of {}",
                    PARTS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
                );
            }
        }
    }
    let load_before = load_average();
    let results = repo.join("bench/RESULTS.md");
    // What the parts left out keep: their figures from the file this run replaces.
    let old = match fs::read_to_string(&results) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).at(&results),
    };
    let previous = Previous::parse(&old);

    let mut sections = String::new();
    let mut goals = Vec::new();
    let mut rows = String::new();
    let mut kept = Vec::new();
    let mut failed = Vec::new();
    for (key, title, runner) in PARTS {
        let _ = writeln!(sections, "## {title}\n");
        let number = part_number(title);
        if !selected(key) {
            let why = format!(
                "not run this time (`KERNEL_CORE_BENCH={}`)",
                only.as_deref().unwrap_or_default()
            );
            match previous.section(title) {
                Some((date, body)) => {
                    let _ = writeln!(sections, "{KEPT}{date}: {why}._\n");
                    sections.push_str(body.trim_end());
                    sections.push_str("\n\n");
                    for line in previous.rows(number) {
                        rows.push_str(&line);
                        rows.push('\n');
                    }
                    kept.push((number, date));
                }
                None => {
                    let _ = writeln!(sections, "{}.\n", capitalised(&why));
                }
            }
            continue;
        }
        println!();
        println!("=== bench: {title} ===");
        let start = Instant::now();
        match runner(repo, &out) {
            Ok(part) => {
                sections.push_str(&part.markdown);
                if !part.markdown.ends_with("\n\n") {
                    sections.push('\n');
                }
                for goal in &part.goals {
                    rows.push_str(&row(number, goal, "**missed** (see below)"));
                }
                goals.extend(part.goals);
                println!(
                    "    {title}: measured in {}",
                    progress::elapsed(start.elapsed())
                );
            }
            Err(e) => {
                println!("    {title}: FAILED: {e}");
                let _ = writeln!(sections, "Not measured: the run failed:\n\n```\n{e}\n```\n");
                failed.push(format!("{key}: {e}"));
            }
        }
    }
    let load_after = load_average();

    let mut md = String::new();
    md.push_str(
        "<!-- Generated by `cargo xtask bench` (bench/src/main.rs): do not edit by hand. -->\n\n",
    );
    md.push_str("# kernel-core benchmarks\n\n");
    md.push_str(
        "kernel-core promises to cost nothing over doing without it. These figures measure that \
         promise side by side, in one run. **Absolute times are noise**: the machine has 2 \
         cores and other builds may run at the same time, so only the ratios between figures \
         of the same run mean something. Timed figures are medians of 3 runs (5 for the compile \
         times, 7 for the module builds), taken round-robin after a warm-up. Nothing here fails on a slow machine: each figure is printed next to \
         its goal.\n\n",
    );
    let _ = writeln!(
        md,
        "Run: {}, `{}`, {} CPUs, load average {} before and {} after; `cargo xtask bench` took {}.\n",
        utc_now(),
        command::output(Command::new("rustc").args(["+stable", "--version"]))
            .unwrap_or_default()
            .trim(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_before,
        load_after,
        progress::elapsed(total.elapsed()),
    );
    md.push_str("## Summary\n\n");
    md.push_str(SUMMARY_HEAD);
    md.push_str(&rows);
    md.push('\n');
    if !kept.is_empty() {
        let _ = writeln!(md, "{}\n", kept_note(&kept));
    }
    md.push_str(&sections);
    // Sections measured by hand (the stock kernels' cells), which this run does not measure,
    // are kept as they are, at the end.
    if let Some(at) = old.find(BY_HAND) {
        md = md.trim_end().to_string() + "\n\n" + &old[at..];
    }
    fs::create_dir_all(repo.join("bench")).at(repo.join("bench"))?;
    fs::write(&results, md.trim_end().to_string() + "\n").at(&results)?;

    println!();
    println!("{}", summary(&goals, "MISSED"));
    println!(
        "wrote {} ({}; absolute times are noise, only ratios matter)",
        results.display(),
        progress::elapsed(total.elapsed())
    );
    if !failed.is_empty() {
        return Err(anyhow::anyhow!(
            "{} part(s) could not be measured:\n  {}",
            failed.len(),
            failed.join("\n  ")
        ));
    }
    Ok(())
}

/// The title of the sections of `bench/RESULTS.md` measured by hand, kept by [`run`].
const BY_HAND: &str = "## Measured by hand:";

/// The head of the summary table of `bench/RESULTS.md`: a row per figure, after the number of
/// the part that measured it.
const SUMMARY_HEAD: &str = "| part | figure | measured | goal | |\n|---|---|---|---|---|\n";

/// How a section kept from an earlier run begins: this, the date of that run, and why.
const KEPT: &str = "_Figures of the run of ";

/// The sentence under the summary that names the parts `kept` from earlier runs, with the
/// date of each run: `Parts 1 and 2 were not run this time: their figures are those of the run
/// of 2026-12-05 04:55 UTC.`
fn kept_note(kept: &[(&str, &str)]) -> String {
    let mut runs: Vec<(&str, Vec<&str>)> = Vec::new();
    for (number, date) in kept {
        match runs.iter_mut().find(|(d, _)| d == date) {
            Some((_, numbers)) => numbers.push(number),
            None => runs.push((date, vec![number])),
        }
    }
    let list = |items: &[&str]| match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let parts = |numbers: &[&str]| {
        format!(
            "part{} {}",
            if numbers.len() > 1 { "s" } else { "" },
            list(numbers)
        )
    };
    let all: Vec<&str> = kept.iter().map(|(number, _)| *number).collect();
    let whose: Vec<String> = runs
        .iter()
        .map(|(date, numbers)| {
            if runs.len() == 1 {
                format!("the run of {date}")
            } else {
                format!("the run of {date} for {}", parts(numbers))
            }
        })
        .collect();
    let whose: Vec<&str> = whose.iter().map(String::as_str).collect();
    capitalised(&format!(
        "{} {} not run this time: {} figures are those of {}.",
        parts(&all),
        if all.len() > 1 { "were" } else { "was" },
        if all.len() > 1 { "their" } else { "its" },
        list(&whose)
    ))
}

/// The number of the part titled `title` (`"1"` for `"1. Compile-time ..."`).
fn part_number(title: &str) -> &str {
    title.split_once(". ").map_or(title, |(number, _)| number)
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The cells of `goal` in a summary table, from the figure's name to the verdict (`missed`
/// for a goal not met), and the line's end.
fn cells(goal: &Goal, missed: &str) -> String {
    let verdict = match goal.met {
        Some(true) => "met",
        Some(false) => missed,
        None => "",
    };
    format!(
        "{} | {} | {} | {verdict} |\n",
        goal.what, goal.figure, goal.goal
    )
}

/// The row of `goal` in the summary of `bench/RESULTS.md`, measured by part `number`.
fn row(number: &str, goal: &Goal, missed: &str) -> String {
    format!("| {number} | {}", cells(goal, missed))
}

/// The summary table of this run's `goals`, for the terminal, `missed` marking the goals not
/// met.
fn summary(goals: &[Goal], missed: &str) -> String {
    let mut table = String::from("| figure | measured | goal | |\n|---|---|---|---|\n");
    for goal in goals {
        table.push_str("| ");
        table.push_str(&cells(goal, missed));
    }
    table
}

/// What the `bench/RESULTS.md` a run replaces holds of each part: the sections and summary
/// rows that a part left out of the run keeps.
struct Previous<'a> {
    /// The date of the run that wrote it (`2025-01-31 12:34 UTC`).
    date: &'a str,
    /// Its summary rows, each with the number of the part that measured it.
    rows: Vec<(&'a str, &'a str)>,
    /// Its parts' sections: the heading's title and what follows it.
    sections: Vec<(&'a str, &'a str)>,
}

impl<'a> Previous<'a> {
    /// Reads `text`, a `bench/RESULTS.md` (empty if there is none).
    fn parse(text: &'a str) -> Self {
        let date = text
            .lines()
            .find_map(|l| l.strip_prefix("Run: "))
            .and_then(|l| l.split_once(", `"))
            .map_or("(date unknown)", |(date, _)| date);
        let mut sections = Vec::new();
        // Split at the level-2 headings; the part before the first is the file's head.
        let mut rest = text;
        while let Some(at) = rest.find("\n## ") {
            rest = &rest[at + 4..];
            let end = rest.find("\n## ").map_or(rest.len(), |e| e + 1);
            let (heading, body) = rest[..end].split_once('\n').unwrap_or((&rest[..end], ""));
            sections.push((heading.trim(), body));
            rest = &rest[end.saturating_sub(1)..];
        }
        let summary = sections
            .iter()
            .find(|(heading, _)| *heading == "Summary")
            .map_or("", |(_, body)| body);
        let mut lines = summary.lines().filter(|l| l.starts_with('|'));
        let with_part = lines
            .next()
            .is_some_and(|head| head.starts_with("| part |"));
        let rows = lines
            .filter(|l| !l.starts_with("|---"))
            .filter_map(|line| {
                let number = if with_part {
                    line.split('|').nth(1)?.trim()
                } else {
                    legacy_part(line.split('|').nth(1)?.trim())?
                };
                Some((number, line))
            })
            .collect();
        Self {
            date,
            rows,
            sections,
        }
    }

    /// The section of the part titled `title`, if it has figures: the date of the run that
    /// measured them, and the section without its heading, or any note of an earlier kept run.
    fn section(&self, title: &str) -> Option<(&'a str, &'a str)> {
        let (_, body) = self.sections.iter().find(|(t, _)| *t == title)?;
        let body = body.trim_start();
        let (date, body) = match body.strip_prefix(KEPT) {
            Some(note) => {
                let (date, _) = note.split_once(": ")?;
                (date, note.split_once("\n\n").map_or("", |(_, b)| b))
            }
            None => (self.date, body),
        };
        let empty = body.trim().is_empty() || body.starts_with("Not run this time");
        (!empty).then_some((date, body))
    }

    /// The summary rows of part `number`, as they were, with the part's number in front (added
    /// to the rows of a summary written before it had that column).
    fn rows(&self, number: &str) -> Vec<String> {
        self.rows
            .iter()
            .filter(|(n, _)| *n == number)
            .map(|(n, line)| {
                if line.starts_with(&format!("| {n} |")) {
                    (*line).to_string()
                } else {
                    format!("| {n} {line}")
                }
            })
            .collect()
    }
}

/// The part of a row of a summary written before the summary had a part column (up to
/// 2026-12-05), from the words its figure begins with; `None` for a figure no part reports.
fn legacy_part(figure: &str) -> Option<&'static str> {
    const BEGINNINGS: &[(&str, &str)] = &[
        ("10,000 ", "1"),
        ("x86_64: functions", "2"),
        ("aarch64: functions", "2"),
        ("riscv64: functions", "2"),
        ("module ", "3"),
        ("clean module build", "3"),
        ("host suite", "4"),
        ("kernel cell ", "4"),
        ("one-line change", "5"),
        ("UML against", "5"),
        ("Mmio ", "6"),
    ];
    BEGINNINGS
        .iter()
        .find(|(words, _)| figure.starts_with(words))
        .map(|(_, part)| *part)
}

/// `cargo +stable` for a generated crate or the workspace, with the variables of the outer
/// `cargo xtask` removed so they cannot leak in.
fn cargo(dir: &Path) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.arg("+stable").current_dir(dir);
    for var in [
        "RUSTUP_TOOLCHAIN",
        "RUSTC",
        "RUSTDOC",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_INCREMENTAL",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// What a command took.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// Wall-clock seconds, from [`Instant`].
    wall: f64,
    /// CPU seconds (user and system) of the command and everything it waited for.
    cpu: f64,
}

/// Runs `cmd` with its output captured and returns the wall-clock seconds it took; on failure,
/// an error with the command and the last lines it printed.
fn timed(cmd: &mut Command) -> Result<f64> {
    timed_cpu(cmd).map(|t| t.wall)
}

/// Like [`timed`], with the CPU time too.
fn timed_cpu(cmd: &mut Command) -> Result<Timing> {
    let (start, cpu) = (Instant::now(), children_cpu());
    run_captured(cmd)?;
    Ok(Timing {
        wall: start.elapsed().as_secs_f64(),
        cpu: children_cpu() - cpu,
    })
}

/// The CPU seconds (user and system) of this process's children that have been waited for,
/// including their own waited-for children: `cutime` and `cstime` of `/proc/self/stat`.
///
/// On a machine that other builds share, CPU time depends much less on them than wall time.
/// Its resolution is one clock tick (10 ms).
fn children_cpu() -> f64 {
    let Ok(stat) = fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // The fields after the command name, which is in parentheses: `state` is field 3, so
    // `cutime` (16) and `cstime` (17) are the 14th and 15th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(13), ticks(14)) {
        (Some(user), Some(system)) => (user + system) / clock_ticks(),
        _ => f64::NAN,
    }
}

/// `getconf CLK_TCK`, the unit of `/proc/self/stat` times (100 almost everywhere).
fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        command::output(Command::new("getconf").arg("CLK_TCK"))
            .and_then(|s| s.trim().parse().ok())
            .filter(|t: &f64| *t > 0.0)
            .unwrap_or(100.0)
    })
}

/// Runs `cmd` with its output captured and returns its standard output; on failure, an error
/// with the command and the last lines it printed.
fn captured(cmd: &mut Command) -> Result<String> {
    let out = run_captured(cmd)?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs `cmd` without input and with its output captured; fails with the command, its status
/// and its last 25 lines of output unless it succeeds.
fn run_captured(cmd: &mut Command) -> Result<std::process::Output> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", process::show(cmd)))?;
    if out.status.success() {
        return Ok(out);
    }
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(25)..].join("\n    | ");
    anyhow::bail!(
        "`{}` failed ({}):\n    | {tail}",
        process::show(cmd),
        out.status
    );
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Formats a list of run times as `0.91 / 0.93 / 0.95`.
fn runs(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.2}"))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Sets the modification time of `path` to now, so that cargo rebuilds its crate.
fn touch(path: &Path) -> Result {
    fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now()))
        .map_err(|e| anyhow::anyhow!("cannot touch {}: {e}", path.display()))
}

/// The 1-minute load average, as `/proc/loadavg` gives it.
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// The current UTC time as `2025-01-31 12:34 UTC`, from `date`.
fn utc_now() -> String {
    command::output(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "(date unknown)".to_string())
}

/// Escapes `|` for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn main() -> std::process::ExitCode {
    // The watchdog of its children, and the module builds' compiler wrapper, are this program.
    if let Some(status) = cargo_kernel_core::commands::answer_if_asked() {
        return status;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ lives in the repository")
        .to_path_buf();
    // The benchmark installs what it needs (valgrind), as kernel-core's own tools do.
    setup::allow_installs();
    match run(&repo) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `RESULTS.md` as a partial run writes it: part 1 kept from an earlier run, part 2
    /// measured, part 3 never measured.
    const FILE: &str = "<!-- Generated -->\n\n# kernel-core benchmarks\n\n\
        Run: 2026-12-06 10:00 UTC, `rustc 1.95.0`, 2 CPUs.\n\n\
        ## Summary\n\n\
        | part | figure | measured | goal | |\n|---|---|---|---|---|\n\
        | 1 | a / plain | 1.05× | ≤ 1.10× | met |\n\
        | 2 | b | 3.00× | (reported) |  |\n\
        | 2 | c | 4.00× | (reported) |  |\n\n\
        ## 1. First\n\n\
        _Figures of the run of 2026-12-05 04:55 UTC: not run this time (`KERNEL_CORE_BENCH=b`)._\n\n\
        First's text.\n\n### Its table\n\n| x |\n|---|\n\n\
        ## 2. Second\n\nSecond's text.\n\n\
        ## 3. Third\n\nNot run this time (`KERNEL_CORE_BENCH=b`).\n\n\
        ## Measured by hand: something\n\nKept as it is.\n";

    #[test]
    fn a_kept_section_keeps_the_date_it_was_measured() {
        let previous = Previous::parse(FILE);
        assert_eq!(previous.date, "2026-12-06 10:00 UTC");
        let (date, body) = previous.section("1. First").unwrap();
        assert_eq!(date, "2026-12-05 04:55 UTC");
        assert_eq!(
            body.trim_end(),
            "First's text.\n\n### Its table\n\n| x |\n|---|"
        );
        let (date, body) = previous.section("2. Second").unwrap();
        assert_eq!(date, "2026-12-06 10:00 UTC");
        assert_eq!(body.trim_end(), "Second's text.");
    }

    #[test]
    fn a_section_without_figures_is_not_kept() {
        let previous = Previous::parse(FILE);
        assert_eq!(previous.section("3. Third"), None);
        assert_eq!(previous.section("4. Missing"), None);
        assert_eq!(Previous::parse("").section("1. First"), None);
    }

    #[test]
    fn rows_are_kept_by_part() {
        let previous = Previous::parse(FILE);
        assert_eq!(
            previous.rows("1"),
            ["| 1 | a / plain | 1.05× | ≤ 1.10× | met |"]
        );
        assert_eq!(previous.rows("2").len(), 2);
        assert!(previous.rows("3").is_empty());
    }

    #[test]
    fn rows_written_before_the_part_column_get_their_part() {
        let old = "Run: 2026-12-05 04:55 UTC, `rustc`\n\n## Summary\n\n\
                   | figure | measured | goal | |\n|---|---|---|---|\n\
                   | 10,000 `static_assert!` / plain, compile time | 1.090× | ≤ 1.10× | met |\n\
                   | riscv64: functions with no more instructions than the reference | 28 | all | met |\n\
                   | Mmio read32/write32 on 7.3: the same instructions | 7 of 7 | all | met |\n\n\
                   ## 1. First\n\ntext\n";
        let previous = Previous::parse(old);
        assert_eq!(
            previous.rows("1"),
            ["| 1 | 10,000 `static_assert!` / plain, compile time | 1.090× | ≤ 1.10× | met |"]
        );
        assert_eq!(previous.rows("2").len(), 1);
        assert_eq!(previous.rows("6").len(), 1);
    }

    #[test]
    fn every_row_of_the_results_belongs_to_a_part() {
        let previous = Previous::parse(include_str!("../RESULTS.md"));
        let summary = previous
            .sections
            .iter()
            .find(|(heading, _)| *heading == "Summary")
            .unwrap()
            .1;
        let rows = summary.lines().filter(|l| l.starts_with("| ")).count() - 1;
        assert_eq!(previous.rows.len(), rows);
        for (number, _) in &previous.rows {
            assert!(PARTS
                .iter()
                .any(|(_, title, _)| part_number(title) == *number));
        }
    }

    #[test]
    fn the_kept_parts_are_named_with_their_runs() {
        assert_eq!(
            kept_note(&[("1", "A"), ("2", "A")]),
            "Parts 1 and 2 were not run this time: their figures are those of the run of A."
        );
        assert_eq!(
            kept_note(&[("3", "B")]),
            "Part 3 was not run this time: its figures are those of the run of B."
        );
        assert_eq!(
            kept_note(&[("1", "A"), ("2", "B"), ("3", "A")]),
            "Parts 1, 2 and 3 were not run this time: their figures are those of the run of A \
             for parts 1 and 3 and the run of B for part 2."
        );
    }

    #[test]
    fn part_numbers_come_from_the_titles() {
        assert_eq!(part_number("7. Compile-time cost"), "7");
        assert_eq!(capitalised("not run"), "Not run");
    }
}
