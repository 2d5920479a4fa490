// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Part 1: the compile time of 10,000 assertions of each kind, against plain `assert!` in a
//! const and against `static_assertions` 1.1.
//!
//! Every variant is a generated library crate of one workspace in `target/bench/compile/`,
//! built in the debug profile without incremental compilation. After one build of everything
//! (the dependencies: kernel-core, its macros, `static_assertions`), each measured build
//! touches only the variant's `lib.rs`, so only that crate compiles; the rounds go round-robin
//! over the variants so that a burst of load elsewhere hits them all alike.

use super::{
    cargo, cell, median, runs, timed, timed_cpu, touch, write_if_changed, Goal, Part, Timing,
};
use crate::ui::{self, Result};
use std::fmt::Write as _;
use std::path::Path;

/// Assertions per generated crate.
const N: usize = 10_000;

/// Rounds of measurements: more than elsewhere, since each build is short.
const ROUNDS: usize = 5;

/// The goal: kernel-core's macros cost at most this much over the plain form.
const GOAL: f64 = 1.10;

/// One generated crate.
struct Variant {
    /// The package name.
    name: &'static str,
    /// Its `[dependencies]` lines.
    deps: &'static str,
    /// Generates its `lib.rs`.
    source: fn() -> String,
}

/// One comparison: kernel-core's macro, its plain baseline, and the other forms.
struct Group {
    /// The macro, for the tables.
    title: &'static str,
    /// How the 10,000 assertions are laid out.
    layout: &'static str,
    /// `(label, variant)`; the first is kernel-core's, the second the plain baseline of the goal.
    variants: &'static [(&'static str, Variant)],
    /// Why a form is missing, if one is.
    missing: &'static str,
}

const KERNEL_CORE: &str = "kernel-core = { path = \"@KERNEL_CORE@\" }\n";
const STATIC_ASSERTIONS: &str = "static_assertions = \"=1.1.0\"\n";

const GROUPS: &[Group] = &[
    Group {
        title: "`static_assert!`",
        layout: "10,000 item-level assertions on constants",
        variants: &[
            (
                "kernel-core `static_assert!`",
                Variant {
                    name: "static_kernel_core",
                    deps: KERNEL_CORE,
                    source: static_kernel_core,
                },
            ),
            (
                "plain `const _: () = assert!(..)`",
                Variant {
                    name: "static_plain",
                    deps: "",
                    source: static_plain,
                },
            ),
            (
                "static_assertions 1.1 `const_assert!`",
                Variant {
                    name: "static_sa",
                    deps: STATIC_ASSERTIONS,
                    source: static_sa,
                },
            ),
        ],
        missing: "",
    },
    Group {
        title: "`const_assert!`",
        layout: "1,000 generic fns with 10 assertions on their const parameter each, every fn \
                 instantiated once",
        variants: &[
            (
                "kernel-core `const_assert!`",
                Variant {
                    name: "generic_kernel_core",
                    deps: KERNEL_CORE,
                    source: generic_kernel_core,
                },
            ),
            (
                "plain `const { assert!(..) }`",
                Variant {
                    name: "generic_plain",
                    deps: "",
                    source: generic_plain,
                },
            ),
        ],
        missing: "static_assertions' `const_assert!` does not apply: it is an item, so it \
                  cannot refer to generic parameters. A `const _: () = assert!(..)` cannot \
                  either, so the plain form is an inline `const` block.",
    },
    Group {
        title: "`build_assert!`",
        layout: "10,000 `#[inline(always)]` fns, each asserting on its argument and called once \
                 with a constant",
        variants: &[
            (
                "kernel-core `build_assert!` in the fn",
                Variant {
                    name: "build_kernel_core",
                    deps: KERNEL_CORE,
                    source: build_kernel_core,
                },
            ),
            (
                "plain `const _: () = assert!(..)` on the constant argument",
                Variant {
                    name: "build_plain_const",
                    deps: "",
                    source: build_plain_const,
                },
            ),
            (
                "plain run-time `assert!` in the fn",
                Variant {
                    name: "build_plain_assert",
                    deps: "",
                    source: build_plain_assert,
                },
            ),
            (
                "static_assertions 1.1 `const_assert!` on the constant argument",
                Variant {
                    name: "build_sa",
                    deps: STATIC_ASSERTIONS,
                    source: build_sa,
                },
            ),
        ],
        missing: "",
    },
];

/// The head of every generated `lib.rs`.
fn header(uses: &str) -> String {
    format!(
        "// Generated by `cargo xtask bench`: {N} assertions, for compile-time measurements.\n\
         #![no_std]\n#![allow(dead_code)]\n{uses}\n"
    )
}

fn static_kernel_core() -> String {
    let mut s = header("use kernel_core::static_assert;\n");
    for i in 0..N {
        let _ = writeln!(s, "static_assert!({i}_usize < {});", i + 1);
    }
    s
}

fn static_plain() -> String {
    let mut s = header("");
    for i in 0..N {
        let _ = writeln!(s, "const _: () = assert!({i}_usize < {});", i + 1);
    }
    s
}

fn static_sa() -> String {
    let mut s = header("use static_assertions::const_assert;\n");
    for i in 0..N {
        let _ = writeln!(s, "const_assert!({i}_usize < {});", i + 1);
    }
    s
}

/// 1,000 generic fns with 10 assertions each, `assertion(n, k)` writing one on `N > k`, and
/// non-generic public fns that instantiate each once (so the assertions are evaluated).
fn generic(uses: &str, assertion: fn(usize) -> String) -> String {
    let mut s = header(uses);
    let fns = N / 10;
    for f in 0..fns {
        let _ = writeln!(
            s,
            "#[inline(never)]\npub fn g{f}<const N: usize>() -> usize {{"
        );
        for k in f * 10..f * 10 + 10 {
            let _ = writeln!(s, "    {}", assertion(k));
        }
        s.push_str("    N\n}\n");
    }
    for chunk in 0..fns / 100 {
        let _ = writeln!(
            s,
            "pub fn instantiate_{chunk}() -> usize {{\n    let mut s = 0;"
        );
        for f in chunk * 100..chunk * 100 + 100 {
            let _ = writeln!(s, "    s ^= g{f}::<{}>();", f * 10 + 10);
        }
        s.push_str("    s\n}\n");
    }
    s
}

fn generic_kernel_core() -> String {
    generic("use kernel_core::const_assert;\n", |k| {
        format!("const_assert!(N > {k});")
    })
}

fn generic_plain() -> String {
    generic("", |k| format!("const {{ assert!(N > {k}) }};"))
}

/// 10,000 `#[inline(always)]` fns `b{i}(x)`, with `inner(i)` inside each and `outer(i)` beside
/// it, called once each with the constant `i` from non-generic public fns.
fn build(uses: &str, inner: fn(usize) -> String, outer: fn(usize) -> String) -> String {
    let mut s = header(uses);
    for i in 0..N {
        let _ = writeln!(
            s,
            "{}#[inline(always)]\nfn b{i}(x: usize) -> usize {{\n{}    x ^ {i}\n}}",
            outer(i),
            inner(i)
        );
    }
    for chunk in 0..N / 100 {
        let _ = writeln!(s, "pub fn call_{chunk}() -> usize {{\n    let mut s = 0;");
        for i in chunk * 100..chunk * 100 + 100 {
            let _ = writeln!(s, "    s ^= b{i}({i});");
        }
        s.push_str("    s\n}\n");
    }
    s
}

fn build_kernel_core() -> String {
    build(
        "use kernel_core::build_assert::build_assert;\n",
        |i| format!("    build_assert!(x < {});\n", i + 1),
        |_| String::new(),
    )
}

fn build_plain_const() -> String {
    build(
        "",
        |_| String::new(),
        |i| format!("const _: () = assert!({i}_usize < {});\n", i + 1),
    )
}

fn build_plain_assert() -> String {
    build(
        "",
        |i| format!("    assert!(x < {});\n", i + 1),
        |_| String::new(),
    )
}

fn build_sa() -> String {
    build(
        "use static_assertions::const_assert;\n",
        |_| String::new(),
        |i| format!("const_assert!({i}_usize < {});\n", i + 1),
    )
}

/// Generates the workspace, warms it up, measures every variant and reports.
pub(super) fn run(repo: &Path, out: &Path) -> Result<Part> {
    let dir = out.join("compile");
    let kernel_core = repo.join("kernel-core");
    let variants: Vec<&Variant> = GROUPS
        .iter()
        .flat_map(|g| g.variants.iter().map(|(_, v)| v))
        .collect();

    let start = ui::step(&format!(
        "generating {} crates of {N} assertions in {}",
        variants.len(),
        dir.display()
    ));
    let members: Vec<String> = variants.iter().map(|v| format!("\"{}\"", v.name)).collect();
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "# Generated by `cargo xtask bench`.\n[workspace]\nresolver = \"2\"\nmembers = [{}]\n\n\
             [profile.dev]\nincremental = false\n",
            members.join(", ")
        ),
    )?;
    for v in &variants {
        write_if_changed(
            &dir.join(v.name).join("Cargo.toml"),
            &format!(
                "# Generated by `cargo xtask bench`.\n[package]\nname = \"{}\"\nversion = \"0.0.0\"\n\
                 edition = \"2021\"\npublish = false\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n{}",
                v.name,
                v.deps
                    .replace("@KERNEL_CORE@", &kernel_core.display().to_string())
            ),
        )?;
        write_if_changed(&dir.join(v.name).join("lib.rs"), &(v.source)())?;
    }
    ui::done("generated", start);

    let start =
        ui::step("warm-up: building every variant once, with its dependencies (debug profile)");
    timed(cargo(&dir).args(["build", "--workspace", "--quiet"]))?;
    let noop = timed(cargo(&dir).args(["build", "--quiet", "-p", "static_plain"]))?;
    ui::done("built", start);

    let mut times: Vec<Vec<Timing>> = vec![Vec::new(); variants.len()];
    for round in 1..=ROUNDS {
        let start = ui::step(&format!(
            "round {round} of {ROUNDS}: rebuilding each variant alone"
        ));
        for (i, v) in variants.iter().enumerate() {
            touch(&dir.join(v.name).join("lib.rs"))?;
            let t = timed_cpu(cargo(&dir).args(["build", "--quiet", "-p", v.name]))?;
            println!(
                "    {:<20} {:>6.2}s wall {:>6.2}s CPU",
                v.name, t.wall, t.cpu
            );
            times[i].push(t);
        }
        ui::done(&format!("round {round} done"), start);
    }
    let wall = |i: usize| times[i].iter().map(|t| t.wall).collect::<Vec<_>>();
    let cpu = |i: usize| times[i].iter().map(|t| t.cpu).collect::<Vec<_>>();

    let mut md = String::new();
    let mut goals = Vec::new();
    let _ = writeln!(
        md,
        "Generated library crates in `target/bench/compile/`, 10,000 assertions each, built \
         with `cargo +stable build -p <crate>` in the debug profile (incremental compilation \
         off) after their dependencies were built, {ROUNDS} rounds round-robin. Each figure is \
         the median for that one command, cargo's own overhead included (a build with nothing \
         to do took {noop:.2} s): its wall time (`Instant`), and its CPU time (user and system, \
         of cargo and rustc), which depends much less on what else the machine runs. The goal, \
         kernel-core's macro at most {GOAL:.2}× the plain form, is judged on the CPU-time \
         ratio; the wall-time ratio is shown next to it.\n"
    );
    let mut index = 0;
    for group in GROUPS {
        let n = group.variants.len();
        let walls: Vec<f64> = (0..n).map(|k| median(&wall(index + k))).collect();
        let cpus: Vec<f64> = (0..n).map(|k| median(&cpu(index + k))).collect();
        let _ = writeln!(md, "### {}: {}\n", group.title, group.layout);
        md.push_str(
            "| variant | wall (s) | wall runs (s) | × plain | CPU (s) | CPU runs (s) | × plain |\n\
             |---|---|---|---|---|---|---|\n",
        );
        for (k, (label, _)) in group.variants.iter().enumerate() {
            let _ = writeln!(
                md,
                "| {} | {:.2} | {} | {:.2}× | {:.2} | {} | **{:.2}×** |",
                cell(label),
                walls[k],
                runs(&wall(index + k)),
                walls[k] / walls[1],
                cpus[k],
                runs(&cpu(index + k)),
                cpus[k] / cpus[1]
            );
        }
        md.push('\n');
        if !group.missing.is_empty() {
            let _ = writeln!(md, "{}\n", group.missing);
        }
        let ratio = cpus[0] / cpus[1];
        let wall_ratio = walls[0] / walls[1];
        let met = ratio <= GOAL;
        let _ = writeln!(
            md,
            "kernel-core / {}: **{ratio:.2}×** in CPU time, {wall_ratio:.2}× in wall time \
             (goal ≤ {GOAL:.2}×: {}).\n",
            group.variants[1].0,
            if met { "met" } else { "**missed**" }
        );
        println!(
            "    {}: kernel-core / plain = {ratio:.2}× CPU, {wall_ratio:.2}× wall (goal ≤ {GOAL:.2}×{})",
            group.title,
            if met { "" } else { ": MISSED" }
        );
        goals.push(Goal {
            what: format!("10,000 {} / plain, compile time", group.title),
            figure: format!("{ratio:.2}× CPU ({wall_ratio:.2}× wall)"),
            goal: format!("≤ {GOAL:.2}×"),
            met: Some(met),
        });
        if let Some(sa) = group
            .variants
            .iter()
            .position(|(label, _)| label.starts_with("static_assertions"))
        {
            let _ = writeln!(
                md,
                "For comparison, static_assertions' `const_assert!` takes {:.2}× the plain form \
                 in CPU time here ({:.2}× wall; the issue quotes about 5.1 s against 0.9 s, \
                 5.7×, on the machine it was written on), and kernel-core's macro {:.2}× \
                 static_assertions'.\n",
                cpus[sa] / cpus[1],
                walls[sa] / walls[1],
                cpus[0] / cpus[sa]
            );
        }
        if group.title == "`build_assert!`" {
            let _ = writeln!(
                md,
                "`build_assert!` has no exact plain counterpart: it checks run-time values, \
                 which a `const _` cannot name. The goal compares it with the cheapest way to \
                 check the same facts (a `const _` on each constant argument, beside the fn). \
                 Against a plain run-time `assert!` in the same place, which the optimizer \
                 removes the same way, it takes {:.2}× in CPU time ({:.2}× wall).\n",
                cpus[0] / cpus[2],
                walls[0] / walls[2]
            );
            let _ = writeln!(
                md,
                "What is left of the cost: in the debug profile every `build_assert!` leaves a \
                 test and one call at its site (to `build_error_for::<true>`, which panics with \
                 the message), where a `const _` leaves no code.\n"
            );
        }
        index += n;
    }
    Ok(Part {
        markdown: md,
        goals,
    })
}
