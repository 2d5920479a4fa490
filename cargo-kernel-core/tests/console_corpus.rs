// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The runner against real kernels' console logs: the corpus in `tests/data/console/`, whose
//! `README.md` says what each log is and what it shows.
//!
//! Each log is read as `pipeline::guest::boot` reads a guest's console, line by line through
//! the boot's monitor ([`BootMonitor`], which notes the hang the kernel reported), and judged as
//! `pipeline::plan` judges a boot ([`verdict`]: every declared case, the modules' loads, the
//! kernel's reports, the boot's end); only `kunit.py parse`, which needs the kernel's source
//! tree, is left out. Each test then holds the result to what a reader sees in the log: how
//! many modules loaded, each named case's outcome, each report's kind and the case it
//! happened in, the CPUs, and the problems that fail the cell, or that there are none.
//!
//! The unit tests prove the parser on the formats it was written for; these prove it on what
//! kernels really print: printk timestamps, lines at column 0 inside a suite, KTAP attributes,
//! a driver's own `WARNING:`, reports folded into one another, a log cut off in the middle of
//! a report.
//!
//! The verdict is given the cases the modules declare, as `#[kunit_tests]` writes them
//! ([`declared()`]): for the fixtures (`kbuild/fixtures/`, the README's `corpus_trouble`) their
//! whole tables; for kernel-core's own plans the suites the README speaks of (the KUnit
//! self-test and the corpus fail on purpose and are judged by `xtask`'s checks, not by the
//! verdict: they are not declared, as in the runner). Every case is declared `r` (runs): a
//! case KUnit reports skipped is as it must be whatever its state, so the `c` that a cell's
//! build writes for a case compiled out there would change no verdict here.

use cargo_kernel_core::infra::process::{Control, Ending, Monitor as _};
use cargo_kernel_core::model::console::{self, Event, Kind, Load, Log};
use cargo_kernel_core::model::declared::{self, Declared};
use cargo_kernel_core::model::ktap::Outcome;
use cargo_kernel_core::model::report::Case;
use cargo_kernel_core::pipeline::guest::{self, Boot, BootMonitor};
use cargo_kernel_core::pipeline::verdict;
use std::collections::BTreeSet;
use std::fs;
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use Kind::*;
use Outcome::{Fail, Pass, Skip};

/// The corpus's directory.
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/console")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How a log's guest ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// It exited by itself, or died where its log ends.
    Exited,
    /// The runner stopped it for the hang its monitor saw.
    StoppedForTheHang,
}

/// The modules of kernel-core's own plan (`xtask/src/plans.rs`), in the order `/init` loads
/// them; the conformance module is built from Linux 7.x on.
const KERNEL_CORE: &[&str] = &[
    "kernel_core_sample.ko",
    "kernel_core_tests.ko",
    "kernel_core_kunit_selftest.ko",
    "kernel_core_corpus.ko",
    "kernel_core_devices.ko",
    "kernel_core_smp.ko",
    "kernel_core_conformance.ko",
    "kernel_core_example.ko",
    "dma_engine.ko",
];

/// [`KERNEL_CORE`] on Linux 6.12.
const KERNEL_CORE_6_12: &[&str] = &[
    "kernel_core_sample.ko",
    "kernel_core_tests.ko",
    "kernel_core_kunit_selftest.ko",
    "kernel_core_corpus.ko",
    "kernel_core_devices.ko",
    "kernel_core_smp.ko",
    "kernel_core_example.ko",
    "dma_engine.ko",
];

/// The modules of the switch-back plan.
const SWITCH_BACK: &[&str] = &[
    "kernel_core_sample.ko",
    "kernel_core_tests.ko",
    "kernel_core_example.ko",
    "dma_engine.ko",
];

/// The fixture module of the planted bugs, the verdict's self-tests and `corpus_trouble`.
const FIXTURE: &str = "kernel_core_fixture.ko";

/// kernel-core's KUnit harness, loaded first on a kernel without KUnit built in (Debian's).
const HARNESS: &str = "kernel_core_kunit.ko";

/// What `module` declares: `suites`, each with its cases in order, each `r`, in the table
/// format of `#[kunit_tests]` ([`declared::parse`]).
fn declared(module: &str, suites: &[(&str, &[&str])]) -> Declared {
    let mut table = String::new();
    for (suite, cases) in suites {
        table += &format!("suite {suite}\n");
        for case in *cases {
            table += &format!("case {suite} {case} r\n");
        }
    }
    let suites = declared::parse(table.as_bytes()).unwrap_or_else(|e| panic!("{module}: {e}"));
    (module.to_string(), suites)
}

/// `kbuild/fixtures/planted_bugs.rs`'s table.
const PLANTED_BUGS: &[&str] = &[
    "lock_order_a_then_b",
    "lock_order_b_then_a",
    "unlocked_shared_counter",
    "sleep_under_spinlock",
    "heap_out_of_bounds_write",
    "use_after_free",
];

const BYTE_ORDER_BUG: &[&str] = &[
    "a_little_endian_register_through_mmio",
    "b_the_same_register_in_the_cpu_s_order",
];

/// The planted bugs' cases in their declared order, each with the kind of the one report
/// `caught` names for it (none for the others): what [`Judged::kinds`] must be.
fn planted_kinds(caught: &[(&str, Kind)]) -> Vec<(&'static str, Vec<Kind>)> {
    let cases = || PLANTED_BUGS.iter().chain(BYTE_ORDER_BUG);
    assert!(
        caught.iter().all(|(case, _)| cases().any(|c| c == case)),
        "{caught:?}"
    );
    cases()
        .map(|&case| {
            let kinds = caught.iter().filter(|(c, _)| *c == case).map(|(_, k)| *k);
            (case, kinds.collect())
        })
        .collect()
}

/// What a cell with the kernel's detectors (7.3 and 6.12 on x86_64 and arm64) makes of the
/// planted bugs: lockdep, sleeping in atomic context and KASAN each in its case, the counter by
/// its own assertion, and exactly those five cases failed.
fn assert_five_caught_by_their_detectors(j: &Judged) {
    assert_eq!(
        j.kinds(),
        planted_kinds(&[
            ("lock_order_b_then_a", Lockdep),
            ("sleep_under_spinlock", AtomicSleep),
            ("heap_out_of_bounds_write", Kasan),
            ("use_after_free", Kasan)
        ])
    );
    assert_eq!(
        j.failing(),
        [
            "lock_order_b_then_a",
            "unlocked_shared_counter",
            "sleep_under_spinlock",
            "heap_out_of_bounds_write",
            "use_after_free",
        ]
    );
}

fn planted_bugs() -> Vec<Declared> {
    vec![declared(
        FIXTURE,
        &[
            ("kernel_core_planted_bugs", PLANTED_BUGS),
            ("kernel_core_byte_order_bug", BYTE_ORDER_BUG),
        ],
    )]
}

/// The README's `corpus_trouble` fixture's table.
fn corpus_trouble() -> Vec<Declared> {
    vec![declared(
        FIXTURE,
        &[(
            "kernel_core_corpus_trouble",
            &[
                "a_passes",
                "b_panics",
                "c_reads_through_a_null_pointer",
                "d_spins_with_preemption_off",
                "e_runs_after_the_trouble",
            ],
        )],
    )]
}

/// `kbuild/fixtures/warn_in_a_case.rs`'s table.
fn warn_in_a_case() -> Vec<Declared> {
    vec![declared(
        FIXTURE,
        &[(
            "kernel_core_verdict_warn",
            &[
                "a_message_about_a_warning_is_no_warning",
                "b_warns",
                "c_runs_after_the_warning",
            ],
        )],
    )]
}

const BYTE_ORDER: (&str, &[&str]) = (
    "kernel_core_byte_order",
    &[
        "bitfield_values_are_numbers_in_any_byte_order",
        "sys_mem_is_native_memory",
        "mmio_is_little_endian",
    ],
);

const DEVICES: (&str, &[&str]) = (
    "kernel_core_devices",
    &[
        "hpet_identification",
        "hpet_timer_2_comparator_reads_back",
        "virtio_mmio_identification",
        "pcie_host_bridge_identification",
        "pcie_interrupt_line_reads_back",
        "mpic_identification_is_big_endian",
        "e500_pci_host_bridge_through_both_byte_orders",
        "vbe_identification",
        "a_region_s_bounds_are_checked",
        "the_kernel_s_mmio_and_kernel_core_s_read_the_same_device",
    ],
);

const SMP: (&str, &[&str]) = (
    "kernel_core_smp",
    &[
        "at_least_two_cpus_are_online",
        "every_cpu_runs_work_at_once",
    ],
);

const CONFORMANCE: (&str, &[&str]) = (
    "kernel_core_conformance",
    &[
        "sizes_match",
        "alignments_match",
        "bits_match",
        "delta_conversions_match",
        "delta_arithmetic_matches",
        "clocks_have_the_same_ids",
        "deltas_convert_into_the_kernels",
        "msecs_to_jiffies_matches",
        "error_codes_are_the_kernels",
        "delays_wait_at_least_their_span",
        "polling_matches",
        "millis_ceil_matches",
        "jiffies_match",
        "known_size_constants_match",
        "bounded_matches",
        "casts_match",
        "impl_flags_matches",
        "bitfield_matches",
        "registers_match",
        "mmio_accessors_reach_the_memory",
    ],
);

const DMA_ENGINE_DEVICE: (&str, &[&str]) = (
    "dma_engine_device",
    &[
        "a_doorbell_completes_a_copy_after_the_latency",
        "a_fill_writes_its_pattern_little_endian",
        "faults_halt_the_channel_until_a_reset",
        "nothing_moves_until_the_engine_and_the_channel_run",
        "the_model_runs_in_the_kernel",
    ],
);

/// The suites of kernel-core's own plans that the README speaks of, as the modules that
/// `kos` holds declare them.
fn kernel_core_suites(kos: &[&str]) -> Vec<Declared> {
    let mut found = vec![
        declared("kernel_core_tests.ko", &[BYTE_ORDER]),
        declared("dma_engine.ko", &[DMA_ENGINE_DEVICE]),
    ];
    if kos.contains(&"kernel_core_devices.ko") {
        found.push(declared("kernel_core_devices.ko", &[DEVICES]));
        found.push(declared("kernel_core_smp.ko", &[SMP]));
    }
    if kos.contains(&"kernel_core_conformance.ko") {
        found.push(declared("kernel_core_conformance.ko", &[CONFORMANCE]));
    }
    found
}

/// A log, read and judged as the runner reads and judges its boot.
struct Judged {
    /// The log's lines, as the guest printed them.
    text: String,
    boot: Boot,
    cases: Vec<Case>,
    /// Everything that fails the cell, in the order `pipeline::plan` lists it.
    problems: Vec<String>,
}

/// Reads the log `file` of the cell `cell`, whose boot loaded `kos` (which declare
/// `declared`) and ended as `end`, as `guest::boot` reads it, and judges it as
/// `pipeline::plan` does.
fn judge(file: &str, cell: &str, end: End, kos: &[&str], declared: Vec<Declared>) -> Judged {
    let console = corpus().join(file);
    let text = read(&console);
    let mut monitor = BootMonitor::new(guest::CASE_TIMEOUT);
    // The monitor stops a guest at once when it restarts, and 3 s after a hang report: no
    // guest here restarted, and this reading takes far less than 3 s.
    for line in text.lines() {
        if let Control::Stop(why) = monitor.line(line) {
            panic!("{file}: the boot's monitor stopped the guest at `{line}`: {why}");
        }
    }
    let ending = match end {
        End::Exited => Ending::Exited(ExitStatus::from_raw(0)),
        End::StoppedForTheHang => Ending::Stopped(
            monitor
                .hang
                .as_ref()
                .map(|(_, hang)| hang.reason.clone())
                .unwrap_or_else(|| panic!("{file}: stopped for a hang, but the monitor saw none")),
        ),
    };
    // As `guest::boot`: the hang counts if the guest was stopped for it.
    let hang = match ending {
        Ending::Stopped(_) => monitor.hang.take().map(|(_, hang)| hang),
        _ => None,
    };
    let boot = Boot {
        log: monitor.reader.finish(),
        console,
        seconds: 0.0,
        ending,
        hang,
        restarted: None,
    };
    // As `plan::Cell::judge_boot`, then `plan::Cell::run`.
    let kos: Vec<PathBuf> = kos.iter().map(PathBuf::from).collect();
    let mut problems = boot.problems(cell);
    let cases = verdict::cases(&boot.log, &declared, boot.hang.as_ref());
    problems.extend(verdict::load_problems(&boot.log, &kos, cell, &boot.console));
    problems.extend(verdict::event_problems(
        &boot.log,
        &cases,
        cell,
        &boot.console,
    ));
    // `judge_boot` words a hang outside every declared case itself; no log here has one.
    assert!(
        boot.hang.is_none() || cases.iter().any(|c| c.hung.is_some()),
        "{file}: a hang outside the declared cases: {:?}",
        boot.hang
    );
    problems.extend(verdict::case_problems(&cases, cell, &boot.console));
    Judged {
        text,
        boot,
        cases,
        problems,
    }
}

impl Judged {
    fn log(&self) -> &Log {
        &self.boot.log
    }

    /// The declared case `name`.
    fn case(&self, name: &str) -> &Case {
        self.cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no declared case {name}"))
    }

    /// Each declared case with its outcome, in order.
    fn outcomes(&self) -> Vec<(&str, Option<Outcome>)> {
        self.cases
            .iter()
            .map(|c| (c.name.as_str(), c.outcome))
            .collect()
    }

    /// The declared cases that are not as they must be, in order.
    fn failing(&self) -> Vec<&str> {
        self.cases
            .iter()
            .filter(|c| !c.ok())
            .map(|c| c.name.as_str())
            .collect()
    }

    /// Each declared case with the kinds of the kernel's reports the verdict attached to it.
    fn kinds(&self) -> Vec<(&str, Vec<Kind>)> {
        self.cases
            .iter()
            .map(|c| {
                let kinds = self
                    .log()
                    .events
                    .iter()
                    .filter(|e| c.report_texts.contains(&e.text()))
                    .map(|e| e.kind)
                    .collect();
                (c.name.as_str(), kinds)
            })
            .collect()
    }

    /// The reports of the case `name`, as the log has them.
    fn reports(&self, name: &str) -> Vec<&Event> {
        let case = self.case(name);
        self.log()
            .events
            .iter()
            .filter(|e| case.report_texts.contains(&e.text()))
            .collect()
    }

    /// The one problem that contains every one of `parts`.
    fn problem(&self, parts: &[&str]) -> &str {
        let found: Vec<&String> = self
            .problems
            .iter()
            .filter(|p| parts.iter().all(|part| p.contains(part)))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "one problem with {parts:?}; the problems: {:#?}",
            self.problems
        );
        found[0]
    }

    /// The load of `module`.
    fn load(&self, module: &str) -> &Load {
        self.log()
            .loads
            .iter()
            .find(|l| l.module == module)
            .unwrap_or_else(|| panic!("no load of {module}"))
    }

    /// The outcomes KUnit reported for the suite `suite` of `module`, in order.
    fn suite(&self, module: &str, suite: &str) -> Vec<(&str, Outcome)> {
        let doc = self.load(module).ktap.as_ref().expect("a KTAP document");
        let suite = doc
            .suites
            .iter()
            .find(|s| s.name == suite)
            .unwrap_or_else(|| panic!("no suite {suite} in {module}'s KTAP"));
        suite
            .cases
            .iter()
            .map(|c| (c.name.as_str(), c.outcome))
            .collect()
    }
}

/// A boot of kernel-core's own plan in which every module of `kos` loaded and `/init` reached
/// its end, the kernel reported no trouble, and the verdict finds no problem in the suites
/// declared.
fn assert_clean(j: &Judged, kos: &[&str], cpus: Option<u32>) {
    let log = j.log();
    let loads: Vec<_> = log
        .loads
        .iter()
        .map(|l| (l.module.as_str(), l.insmod))
        .collect();
    let all_ok: Vec<_> = kos.iter().map(|m| (*m, Some(Ok(())))).collect();
    assert_eq!(loads, all_ok);
    assert!(log.done, "/init reached its end");
    assert_eq!(log.cpus, cpus);
    assert!(log.events.is_empty(), "no report: {:#?}", log.events);
    assert!(j.problems.is_empty(), "{:#?}", j.problems);
    // The declared suites were all found: the verdict saw each case reported.
    assert!(j.cases.len() >= 8, "{} cases", j.cases.len());
    assert!(j.cases.iter().all(|c| c.outcome.is_some()));
}

/// The cases of `suite` that KUnit reported with `outcome`.
fn with(suite: &[(&str, Outcome)], outcome: Outcome) -> Vec<String> {
    suite
        .iter()
        .filter(|(_, o)| *o == outcome)
        .map(|(name, _)| name.to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------
// One clean boot per architecture.

#[test]
fn x86_64_kernel_core_is_clean_around_the_kernel_s_own_ktap_and_lines_inside_suites() {
    let kos = KERNEL_CORE;
    let j = judge(
        "7.3-x86_64-kernel-core.log",
        "7.3.4/x86_64",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    // The kernel's built-in KTAP, before `/init`, belongs to no load.
    assert!(j.text.contains("# Subtest: rust_kernel_fmt"));
    assert!(j.log().loads.iter().all(|l| {
        l.ktap
            .as_ref()
            .is_none_or(|d| d.suites.iter().all(|s| !s.name.starts_with("rust_")))
    }));
    // A driver's line between two results leaves its suite whole.
    assert!(j
        .load("dma_engine.ko")
        .lines
        .iter()
        .any(|l| l == "dma_engine: dma_engine_device: a descriptor took 4 cycles"));
    let device = j.suite("dma_engine.ko", "dma_engine_device");
    assert_eq!(with(&device, Pass).len(), 5, "{device:?}");
    // The self-test fails on purpose, as xtask's SELFTEST says, its messages' lines at column
    // 0 (`left: 4, right: 5`) inside its suite.
    assert!(j
        .load("kernel_core_kunit_selftest.ko")
        .lines
        .iter()
        .any(|l| l == "left: 4, right: 5"));
    assert_selftest_assertions(&j);
    assert_eq!(
        j.suite(
            "kernel_core_kunit_selftest.ko",
            "kernel_core_kunit_selftest"
        ),
        [
            ("a_passes", Pass),
            ("b_assert_fails", Fail),
            ("c_assert_eq_fails", Fail),
            ("d_assert_ne_fails_with_message", Fail),
            ("e_returns_err", Fail),
            ("f_cfg_disabled", Skip),
            ("g_ignored", Skip),
            ("h_failure_stops_the_case", Fail),
            ("i_nothing_ran_after_the_failure", Pass),
        ]
    );
    // The corpus's `fail_*` cases fail, and the suites after them are still read.
    let forms = j.suite("kernel_core_corpus.ko", "corpus_forms");
    assert_eq!(
        (
            with(&forms, Pass).len(),
            with(&forms, Fail).len(),
            with(&forms, Skip).len()
        ),
        (8, 8, 3)
    );
    assert!(with(&forms, Fail).iter().all(|c| c.starts_with("fail_")));
    assert_eq!(
        j.suite("kernel_core_corpus.ko", "corpus_names_second"),
        [("pass_second_suite_in_one_file", Pass)]
    );
}

/// The KUnit self-test's failing cases, judged as if declared: each carries its failed
/// assertion, the location, its `Expected ...` and its message at column 0, and its problem
/// quotes them.
fn assert_selftest_assertions(j: &Judged) {
    let suite = "kernel_core_kunit_selftest";
    let declared = [declared(
        "kernel_core_kunit_selftest.ko",
        &[(
            suite,
            &[
                "b_assert_fails",
                "c_assert_eq_fails",
                "d_assert_ne_fails_with_message",
                "e_returns_err",
                "h_failure_stops_the_case",
            ],
        )],
    )];
    let cases = verdict::cases(j.log(), &declared, None);
    let at = "ASSERTION FAILED at /work/main/kbuild/tests/kernel_core_kunit_selftest_main.rs";
    let expected: [&[&str]; 5] = [
        &[
            &format!("b_assert_fails: {at}:35"),
            "Expected 1 + 1 == 3 to be true, but is false",
        ],
        &[
            &format!("c_assert_eq_fails: {at}:40"),
            "Expected 2 + 2 == 5 to be true, but is false",
            "left: 4, right: 5",
        ],
        &[
            &format!("d_assert_ne_fails_with_message: {at}:45"),
            "Expected 7 != 7 to be true, but is false",
            "values must differ: 42: left: 7, right: 7",
        ],
        &[
            &format!("e_returns_err: {at}:19"),
            "Expected result.is_ok() to be true, but is false",
            "the test function returned an error: 7",
        ],
        &[
            &format!("h_failure_stops_the_case: {at}:67"),
            "Expected REACHED_AFTER_FAILURE.load(Ordering :: SeqCst) to be true, but is false",
            "stop here",
        ],
    ];
    for (case, lines) in cases.iter().zip(expected) {
        assert_eq!(case.outcome, Some(Fail), "{}", case.name);
        assert_eq!(case.diagnostics, lines, "{}", case.name);
        assert_eq!(case.telling(), Some(lines[0]));
    }
    let problems = verdict::case_problems(&cases, "7.3.4/x86_64", Path::new("console.log"));
    assert_eq!(
        problems[2],
        format!(
            "7.3.4/x86_64: {suite}::d_assert_ne_fails_with_message FAILED: \
             d_assert_ne_fails_with_message: {at}:45 (see console.log)\n    \
             | Expected 7 != 7 to be true, but is false\n    \
             | values must differ: 42: left: 7, right: 7"
        )
    );
}

#[test]
fn arm64_switch_back_reads_the_kernel_s_ktap_with_attributes() {
    let kos = SWITCH_BACK;
    let j = judge(
        "7.3-arm64-switch-back.log",
        "7.3.4/arm64",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    assert!(j
        .text
        .contains("    # mmio_is_little_endian.speed: normal\n    ok 3 mmio_is_little_endian"));
    // `1..13`: all the suites of the tests module, each reported ok.
    let doc = j.load("kernel_core_tests.ko").ktap.as_ref().unwrap();
    assert_eq!(doc.suites.len(), 13);
    assert!(doc.suites.iter().all(|s| s.ok == Some(true)));
    assert_eq!(
        j.outcomes()[..3],
        [
            ("bitfield_values_are_numbers_in_any_byte_order", Some(Pass)),
            ("sys_mem_is_native_memory", Some(Pass)),
            ("mmio_is_little_endian", Some(Pass)),
        ]
    );
}

#[test]
fn riscv64_kernel_core_is_clean_after_opensbi_s_banner() {
    let kos = KERNEL_CORE_6_12;
    let j = judge(
        "6.12-riscv64-kernel-core.log",
        "6.12.118/riscv64",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    let opensbi = j.text.find("OpenSBI v").expect("OpenSBI's banner");
    assert!(opensbi < j.text.find("Linux version").unwrap());
    assert_clean(&j, kos, Some(2));
    // RISC-V's devices run: virtio-mmio and the PCIe host bridge.
    let devices = j.suite("kernel_core_devices.ko", "kernel_core_devices");
    assert!(with(&devices, Pass).contains(&"virtio_mmio_identification".to_string()));
    assert!(with(&devices, Pass).contains(&"pcie_host_bridge_identification".to_string()));
}

#[test]
fn loongarch64_kernel_core_is_clean() {
    let kos = KERNEL_CORE_6_12;
    let j = judge(
        "6.12-loongarch64-kernel-core.log",
        "6.12.118/loongarch64",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    assert_eq!(j.case("at_least_two_cpus_are_online").outcome, Some(Pass));
}

#[test]
fn arm_7_2_kernel_core_skips_seven_conformance_cases() {
    let kos = KERNEL_CORE;
    let j = judge(
        "7.2-arm-kernel-core.log",
        "7.2.12/arm",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    let conformance = j.suite("kernel_core_conformance.ko", "kernel_core_conformance");
    assert_eq!(
        with(&conformance, Skip),
        [
            "millis_ceil_matches",
            "jiffies_match",
            "known_size_constants_match",
            "bounded_matches",
            "casts_match",
            "impl_flags_matches",
            "registers_match",
        ]
    );
    assert_eq!(with(&conformance, Pass).len(), 13);
}

#[test]
fn s390_kernel_core_skips_what_a_big_endian_machine_cannot_run() {
    let kos = KERNEL_CORE;
    let j = judge(
        "7.3-s390-kernel-core.log",
        "7.3.4/s390",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    assert_eq!(
        j.suite("kernel_core_tests.ko", "kernel_core_byte_order"),
        [
            ("bitfield_values_are_numbers_in_any_byte_order", Pass),
            ("sys_mem_is_native_memory", Pass),
            ("mmio_is_little_endian", Skip),
        ]
    );
    let devices = j.suite("kernel_core_devices.ko", "kernel_core_devices");
    assert_eq!(with(&devices, Skip).len(), 10, "{devices:?}");
}

#[test]
fn ppc64le_switch_back_s_nvram_warning_is_no_kernel_report() {
    let kos = SWITCH_BACK;
    let j = judge(
        "7.3-ppc64le-switch-back.log",
        "7.3.4/ppc64le",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert!(j.text.starts_with("qemu-system-ppc64: warning: "));
    assert!(j
        .text
        .lines()
        .any(|l| l == "WARNING: nvram corruption detected: 0-length partition"));
    assert_clean(&j, kos, Some(2));
}

#[test]
fn ppc32_kernel_core_e500_devices_pass() {
    let kos = KERNEL_CORE;
    let j = judge(
        "7.3-ppc32-kernel-core.log",
        "7.3.4/ppc32",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert_clean(&j, kos, Some(2));
    let devices = j.suite("kernel_core_devices.ko", "kernel_core_devices");
    assert_eq!(
        with(&devices, Pass),
        [
            "mpic_identification_is_big_endian",
            "e500_pci_host_bridge_through_both_byte_orders",
            "a_region_s_bounds_are_checked",
            "the_kernel_s_mmio_and_kernel_core_s_read_the_same_device",
        ]
    );
}

#[test]
fn um_kernel_core_has_no_cpu_count_and_skips_the_smp_cases() {
    let kos = KERNEL_CORE;
    let j = judge(
        "7.3-um-kernel-core.log",
        "7.3.4/um",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    // UML's host checks, on its standard error, come first.
    assert!(j.text.starts_with("Core dump limits :"));
    assert!(!j.text.contains("smp: Brought up"));
    assert_clean(&j, kos, None);
    assert_eq!(
        j.suite("kernel_core_smp.ko", "kernel_core_smp"),
        [
            ("at_least_two_cpus_are_online", Skip),
            ("every_cpu_runs_work_at_once", Skip),
        ]
    );
}

// ---------------------------------------------------------------------------------------
// The planted bugs.

#[test]
fn a_resumed_guest_s_log_is_judged_as_one_boot() {
    // The saved boot's log (the banner, the CPUs, `/init`'s `ready`), then the resumed run's.
    let j = judge(
        "7.3-x86_64-planted-bugs-resumed.log",
        "7.3.4/x86_64",
        End::Exited,
        &[FIXTURE],
        planted_bugs(),
    );
    assert!(j.text.starts_with("Linux version 7.3.4 "));
    assert!(j
        .text
        .contains("\nkernel-core-init: ready\nkernel-core-init: begin "));
    assert!(j.log().done);
    assert_eq!(j.log().cpus, Some(2));
    assert_eq!(j.log().loads.len(), 1);
    // The detectors of the resumed guest catch what they catch after a cold boot.
    assert_five_caught_by_their_detectors(&j);
}

#[test]
fn x86_64_planted_bugs_fail_five_cases_each_with_its_detector() {
    let j = judge(
        "7.3-x86_64-planted-bugs.log",
        "7.3.4/x86_64",
        End::Exited,
        &[FIXTURE],
        planted_bugs(),
    );
    assert!(j.log().done);
    assert_eq!(j.log().cpus, Some(2));
    assert_five_caught_by_their_detectors(&j);
    // lockdep's report, whole: from its headline under the rule to its stack.
    let lockdep = j.reports("lock_order_b_then_a")[0];
    assert_eq!(
        lockdep.headline,
        "WARNING: possible circular locking dependency detected"
    );
    for part in [
        "kernel_core_planted_a",
        "kernel_core_planted_b",
        "*** DEADLOCK ***",
    ] {
        assert!(lockdep.text().contains(part), "{part}");
    }
    // The SMP race fails by its assertion, whose values are at column 0.
    let counter = j.case("unlocked_shared_counter");
    assert_eq!(counter.outcome, Some(Fail));
    assert!(counter.diagnostics[0]
        .ends_with("ASSERTION FAILED at /work/main/kbuild/fixtures/planted_bugs.rs:182"));
    assert!(j
        .load(FIXTURE)
        .lines
        .iter()
        .any(|l| l == "left: 1026097, right: 2000000"));
    // Its problem names the assertion's location and quotes its lines, values included; the
    // `BUG:` right after its result is the next case's.
    assert_eq!(
        counter.diagnostics[1..],
        [
            "Expected counter.shared == expected to be true, but is false",
            "left: 1026097, right: 2000000"
        ]
    );
    j.problem(&[
        concat!(
            "kernel_core_planted_bugs::unlocked_shared_counter FAILED: unlocked_shared_counter: ",
            "ASSERTION FAILED at /work/main/kbuild/fixtures/planted_bugs.rs:182"
        ),
        "\n    | Expected counter.shared == expected to be true, but is false",
        "\n    | left: 1026097, right: 2000000",
    ]);
    // `INFO: lockdep is turned off.` is part of the atomic-sleep report, not one of its own.
    let sleep = j.reports("sleep_under_spinlock")[0];
    assert_eq!(sleep.lines[1], "INFO: lockdep is turned off.");
    // KASAN's reports, each closed by its rule.
    let oob = j.reports("heap_out_of_bounds_write")[0];
    assert!(oob
        .headline
        .starts_with("BUG: KASAN: slab-out-of-bounds in "));
    assert!(oob
        .location
        .as_deref()
        .unwrap()
        .contains("heap_out_of_bounds_write"));
    assert!(oob.text().contains("Write of size 1 at addr"));
    assert!(oob.lines.last().unwrap().starts_with("=========="));
    let uaf = j.reports("use_after_free")[0];
    assert!(uaf
        .headline
        .starts_with("BUG: KASAN: slab-use-after-free in "));
    assert!(uaf.text().contains("Freed by task 53:"));
    assert!(uaf.lines.last().unwrap().starts_with("=========="));
    // One problem per failing case, each naming its detector.
    assert_eq!(j.problems.len(), 5, "{:#?}", j.problems);
    j.problem(&[
        concat!(
            "7.3.4/x86_64: kernel_core_planted_bugs::lock_order_b_then_a ",
            "passed, but the kernel reported trouble"
        ),
        "lockdep: WARNING: possible circular locking dependency detected",
    ]);
    j.problem(&["kernel_core_planted_bugs::unlocked_shared_counter FAILED"]);
    j.problem(&[
        "kernel_core_planted_bugs::sleep_under_spinlock passed, but",
        "atomic-sleep check: BUG: scheduling while atomic",
    ]);
    j.problem(&[
        "kernel_core_planted_bugs::heap_out_of_bounds_write FAILED: BUG: KASAN: slab-out-of-bounds",
    ]);
    j.problem(&[
        "kernel_core_planted_bugs::use_after_free FAILED: BUG: KASAN: slab-use-after-free",
    ]);
}

#[test]
fn arm64_planted_bugs_fail_the_same_five() {
    let j = judge(
        "7.3-arm64-planted-bugs.log",
        "7.3.4/arm64",
        End::Exited,
        &[FIXTURE],
        planted_bugs(),
    );
    assert_eq!(j.log().cpus, Some(2));
    assert_five_caught_by_their_detectors(&j);
    // arm64's forms: KASAN's `__asan_store1` frame, `Call trace:`.
    let oob = j.reports("heap_out_of_bounds_write")[0];
    assert!(oob.text().contains(" __asan_store1+"));
    assert!(oob.text().contains("Call trace:"));
    assert!(j.reports("sleep_under_spinlock")[0]
        .text()
        .contains("Call trace:"));
    assert_eq!(j.problems.len(), 5, "{:#?}", j.problems);
    j.problem(&[
        "7.3.4/arm64: kernel_core_planted_bugs::lock_order_b_then_a passed, but",
        "lockdep",
    ]);
}

#[test]
fn debian_planted_bugs_are_caught_by_kfence_without_lockdep_or_kasan() {
    let j = judge(
        "debian-7.3-x86_64-planted-bugs.log",
        "7.3.4+deb13-amd64/x86_64",
        End::Exited,
        &[HARNESS, FIXTURE],
        planted_bugs(),
    );
    // printk's timestamps are no part of what is read: the loads, the harness first.
    assert!(j
        .text
        .starts_with("[    5.423895] Run /init as init process\n"));
    let loads: Vec<_> = j
        .log()
        .loads
        .iter()
        .map(|l| (l.module.as_str(), l.insmod))
        .collect();
    assert_eq!(loads, [(HARNESS, Some(Ok(()))), (FIXTURE, Some(Ok(())))]);
    assert!(j.log().done);
    // The excerpt begins at `/init`: the kernel's `smp: Brought up` is not in it.
    assert_eq!(j.log().cpus, None);
    // The suites in the other order; `# module:` is no diagnostic of the first case.
    let doc = j.load(FIXTURE).ktap.as_ref().unwrap();
    let order: Vec<_> = doc.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        order,
        ["kernel_core_byte_order_bug", "kernel_core_planted_bugs"]
    );
    assert!(doc.suites.iter().all(|s| s.cases[0].diagnostics.is_empty()));
    assert_eq!(
        j.kinds(),
        planted_kinds(&[
            ("sleep_under_spinlock", AtomicSleep),
            ("heap_out_of_bounds_write", Kfence),
            ("use_after_free", Kfence)
        ])
    );
    // KFENCE found the corruption at the free, in the harness's thread; KUnit saw nothing.
    let corruption = j.reports("heap_out_of_bounds_write")[0];
    assert_eq!(
        corruption.headline,
        concat!(
            "BUG: KFENCE: memory corruption in ",
            "kernel_core_kunit_case_thread+0x40/0x70 [kernel_core_kunit]"
        )
    );
    assert_eq!(j.case("heap_out_of_bounds_write").outcome, Some(Pass));
    assert!(j.reports("use_after_free")[0]
        .headline
        .starts_with("BUG: KFENCE: use-after-free read in "));
    assert_eq!(
        j.failing(),
        [
            "unlocked_shared_counter",
            "sleep_under_spinlock",
            "heap_out_of_bounds_write",
            "use_after_free",
        ]
    );
    assert_eq!(j.problems.len(), 4, "{:#?}", j.problems);
    j.problem(&[
        "7.3.4+deb13-amd64/x86_64: kernel_core_planted_bugs::heap_out_of_bounds_write passed, but",
        "BUG: KFENCE: memory corruption",
    ]);
}

#[test]
fn debian_rt_planted_bugs_sleep_under_a_spinlock_is_rcu_s_warning() {
    let j = judge(
        "debian-7.3-rt-x86_64-planted-bugs.log",
        "7.3.4+deb13-rt-amd64/x86_64",
        End::Exited,
        &[HARNESS, FIXTURE],
        planted_bugs(),
    );
    assert!(j.log().done);
    // On PREEMPT_RT a spinlock sleeps: no `scheduling while atomic`, but RCU's WARN, whose
    // message comes between `cut here` and its `WARNING:` line.
    assert!(j.text.contains(
        "------------[ cut here ]------------\n\
         [   14.104742] Voluntary context switch within RCU read-side critical section!\n\
         [   14.104742] WARNING: kernel/rcu/tree_plugin.h:332 at "
    ));
    assert_eq!(
        j.kinds(),
        planted_kinds(&[
            ("sleep_under_spinlock", Warning),
            ("heap_out_of_bounds_write", Kfence),
            ("use_after_free", Kfence)
        ])
    );
    let warn = j.reports("sleep_under_spinlock")[0];
    assert_eq!(
        warn.location.as_deref(),
        Some("kernel/rcu/tree_plugin.h:332")
    );
    assert_eq!(warn.lines[0], "------------[ cut here ]------------");
    assert_eq!(warn.lines[1], RCU_MESSAGE);
    assert!(warn.lines.last().unwrap().starts_with("---[ end trace "));
    assert_eq!(
        j.failing(),
        [
            "unlocked_shared_counter",
            "sleep_under_spinlock",
            "heap_out_of_bounds_write",
            "use_after_free",
        ]
    );
    assert_eq!(j.problems.len(), 4, "{:#?}", j.problems);
    j.problem(&[
        "kernel_core_planted_bugs::sleep_under_spinlock passed, but",
        "WARNING: kernel/rcu/tree_plugin.h:332 at rcu_note_context_switch",
        &format!("\n    | {RCU_MESSAGE}\n"),
    ]);
    // The SMP race's assertion as kernel_core_kunit's harness prints it: every line indented,
    // under printk's timestamps.
    let counter = j.case("unlocked_shared_counter");
    assert_eq!(
        counter.diagnostics,
        [
            "unlocked_shared_counter: ASSERTION FAILED at /work/main/kbuild/fixtures/planted_bugs.rs:182",
            "Expected counter.shared == expected to be true, but is false",
            "left: 1002708, right: 2000000"
        ]
    );
}

/// The message of RCU's WARN in the RT log, between `cut here` and its `WARNING:` line.
const RCU_MESSAGE: &str = "Voluntary context switch within RCU read-side critical section!";

#[test]
fn arm_planted_bugs_oops_in_a_compiler_builtin_fails_its_case() {
    let j = judge(
        "7.3-arm-planted-bugs.log",
        "7.3.4/arm",
        End::Exited,
        &[FIXTURE],
        planted_bugs(),
    );
    assert!(j.log().done);
    assert_eq!(j.log().cpus, Some(2));
    // No lockdep, no KASAN on arm: the Oops, and the scheduler's report.
    assert_eq!(
        j.kinds(),
        planted_kinds(&[
            ("unlocked_shared_counter", Oops),
            ("sleep_under_spinlock", AtomicSleep)
        ])
    );
    let oops = j.reports("unlocked_shared_counter")[0];
    assert_eq!(
        oops.headline,
        "Internal error: Oops - undefined instruction: 0 [#1] SMP ARM"
    );
    assert!(oops
        .lines
        .contains(&"PC is at __rust__adddf3+0x0/0x4".to_string()));
    assert!(oops.summary().contains("kernel_core::extras::fmt::Decimal"));
    let counter = j.case("unlocked_shared_counter");
    assert_eq!(counter.outcome, Some(Fail));
    assert!(counter.diagnostics[0].starts_with("unlocked_shared_counter: try faulted"));
    assert!(j.reports("sleep_under_spinlock")[0]
        .text()
        .contains("Call trace:"));
    assert_eq!(
        j.failing(),
        ["unlocked_shared_counter", "sleep_under_spinlock"]
    );
    assert_eq!(j.problems.len(), 2, "{:#?}", j.problems);
    j.problem(&[
        concat!(
            "7.3.4/arm: kernel_core_planted_bugs::unlocked_shared_counter FAILED: ",
            "Internal error: Oops - undefined instruction"
        ),
        "a 64-bit division",
    ]);
}

// ---------------------------------------------------------------------------------------
// A WARN, a hang, lost lines.

/// A verdict-warn_in_a_case boot: the WARN fails `b_warns`, alone; the driver's own
/// `WARNING: fan low` is no report.
fn assert_one_warn(j: &Judged, cell: &str, headline: &str) {
    assert!(j.log().done);
    assert!(j
        .load(FIXTURE)
        .lines
        .iter()
        .any(|l| l.starts_with("kernel_core_fixture: WARNING: fan low")));
    assert_eq!(
        j.kinds(),
        [
            ("a_message_about_a_warning_is_no_warning", vec![]),
            ("b_warns", vec![Warning]),
            ("c_runs_after_the_warning", vec![]),
        ]
    );
    assert_eq!(j.log().events.len(), 1, "{:#?}", j.log().events);
    let warn = &j.log().events[0];
    assert_eq!(warn.headline, headline);
    assert_eq!(
        warn.location.as_deref(),
        Some("/work/main/kbuild/fixtures/warn_in_a_case.c:12")
    );
    assert_eq!(warn.lines[0], "------------[ cut here ]------------");
    // The WARN's message, printed between `cut here` and its `WARNING:` line.
    assert_eq!(warn.lines[1], WARN_MESSAGE);
    assert_eq!(warn.lines[2], headline);
    assert!(warn.lines.last().unwrap().starts_with("---[ end trace "));
    // KUnit itself passed every case; the verdict fails the one the WARN was in.
    assert!(j.cases.iter().all(|c| c.outcome == Some(Pass)));
    assert_eq!(j.failing(), ["b_warns"]);
    // xtask's judge of this fixture: one problem, naming the case and the WARN's line.
    assert_eq!(j.problems.len(), 1, "{:#?}", j.problems);
    j.problem(&[
        &format!("{cell}: kernel_core_verdict_warn::b_warns passed, but the kernel reported"),
        "warn_in_a_case.c:12",
        &format!("\n    | {WARN_MESSAGE}\n"),
    ]);
}

/// The message of the verdict-warn_in_a_case fixture's WARN.
const WARN_MESSAGE: &str = "kernel-core verdict self-test: a WARN inside a KUnit case";

#[test]
fn warn_in_a_case_7_3_fails_b_warns_alone() {
    let j = judge(
        "7.3-x86_64-verdict-warn_in_a_case.log",
        "7.3.4/x86_64",
        End::Exited,
        &[FIXTURE],
        warn_in_a_case(),
    );
    assert_one_warn(
        &j,
        "7.3.4/x86_64",
        concat!(
            "WARNING: /work/main/kbuild/fixtures/warn_in_a_case.c:12 at ",
            "kernel_core_fixture_warn+0x7/0x10 [kernel_core_fixture], CPU#1: kunit_try_catch/45"
        ),
    );
}

#[test]
fn warn_in_a_case_6_12_fails_b_warns_alone() {
    let j = judge(
        "6.12-x86_64-verdict-warn_in_a_case.log",
        "6.12.118/x86_64",
        End::Exited,
        &[FIXTURE],
        warn_in_a_case(),
    );
    assert_one_warn(
        &j,
        "6.12.118/x86_64",
        concat!(
            "WARNING: CPU: 1 PID: 41 at /work/main/kbuild/fixtures/warn_in_a_case.c:12 ",
            "kernel_core_fixture_warn+0xc/0x10 [kernel_core_fixture]"
        ),
    );
}

#[test]
fn hang_in_a_case_names_the_case_that_hung_and_the_one_that_never_ran() {
    let j = judge(
        "7.3-x86_64-verdict-hang_in_a_case.log",
        "7.3.4/x86_64",
        End::StoppedForTheHang,
        &[FIXTURE],
        vec![declared(
            FIXTURE,
            &[(
                "kernel_core_verdict_hang",
                &["a_passes", "b_spins_forever", "c_never_runs"],
            )],
        )],
    );
    // The log ends mid-suite: no result for b, no `insmod` result, no `done`.
    assert!(!j.log().done);
    assert_eq!(j.load(FIXTURE).insmod, None);
    assert_eq!(
        j.outcomes(),
        [
            ("a_passes", Some(Pass)),
            ("b_spins_forever", None),
            ("c_never_runs", None),
        ]
    );
    assert_eq!(
        j.kinds(),
        [
            ("a_passes", vec![]),
            ("b_spins_forever", vec![HungTask]),
            ("c_never_runs", vec![]),
        ]
    );
    let hung = j.reports("b_spins_forever")[0];
    assert_eq!(
        hung.headline,
        "INFO: task init:1 blocked for more than 10 seconds."
    );
    assert!(hung
        .text()
        .contains("Showing all locks held in the system:"));
    assert!(hung.text().contains("(kunit_run_lock)"));
    // The monitor's hang is the hung-task report's, in b.
    let hang = j.boot.hang.as_ref().expect("the monitor's hang");
    assert_eq!(
        hang.during.suite.as_deref(),
        Some("kernel_core_verdict_hang")
    );
    assert_eq!(hang.during.case_index, 1);
    // What xtask's judge of this fixture demands, and the load that never ended.
    assert_eq!(j.problems.len(), 3, "{:#?}", j.problems);
    j.problem(&[concat!(
        "7.3.4/x86_64: kernel_core_verdict_hang::b_spins_forever HUNG: ",
        "the kernel reported a hung task: INFO: task init:1 blocked"
    )]);
    j.problem(&[concat!(
        "kernel_core_verdict_hang::c_never_runs did not run: ",
        "the run stopped when kernel_core_verdict_hang::b_spins_forever hung"
    )]);
    j.problem(&["kernel_core_fixture.ko did not load: its init never returned"]);
}

#[test]
fn flood_the_log_lost_lines_are_a_problem_of_the_module_s_load() {
    let j = judge(
        "7.3-x86_64-verdict-flood_the_log.log",
        "7.3.4/x86_64",
        End::Exited,
        &[FIXTURE],
        Vec::new(),
    );
    assert!(j.log().done);
    assert_eq!(j.load(FIXTURE).insmod, Some(Ok(())));
    assert!(j.load(FIXTURE).ktap.is_none(), "no suite");
    assert_eq!(j.log().events.len(), 1, "{:#?}", j.log().events);
    let dropped = &j.log().events[0];
    assert_eq!(dropped.kind, Dropped);
    assert_eq!(dropped.headline, "** 76171 printk messages dropped **");
    assert_eq!(dropped.during.module.as_deref(), Some(FIXTURE));
    assert_eq!(dropped.during.suite, None);
    assert_eq!(j.problems.len(), 1, "{:#?}", j.problems);
    j.problem(&[
        "7.3.4/x86_64: the kernel lost log lines while kernel_core_fixture.ko loaded or unloaded",
        "printk messages dropped",
    ]);
}

// ---------------------------------------------------------------------------------------
// Panics, Oopses, lockups, stalls, cut-off output.

#[test]
fn x86_64_corpus_trouble_panic_null_pointer_lockup_and_stall_each_in_its_case() {
    let j = judge(
        "7.3-x86_64-corpus-trouble.log",
        "7.3.4/x86_64",
        End::Exited,
        &[FIXTURE],
        corpus_trouble(),
    );
    assert!(j.log().done);
    assert_eq!(j.log().cpus, Some(2));
    assert_eq!(
        j.kinds(),
        [
            ("a_passes", vec![]),
            ("b_panics", vec![RustPanic]),
            ("c_reads_through_a_null_pointer", vec![Kasan, Bug]),
            ("d_spins_with_preemption_off", vec![SoftLockup, RcuStall]),
            ("e_runs_after_the_trouble", vec![]),
        ]
    );
    // b: the panic with its message, the BUG and the Oops it raised folded into it.
    let panic = j.reports("b_panics")[0];
    assert_eq!(
        panic.headline,
        "rust_kernel: panicked at corpus_trouble.rs:41:13: the ring overflowed: slot 64 of 64"
    );
    assert_eq!(panic.location.as_deref(), Some("corpus_trouble.rs:41:13"));
    assert!(panic
        .lines
        .contains(&"kernel BUG at rust/helpers/bug.c:7!".to_string()));
    assert!(panic.text().contains("\nOops: invalid opcode: 0000 [#1]"));
    // c: KASAN (a replayed printk line in its trace is no lost line), then the NULL
    // dereference with its Oops folded in.
    let [kasan, null] = j.reports("c_reads_through_a_null_pointer")[..] else {
        panic!("two reports in c");
    };
    assert_eq!(
        kasan.headline,
        "BUG: KASAN: null-ptr-deref in kernel_core_corpus_read_null+0x16/0x20 [kernel_core_fixture]"
    );
    assert!(kasan
        .text()
        .contains("** replaying previous printk message **"));
    assert!(j.log().events.iter().all(|e| e.kind != Dropped));
    assert_eq!(
        null.headline,
        "BUG: kernel NULL pointer dereference, address: 0000000000000000"
    );
    assert!(null.text().contains("\nOops: Oops: 0000 [#2] SMP KASAN"));
    // d: the soft lockup, then the RCU stall; KUnit passed it, slow.
    let [lockup, stall] = j.reports("d_spins_with_preemption_off")[..] else {
        panic!("two reports in d");
    };
    assert_eq!(
        lockup.headline,
        "watchdog: BUG: soft lockup - CPU#1 stuck for 13s! [kunit_try_catch:49]"
    );
    assert_eq!(
        stall.headline,
        "rcu: INFO: rcu_preempt self-detected stall on CPU"
    );
    let d = j.case("d_spins_with_preemption_off");
    assert_eq!(d.outcome, Some(Pass));
    assert!(d.diagnostics[0]
        .starts_with("d_spins_with_preemption_off: Test should be marked slow (runtime: "));
    assert_eq!(
        j.failing(),
        [
            "b_panics",
            "c_reads_through_a_null_pointer",
            "d_spins_with_preemption_off"
        ]
    );
    assert_eq!(j.problems.len(), 3, "{:#?}", j.problems);
    j.problem(&[concat!(
        "kernel_core_corpus_trouble::b_panics FAILED: ",
        "rust_kernel: panicked at corpus_trouble.rs:41:13"
    )]);
    j.problem(&[
        concat!(
            "kernel_core_corpus_trouble::c_reads_through_a_null_pointer FAILED: ",
            "BUG: KASAN: null-ptr-deref"
        ),
        "BUG: kernel NULL pointer dereference",
    ]);
    j.problem(&[
        concat!(
            "kernel_core_corpus_trouble::d_spins_with_preemption_off passed, ",
            "but the kernel reported trouble while it ran: ",
            "watchdog: BUG: soft lockup - CPU#1 stuck for 13s!"
        ),
        "; rcu: INFO: rcu_preempt self-detected stall on CPU",
    ]);
}

#[test]
fn arm64_corpus_trouble_panic_warns_null_pointer_two_lockups_and_a_stall() {
    let j = judge(
        "7.3-arm64-corpus-trouble.log",
        "7.3.4/arm64",
        End::Exited,
        &[FIXTURE],
        corpus_trouble(),
    );
    assert!(j.log().done);
    assert_eq!(j.log().cpus, Some(2));
    assert_eq!(
        j.kinds(),
        [
            ("a_passes", vec![]),
            ("b_panics", vec![RustPanic, Warning]),
            ("c_reads_through_a_null_pointer", vec![Warning, Kasan, Oops]),
            (
                "d_spins_with_preemption_off",
                vec![SoftLockup, SoftLockup, RcuStall]
            ),
            ("e_runs_after_the_trouble", vec![]),
        ]
    );
    let [panic, daif] = j.reports("b_panics")[..] else {
        panic!("two reports in b");
    };
    assert!(panic
        .lines
        .iter()
        .any(|l| l.starts_with("Internal error: Oops - BUG: ")));
    assert_eq!(
        daif.location.as_deref(),
        Some("arch/arm64/kernel/process.c:740")
    );
    assert_eq!(daif.lines[1], DAIF_MESSAGE);
    let [idle, kasan, null] = j.reports("c_reads_through_a_null_pointer")[..] else {
        panic!("three reports in c");
    };
    // The idle task's WARN, raised while c ran.
    assert!(idle.headline.ends_with(", CPU#0: swapper/0/0"));
    assert!(idle.headline.contains(" at ct_kernel_exit+"));
    assert!(kasan.headline.starts_with("BUG: KASAN: null-ptr-deref in "));
    assert_eq!(
        null.headline,
        "Unable to handle kernel NULL pointer dereference at virtual address 0000000000000000"
    );
    assert!(null
        .lines
        .iter()
        .any(|l| l.starts_with("Internal error: Oops: 0000000096000004 [#2]")));
    let stuck: Vec<_> = j
        .reports("d_spins_with_preemption_off")
        .iter()
        .map(|e| e.headline.as_str())
        .collect();
    assert_eq!(
        stuck,
        [
            "watchdog: BUG: soft lockup - CPU#1 stuck for 11s! [kunit_try_catch:49]",
            "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kunit_try_catch:49]",
            "rcu: INFO: rcu_preempt self-detected stall on CPU",
        ]
    );
    assert_eq!(
        j.failing(),
        [
            "b_panics",
            "c_reads_through_a_null_pointer",
            "d_spins_with_preemption_off"
        ]
    );
    assert_eq!(j.problems.len(), 3, "{:#?}", j.problems);
    j.problem(&[
        "7.3.4/arm64: kernel_core_corpus_trouble::b_panics FAILED: rust_kernel: panicked",
        "WARNING: arch/arm64/kernel/process.c:740",
        &format!("\n    | {DAIF_MESSAGE}\n"),
    ]);
}

/// The message of the WARN arm64 raises when the panicked `b_panics` switches away.
const DAIF_MESSAGE: &str = "Unexpected DAIF value: 0x3c0 (expected 0xc0)";

#[test]
fn um_corpus_trouble_panic_that_kills_the_kernel_fails_b_and_nothing_after_it_ran() {
    let j = judge(
        "7.3-um-corpus-trouble.log",
        "7.3.4/um",
        End::Exited,
        &[FIXTURE],
        corpus_trouble(),
    );
    // The log ends in the kernel panic's call trace.
    assert!(j.text.trim_end().lines().last().unwrap().starts_with(" [<"));
    assert!(!j.log().done);
    assert_eq!(j.load(FIXTURE).insmod, None);
    assert_eq!(j.log().cpus, None);
    assert_eq!(
        j.outcomes(),
        [
            ("a_passes", Some(Pass)),
            ("b_panics", None),
            ("c_reads_through_a_null_pointer", None),
            ("d_spins_with_preemption_off", None),
            ("e_runs_after_the_trouble", None),
        ]
    );
    // One report: the panic, with UML's BUG() and the kernel panic folded into it.
    assert_eq!(j.log().events.len(), 1, "{:#?}", j.log().events);
    let panic = &j.log().events[0];
    assert_eq!(panic.kind, RustPanic);
    assert_eq!(panic.during.case_index, 1);
    assert!(panic
        .lines
        .contains(&"BUG: failure at rust/helpers/bug.c:7/rust_helper_BUG()!".to_string()));
    assert!(panic
        .lines
        .contains(&"Kernel panic - not syncing: BUG!".to_string()));
    // No pass: b failed with the kernel, the rest never ran, the load and /init never ended.
    assert_eq!(
        j.failing(),
        [
            "b_panics",
            "c_reads_through_a_null_pointer",
            "d_spins_with_preemption_off",
            "e_runs_after_the_trouble",
        ]
    );
    assert_eq!(j.problems.len(), 6, "{:#?}", j.problems);
    j.problem(&[concat!(
        "7.3.4/um: kernel_core_corpus_trouble::b_panics FAILED: the kernel stopped while it ran: ",
        "rust_kernel: panicked at corpus_trouble.rs:41:13: the ring overflowed: slot 64 of 64"
    )]);
    for case in [
        "c_reads_through_a_null_pointer",
        "d_spins_with_preemption_off",
        "e_runs_after_the_trouble",
    ] {
        j.problem(&[&format!("kernel_core_corpus_trouble::{case} did not run")]);
    }
    j.problem(&["kernel_core_fixture.ko did not load: its init never returned"]);
    j.problem(&["7.3.4/um: the guest's /init never reached its end"]);
}

#[test]
fn um_6_12_guest_that_died_in_its_boot_loaded_nothing() {
    let kos = KERNEL_CORE_6_12;
    let j = judge(
        "6.12-um-kernel-core.log",
        "6.12.118/um",
        End::Exited,
        kos,
        kernel_core_suites(kos),
    );
    assert!(j.log().loads.is_empty());
    assert!(!j.log().done);
    assert_eq!(j.log().events.len(), 1, "{:#?}", j.log().events);
    let panic = &j.log().events[0];
    assert_eq!(panic.kind, KernelPanic);
    assert_eq!(
        panic.headline,
        "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
    );
    assert_eq!(panic.during.module, None);
    // Every declared case did not run; every module was never loaded; the panic is the
    // boot's; /init's death is explained.
    assert!(j.cases.iter().all(|c| c.outcome.is_none()));
    assert_eq!(
        j.problems.len(),
        1 + kos.len() + 1 + j.cases.len(),
        "{:#?}",
        j.problems
    );
    j.problem(&[
        "6.12.118/um: the guest's /init never reached its end",
        "`ptrace set fp regs failed, errno = 14`",
    ]);
    for ko in kos {
        j.problem(&[&format!(
            "6.12.118/um: {ko} was never loaded: the guest stopped before it"
        )]);
    }
    j.problem(&[concat!(
        "6.12.118/um: kernel kernel panic during the boot: ",
        "Kernel panic - not syncing: Attempted to kill init!"
    )]);
}

#[test]
fn log_cut_off_in_a_kasan_report_fails_the_case_that_was_running() {
    let j = judge(
        "6.12-arm64-planted-bugs-cut.log",
        "6.12.118/arm64",
        End::Exited,
        &[FIXTURE],
        planted_bugs(),
    );
    assert!(!j.log().done);
    assert_eq!(j.load(FIXTURE).insmod, None);
    assert_eq!(j.log().cpus, Some(2));
    assert_eq!(
        j.outcomes(),
        [
            ("lock_order_a_then_b", Some(Pass)),
            ("lock_order_b_then_a", Some(Pass)),
            ("unlocked_shared_counter", Some(Fail)),
            ("sleep_under_spinlock", Some(Pass)),
            ("heap_out_of_bounds_write", Some(Fail)),
            ("use_after_free", None),
            ("a_little_endian_register_through_mmio", None),
            ("b_the_same_register_in_the_cpu_s_order", None),
        ]
    );
    assert_eq!(
        j.kinds(),
        planted_kinds(&[
            ("lock_order_b_then_a", Lockdep),
            ("sleep_under_spinlock", AtomicSleep),
            ("heap_out_of_bounds_write", Kasan),
            ("use_after_free", Kasan)
        ])
    );
    // The open report is kept up to the last line the guest printed.
    let uaf = j.reports("use_after_free")[0];
    assert!(uaf
        .headline
        .starts_with("BUG: KASAN: slab-use-after-free in "));
    assert!(uaf.text().contains("\nFreed by task 49:\n"));
    assert_eq!(uaf.lines.last().unwrap(), " kfree+0x11c/0x35c");
    assert_eq!(j.text.lines().last().unwrap(), " kfree+0x11c/0x35c");
    // No pass: the case that was running failed with the kernel, what follows never ran.
    assert!(j.failing().contains(&"use_after_free"));
    j.problem(&[concat!(
        "6.12.118/arm64: kernel_core_planted_bugs::use_after_free FAILED: ",
        "the kernel stopped while it ran: BUG: KASAN: slab-use-after-free"
    )]);
    for case in BYTE_ORDER_BUG {
        j.problem(&[&format!("kernel_core_byte_order_bug::{case} did not run")]);
    }
    j.problem(&["kernel_core_fixture.ko did not load: its init never returned"]);
    j.problem(&["6.12.118/arm64: the guest's /init never reached its end"]);
    // And the five of the planted bugs, as on 7.3.
    assert_eq!(j.problems.len(), 5 + 2 + 1 + 1, "{:#?}", j.problems);
}

// ---------------------------------------------------------------------------------------
// The corpus as a whole.

/// The corpus's logs, by name.
fn logs() -> BTreeSet<String> {
    let dir = corpus();
    fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            entry.file_name().to_string_lossy().into_owned()
        })
        .filter(|name| name.ends_with(".log"))
        .collect()
}

#[test]
fn every_log_has_a_test_and_a_readme_row_and_every_row_its_log() {
    let logs = logs();
    assert!(logs.len() >= 20, "{logs:?}");
    // Each test names its log in a string, and only the tests do.
    let me = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/console_corpus.rs");
    let source = read(&me);
    let untested: Vec<_> = logs
        .iter()
        .filter(|name| !source.contains(&format!("\"{name}\"")))
        .collect();
    assert!(untested.is_empty(), "logs no test reads: {untested:?}");
    // The README's rows: `| `file` | cell[, plan][, lines A-B of C] | bytes | ... |`.
    let readme_path = corpus().join("README.md");
    let readme = read(&readme_path);
    let mut rows = BTreeSet::new();
    for row in readme.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`');
        let path = corpus().join(name);
        assert!(path.is_file(), "README.md names {name}, which is not there");
        let bytes = fs::metadata(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .len();
        assert_eq!(cells[3], bytes.to_string(), "{name}'s size in README.md");
        if let Some((_, range)) = cells[2].split_once("lines ") {
            // `lines 380-501 of 501`: an excerpt of that many lines.
            let (first, last) = range
                .split_once(" of ")
                .and_then(|(r, _)| r.split_once('-'))
                .unwrap_or_else(|| panic!("{name}: `{range}`"));
            let count = last.parse::<usize>().unwrap() - first.parse::<usize>().unwrap() + 1;
            assert_eq!(read(&path).lines().count(), count, "{name}: {range}");
        }
        assert!(rows.insert(name.to_string()), "{name}: two rows");
    }
    assert_eq!(rows, logs, "README.md's rows and the logs");
}

/// KUnit's own count of a suite's results: `# <suite>: pass:P fail:F skip:S total:T`.
fn kunit_totals(line: &str) -> Option<(&str, [usize; 3])> {
    let (suite, counts) = line.strip_prefix("# ")?.split_once(": pass:")?;
    if suite == "Totals" {
        return None;
    }
    let fields: Vec<&str> = counts.split(' ').collect();
    let [pass, fail, skip, _total] = fields[..] else {
        return None;
    };
    let number = |field: &str, prefix: &str| field.strip_prefix(prefix)?.parse().ok();
    Some((
        suite,
        [
            pass.parse().ok()?,
            number(fail, "fail:")?,
            number(skip, "skip:")?,
        ],
    ))
}

#[test]
fn every_suite_read_adds_up_to_kunit_s_own_totals() {
    let mut checked = 0;
    for name in logs() {
        let path = corpus().join(&name);
        let log = console::parse(&read(&path));
        for load in &log.loads {
            let Some(doc) = &load.ktap else { continue };
            let totals: Vec<_> = load.lines.iter().filter_map(|l| kunit_totals(l)).collect();
            // KUnit counts a suite once it finished it, if it has more than one case (its
            // default `kunit.stats_enabled=1`).
            let finished: Vec<&str> = doc
                .suites
                .iter()
                .filter(|s| s.ok.is_some() && s.cases.len() > 1)
                .map(|s| s.name.as_str())
                .collect();
            let counted: Vec<&str> = totals.iter().map(|(s, _)| *s).collect();
            assert_eq!(finished, counted, "{name}: {}", load.module);
            for (suite, counts) in totals {
                let read = doc.suites.iter().find(|s| s.name == suite).unwrap();
                let count = |o| read.cases.iter().filter(|c| c.outcome == o).count();
                assert_eq!(
                    [count(Pass), count(Fail), count(Skip)],
                    counts,
                    "{name}: {}: suite {suite}",
                    load.module
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "{checked} suites");
}
