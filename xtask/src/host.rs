// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host half of `cargo xtask test`: formatting, lints, the test suites on stable and on the
//! MSRV, release builds, 32-bit, Miri, the `no_std` targets, the docs, the differential
//! tests against the newest kernel's own code, and the survey of its drivers' references.

use cargo_kernel_core::infra::error::Context as _;
use cargo_kernel_core::infra::error::Result;
use cargo_kernel_core::infra::{command, progress};
use cargo_kernel_core::kernel::setup::{self, MSRV};
use std::path::Path;
use std::process::Command;

/// The bare-metal targets kernel-core must build for, with prebuilt `core` on stable.
const NO_STD_TARGETS: &[&str] = &[
    "x86_64-unknown-none",
    "aarch64-unknown-none",
    "riscv64imac-unknown-none-elf",
];

/// A host target of another architecture, whose tests run under qemu-user with Debian's
/// cross C library, linked by the LLVM the kernels use (clang as the driver, lld as the
/// linker: no cross gcc).
struct Emulated {
    /// Rust's target, and the GNU triple of its C library (`/usr/<triple>`).
    target: &'static str,
    triple: &'static str,
    /// The qemu-user program.
    qemu: &'static str,
    /// Why it is here, for the check's name.
    why: &'static str,
    /// The Debian packages of its C library and libgcc.
    packages: &'static [&'static str],
}

/// The emulated hosts: the big-endian ones (the kernel's `readl()` is little-endian everywhere
/// and `SysMem` is the CPU's order, so only a big-endian host tells the two apart: the
/// planted byte-order bug of `tests/byte_order_bug.rs` must show there), and PowerPC, whose
/// kernels Linux 7.3 gave Rust.
const EMULATED: &[Emulated] = &[
    Emulated {
        target: "s390x-unknown-linux-gnu",
        triple: "s390x-linux-gnu",
        qemu: "qemu-s390x",
        why: "64-bit big-endian",
        packages: &["libc6-dev-s390x-cross", "libgcc-12-dev-s390x-cross"],
    },
    Emulated {
        target: "powerpc-unknown-linux-gnu",
        triple: "powerpc-linux-gnu",
        qemu: "qemu-ppc",
        why: "32-bit big-endian",
        packages: &["libc6-dev-powerpc-cross", "libgcc-12-dev-powerpc-cross"],
    },
    Emulated {
        target: "powerpc64le-unknown-linux-gnu",
        triple: "powerpc64le-linux-gnu",
        qemu: "qemu-ppc64le",
        why: "64-bit little-endian PowerPC",
        packages: &["libc6-dev-ppc64el-cross", "libgcc-12-dev-ppc64el-cross"],
    },
];

impl Emulated {
    /// `cmd` set up to build for the target and run its tests under qemu-user.
    fn configure(&self, cmd: &mut Command) {
        let var = self.target.to_uppercase().replace('-', "_");
        // Property tests run fewer cases under emulation (`differential/tests/common`).
        cmd.env("KERNEL_CORE_EMULATED", self.qemu);
        // `-B`/`-L`: the target's own crt files and libraries, where clang would otherwise
        // take gcc-multilib's 32-bit x86 ones for a 32-bit target.
        let lib = format!("/usr/{}/lib", self.triple);
        cmd.env(
            format!("CARGO_TARGET_{var}_LINKER"),
            format!("clang-{}", setup::LLVM_VERSION),
        )
        .env(
            format!("CARGO_TARGET_{var}_RUSTFLAGS"),
            format!(
                "-Clink-arg=--target={} -Clink-arg=-fuse-ld=lld -Clink-arg=-B{lib} -Clink-arg=-L{lib}",
                self.triple
            ),
        )
        .env(
            format!("CARGO_TARGET_{var}_RUNNER"),
            format!("{} -L /usr/{}", self.qemu, self.triple),
        );
    }
}

/// One check: a name and the cargo invocations that make it.
struct Check {
    name: String,
    commands: Vec<Command>,
}

/// A cargo project of its own in the repository, at `dir`: `cargo <first>` and clippy on all
/// targets, both with every warning an error, in the target directory `target`.
fn own_project(repo: &Path, dir: &str, first: &str, target: &str) -> Check {
    let manifest = format!("{dir}/Cargo.toml");
    let commands = [
        &[first, "--manifest-path", &manifest][..],
        &[
            "clippy",
            "--manifest-path",
            &manifest,
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ][..],
    ]
    .into_iter()
    .map(|args| {
        let mut cmd = cargo(repo, "stable", args);
        cmd.env("RUSTFLAGS", "-D warnings")
            .env("CARGO_TARGET_DIR", repo.join(target));
        cmd
    })
    .collect();
    Check {
        name: format!("{dir}: cargo {first} and clippy --all-targets, -D warnings"),
        commands,
    }
}

/// `cargo +toolchain <args>` in the repository.
fn cargo(repo: &Path, toolchain: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.arg(format!("+{toolchain}"))
        .args(args)
        .current_dir(repo)
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("CARGO_TARGET_DIR");
    cmd
}

/// `cargo +nightly miri test <args>`: the host clocks read the real `clock_gettime`, which Miri
/// only allows without isolation.
fn miri(repo: &Path, args: &[&str]) -> Command {
    let mut cmd = cargo(repo, "nightly", &[&["miri", "test"], args].concat());
    cmd.env("MIRIFLAGS", "-Zmiri-disable-isolation");
    cmd
}

/// `cargo +nightly miri test` of the driver in `dir`, a cargo project of its own (the example,
/// the skeleton of `cargo kernel-core new`), in the target directory `target`: its host
/// suites, whose cases run its state's locks on threads, sized for Miri (`cfg(miri)`).
fn miri_driver(repo: &Path, dir: &Path, target: &Path) -> Command {
    let manifest = dir.join("Cargo.toml");
    let mut cmd = miri(repo, &["--manifest-path", &manifest.to_string_lossy()]);
    cmd.env("CARGO_TARGET_DIR", target);
    cmd
}

/// Installs what the host checks need.
pub fn setup() -> Result {
    let start = progress::step("checking toolchains and packages");
    setup::ensure_toolchain(
        "stable",
        &["clippy", "rustfmt", "rust-src"],
        &[
            &["i686-unknown-linux-gnu"][..],
            &EMULATED.iter().map(|e| e.target).collect::<Vec<_>>(),
            NO_STD_TARGETS,
        ]
        .concat(),
    )?;
    // The bench's tests build objects for the bare-metal targets, on the MSRV too.
    setup::ensure_toolchain(MSRV, &[], NO_STD_TARGETS)?;
    setup::ensure_toolchain("nightly", &["miri", "rust-src"], &[])?;
    // gcc-multilib links the i686 tests; the emulated hosts' tests link with clang and lld
    // against their cross C library and libgcc, and run under qemu-user.
    let (clang, lld) = (
        format!("clang-{}", setup::LLVM_VERSION),
        format!("lld-{}", setup::LLVM_VERSION),
    );
    let mut packages = vec!["gcc-multilib", clang.as_str(), lld.as_str(), "qemu-user"];
    packages.extend(EMULATED.iter().flat_map(|e| e.packages.iter().copied()));
    setup::ensure_packages(&packages, &[])?;
    progress::done("ready", start);
    Ok(())
}

/// The Rust files outside any cargo package: the Kbuild-only crates of `kbuild/` and
/// `examples/`, which `cargo fmt` does not see.
fn kbuild_sources(repo: &Path) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.to_string_lossy().into_owned());
            }
        }
    }
    let mut files = Vec::new();
    walk(&repo.join("kbuild"), &mut files);
    walk(&repo.join("examples"), &mut files);
    files
}

/// The checks, in order.
fn checks(repo: &Path, ci: bool) -> Vec<Check> {
    let profile: &[&str] = if ci { &["--profile", "ci"] } else { &[] };
    // The whole workspace, or (`kernel_core_only`) the workspace's default members, kernel-core's
    // own crates: release builds are about kernel-core (its link-time `build_assert!`), and
    // building the runner's dependencies once more in release would cost minutes.
    let nextest = |toolchain: &str, kernel_core_only: bool, extra: &[&str]| {
        let scope: &[&str] = if kernel_core_only {
            &[]
        } else {
            &["--workspace"]
        };
        cargo(
            repo,
            toolchain,
            &[&["nextest", "run"], scope, profile, extra].concat(),
        )
    };
    let mut checks = vec![
        Check {
            name: "rustfmt".into(),
            commands: vec![
                cargo(repo, "stable", &["fmt", "--all", "--check"]),
                {
                    // The guest's /init: sources inside cargo-kernel-core, without a manifest
                    // of their own there (see cargo-kernel-core/src/guest.rs).
                    let init = repo.join("cargo-kernel-core/guest-init");
                    let mut cmd = Command::new("rustfmt");
                    cmd.args(["+stable", "--edition", "2021", "--check"])
                        .arg(init.join("src/main.rs"))
                        .arg(init.join("build.rs"));
                    cmd
                },
                cargo(
                    repo,
                    "stable",
                    &["fmt", "--check", "--manifest-path", "corpus/Cargo.toml"],
                ),
                {
                    let mut cmd = Command::new("rustfmt");
                    cmd.args(["+stable", "--edition", "2021", "--check"])
                        .args(kbuild_sources(repo));
                    cmd
                },
            ],
        },
        Check {
            name: "clippy -D warnings".into(),
            commands: vec![cargo(
                repo,
                "stable",
                &[
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ],
            )],
        },
        Check {
            // With pin-init's `std` feature (`InPlaceInit` for `std`'s `Box` and `Arc`), which
            // its own tests and doc examples use.
            name: "tests on stable".into(),
            commands: vec![
                nextest("stable", false, &["--features", "kernel-core-pin-init/std"]),
                cargo(
                    repo,
                    "stable",
                    &[
                        "test",
                        "--workspace",
                        "--doc",
                        "--features",
                        "kernel-core-pin-init/std",
                    ],
                ),
            ],
        },
        Check {
            // The model checker (kernel-core's feature `loom`): the lost updates and the lost
            // wake-up it must find, their fixes passing every interleaving it explores. Its
            // own feature set, so the builds above never carry loom.
            name: "the model checker (feature loom): tests/sync_model.rs".into(),
            commands: vec![cargo(
                repo,
                "stable",
                &[
                    "test",
                    "-p",
                    "kernel-core-tests",
                    "--test",
                    "sync_model",
                    "--features",
                    "model",
                ],
            )],
        },
        Check {
            name: "tests on stable, release, kernel-core's crates (link-time build_assert! armed)"
                .into(),
            commands: vec![nextest("stable", true, &["--release"]), {
                // rustdoc does not optimize doctests under `--release`, while the
                // functions of kernel-core that use `build_assert!` (`genmask_*`,
                // `Bounded::from_expr`, ...) were compiled with it armed: give the
                // doctests the optimizer, and debug assertions so that their own
                // `build_assert!`s panic (see `build_assert`'s module docs).
                let mut doc = cargo(repo, "stable", &["test", "--doc", "--release"]);
                doc.env("RUSTDOCFLAGS", "-C opt-level=2 -C debug-assertions=on");
                doc
            }],
        },
        Check {
            // The host's detectors judged as the cells' are, through the runner's host step
            // with `--fail-each-alloc`: each planted bug (AB-BA, a sleep under a spinlock, an
            // unchecked allocation failure, a leaked KBox) caught under nextest (a process per
            // test, the lock order shared through the run's files) and `cargo test` (threads
            // of one process), and nothing with the bugs removed.
            name: "the planted bugs on the host, under nextest and cargo test".into(),
            commands: vec![cargo(repo, "stable", &["xtask", "planted-host"])],
        },
        // The corpus's suites, some of whose cases fail on purpose, run in the kernel cells
        // (see `corpus.rs`); here its host builds must be free of warnings.
        own_project(repo, "corpus", "build", "target/corpus"),
        // The example driver is a cargo project of its own (the layout `cargo kernel-core new`
        // makes): its host suites, and no warning, as its reader would build it.
        own_project(repo, "examples/dma-engine", "test", "target/dma-engine"),
        // The host's planted bugs build free of warnings (the check above runs them).
        own_project(
            repo,
            "kbuild/fixtures/planted_host",
            "build",
            "target/planted-host",
        ),
        Check {
            // nextest runs each test in a process of its own, so only `cargo test`, which runs
            // them as threads of one process, shows whether fake clocks are per thread.
            name: "fake clocks under cargo test, 16 threads, 10 runs".into(),
            commands: (0..10)
                .map(|_| {
                    cargo(
                        repo,
                        "stable",
                        &[
                            "test",
                            "-p",
                            "kernel-core-tests",
                            "--test",
                            "fake_clocks",
                            "--",
                            "--test-threads=16",
                        ],
                    )
                })
                .collect(),
        },
        Check {
            // On the MSRV, kernel-core's crates run their tests once, optimized (the form the
            // kernel builds them in, with link-time `build_assert!` armed), linked by GNU ld,
            // and their doc examples; the rest of the workspace (the runner, the bench,
            // xtask) must build there. Their debug builds and the runner's tests run on
            // stable: building all of them once more on the MSRV would cost a fresh run
            // minutes of its 75 on 2 cores.
            name: format!(
                "on Rust {MSRV}: kernel-core's crates' tests (release, GNU ld) and doc \
                 examples; the workspace builds"
            ),
            commands: vec![
                nextest(MSRV, true, &["--release"]),
                cargo(repo, MSRV, &["test", "--doc"]),
                cargo(repo, MSRV, &["check", "--workspace", "--all-targets"]),
            ],
        },
        Check {
            name: "tests on i686-unknown-linux-gnu (32-bit)".into(),
            commands: vec![
                cargo(
                    repo,
                    "stable",
                    &[
                        &[
                            "nextest",
                            "run",
                            "--target",
                            "i686-unknown-linux-gnu",
                            "-p",
                            "kernel-core",
                            "-p",
                            "kernel-core-tests",
                        ],
                        profile,
                    ]
                    .concat(),
                ),
                cargo(
                    repo,
                    "stable",
                    &[
                        "test",
                        "--doc",
                        "--target",
                        "i686-unknown-linux-gnu",
                        "-p",
                        "kernel-core",
                        "--features",
                        "std",
                    ],
                ),
            ],
        },
        Check {
            name: "Miri (nightly): kernel-core's unit tests, the KUnit suites, the host tests \
                   of the driver's logic, pin-init"
                .into(),
            commands: vec![
                miri(repo, &["-p", "kernel-core", "--features", "std", "--lib"]),
                miri(
                    repo,
                    &[
                        "-p",
                        "kernel-core-tests",
                        "--test",
                        "suites",
                        "--test",
                        "alloc_edges",
                        "--test",
                        "alloc_properties",
                        "--test",
                        "str",
                        "--test",
                        "fmt",
                        "--test",
                        "types",
                        "--test",
                        "print",
                        "--test",
                        "list",
                        "--test",
                        "scopes",
                    ],
                ),
                miri(repo, &["-p", "kernel-core-pin-init", "--features", "std"]),
            ],
        },
        Check {
            // The larger example's driver state (a device behind a spinlock, channels behind
            // mutexes, in `Arc`s) on threads; the skeleton's is added by `run`, once made.
            name: "Miri (nightly): the host suites of examples/dma-engine".into(),
            commands: vec![miri_driver(
                repo,
                &repo.join("examples/dma-engine"),
                &repo.join("target/dma-engine"),
            )],
        },
    ];
    // kernel-core's host suites on each emulated host (doctests are not run: rustdoc runs
    // them on the host's own target); its differential tests, 7.3's own doc examples among
    // them, come with the differential check.
    for emulated in EMULATED {
        let mut cmd = cargo(
            repo,
            "stable",
            &[
                "test",
                "--target",
                emulated.target,
                "-p",
                "kernel-core",
                "-p",
                "kernel-core-tests",
                "--lib",
                "--tests",
            ],
        );
        emulated.configure(&mut cmd);
        checks.push(Check {
            name: format!(
                "tests on {} ({}, {})",
                emulated.target, emulated.why, emulated.qemu
            ),
            commands: vec![cmd],
        });
    }
    let mut no_std = Vec::new();
    for target in NO_STD_TARGETS {
        for release in [false, true] {
            let mut args = vec!["build", "-p", "kernel-core", "--target", target];
            if release {
                args.push("--release");
            }
            no_std.push(cargo(repo, "stable", &args));
        }
    }
    no_std.push(cargo(
        repo,
        "nightly",
        &[
            "build",
            // `alloc` too: kernel-core's `KBox`, `KVec` and `Arc` are built on it, as the
            // kernel's are.
            "-Zbuild-std=core,alloc",
            "-p",
            "kernel-core",
            "--target",
            "loongarch64-unknown-none",
            "--release",
        ],
    ));
    checks.push(Check {
        name: "#![no_std] builds: x86_64, aarch64, riscv64 and loongarch64 bare metal".into(),
        commands: no_std,
    });
    checks.push(Check {
        name: "packaging: cargo publish --dry-run of the four crates".into(),
        // cargo unpacks the packages it verifies once per version, into
        // `registry/src/-<hash of this target/package>/`: remove copies of older sources.
        commands: vec![
            {
                let mut rm = Command::new("sh");
                rm.args([
                    "-c",
                    r#"rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/*kernel-core*"#,
                ]);
                rm
            },
            cargo(
                repo,
                "stable",
                &[
                    "publish",
                    "--dry-run",
                    "--allow-dirty",
                    "-p",
                    "kernel-core-build-error",
                    "-p",
                    "kernel-core-macros",
                    "-p",
                    "kernel-core-pin-init",
                    "-p",
                    "kernel-core",
                    "-p",
                    "cargo-kernel-core",
                ],
            ),
        ],
    });
    let mut doc = cargo(
        repo,
        "stable",
        &["doc", "--workspace", "--no-deps", "--exclude", "xtask"],
    );
    doc.env("RUSTDOCFLAGS", "-D warnings -D rustdoc::all");
    checks.push(Check {
        name: "cargo doc, all rustdoc lints denied".into(),
        commands: vec![doc],
    });
    checks
}

/// Builds and tests the newcomer's crate in `dir` as its reader would: no warnings, and its
/// suites pass under `cargo test` 20 times in a row and under nextest.
fn newcomer_check(dir: &Path) -> Check {
    let cargo_here = |args: &[&str]| {
        let mut cmd = cargo(dir, "stable", args);
        cmd.env("RUSTFLAGS", "-D warnings");
        cmd
    };
    let mut commands = vec![
        cargo_here(&["build"]),
        cargo_here(&["clippy", "--all-targets", "--", "-D", "warnings"]),
    ];
    commands.extend((0..20).map(|_| cargo_here(&["test"])));
    commands.push(cargo_here(&["nextest", "run"]));
    Check {
        name: "the newcomer's crate (getting started): no warnings, cargo test 20 times, nextest"
            .into(),
        commands,
    }
}

/// The differential tests (`differential/`): the newest kernel's own `rust/kernel/*.rs`,
/// compiled on the host and compared with kernel-core, its doc examples, and its drivers and
/// samples built and run on kernel-core (`tests/real_code.rs`, in the host's runs), in debug
/// and release builds, with their formatting and lints. `source` is that kernel's extracted
/// tree.
fn differential(repo: &Path, source: &Path, ci: bool) -> Check {
    let dir = repo.join("differential");
    let manifest = dir.join("Cargo.toml");
    let manifest = manifest.to_string_lossy();
    // `cargo <subcommand> --manifest-path <differential> <args>`: the path before any `--`.
    let cmd = |toolchain: &str, args: &[&str]| {
        let (subcommand, rest) = args.split_at(if args.first() == Some(&"nextest") {
            2
        } else {
            1
        });
        let mut cmd = cargo(
            repo,
            toolchain,
            &[subcommand, &["--manifest-path", &*manifest], rest].concat(),
        );
        cmd.env("KERNEL_CORE_LINUX_SRC", source);
        cmd
    };
    let profile: &[&str] = if ci { &["--profile", "ci"] } else { &[] };
    // The repository's nextest profiles, which `differential/`, its own workspace, lacks.
    let config = repo.join(".config/nextest.toml");
    let config = config.to_string_lossy();
    let nextest = |extra: &[&str]| {
        cmd(
            "stable",
            &[
                &["nextest", "run", "--config-file", &*config],
                profile,
                extra,
            ]
            .concat(),
        )
    };
    Check {
        name: format!(
            "differential tests against the kernel's own code ({})",
            source.display()
        ),
        commands: vec![
            cmd("stable", &["fmt", "--check"]),
            cmd(
                "stable",
                &["clippy", "--all-targets", "--", "-D", "warnings"],
            ),
            nextest(&[]),
            nextest(&["--release"]),
        ]
        .into_iter()
        .chain(EMULATED.iter().map(|emulated| {
            // 7.3's own code and doc examples, on each emulated host.
            let mut cmd = cmd("stable", &["test", "--target", emulated.target]);
            emulated.configure(&mut cmd);
            cmd
        }))
        .collect(),
    }
}

/// The survey (`cargo xtask survey`, see `survey.rs`) of the newest kernel's drivers and samples
/// in `source`, its extracted tree, as the differential tests use it: run by this program, its
/// result also written to `target/survey/survey.json`; fails below the required share.
fn survey(repo: &Path, source: &Path, kernel: &str) -> Result<Check> {
    let exe = std::env::current_exe().doing("finding this program")?;
    let mut cmd = Command::new(exe);
    cmd.args(["survey", "--tree"])
        .arg(source)
        .arg("--json")
        .arg(repo.join("target/survey/survey.json"))
        .current_dir(repo);
    Ok(Check {
        name: format!(
            "survey: the references of Linux {kernel}'s drivers and samples that kernel-core \
             provides (at least {:.0} %)",
            crate::survey::REQUIRED_PERCENT
        ),
        commands: vec![cmd],
    })
}

/// Runs every host check, continuing past failures; returns the names of those that failed.
pub fn run(repo: &Path, ci: bool) -> Result<Vec<String>> {
    let mut failed = Vec::new();
    let mut checks = checks(repo, ci);
    // The newest kernel's source, fetched into the cache if needed, for the differential tests.
    let newest = &cargo_kernel_core::model::arch::KERNELS[0];
    match cargo_kernel_core::kernel::source::fetch(newest) {
        Ok(source) => {
            checks.push(differential(repo, &source.dir, ci));
            match survey(repo, &source.dir, newest.name) {
                Ok(check) => checks.push(check),
                Err(e) => {
                    println!("    FAILED: {e}");
                    failed.push("the survey of the drivers' references".to_string());
                }
            }
        }
        Err(e) => {
            println!(
                "    FAILED: cannot fetch the Linux {} source: {e}",
                newest.name
            );
            failed.push(format!(
                "differential tests (no Linux {} source)",
                newest.name
            ));
        }
    }
    // The newcomer's crate, made from the getting-started page (see `newcomer.rs`).
    match crate::newcomer::make(repo, &repo.join("target")) {
        Ok(dir) => checks.push(newcomer_check(&dir)),
        Err(e) => {
            println!("    FAILED: {e}");
            failed.push("the newcomer's crate (from the getting-started page)".to_string());
        }
    }
    // The host suites of the skeleton that `cargo kernel-core new` makes, under Miri: its
    // driver state (a lock in an `Arc`) on threads, as the skeleton is made.
    match crate::runner::skeleton(repo, &repo.join("target/miri-skeleton"), "kcdriver") {
        Ok(dir) => checks.push(Check {
            name: "Miri (nightly): the host suites of `cargo kernel-core new`'s skeleton".into(),
            commands: vec![miri_driver(repo, &dir, &repo.join("target/skeleton"))],
        }),
        Err(e) => {
            println!("    FAILED: {e}");
            failed.push("Miri on the skeleton's host suites (no skeleton)".to_string());
        }
    }
    // The CI workflow that `cargo kernel-core new` writes must pass actionlint.
    if let Err(e) = crate::runner::lint_workflow(repo) {
        println!("    FAILED: {e}");
        failed.push("actionlint on the skeleton's workflow".to_string());
    }
    for mut check in checks {
        let start = progress::step(&check.name);
        let mut ok = true;
        for cmd in &mut check.commands {
            if let Err(e) = command::run(cmd, "") {
                if e.downcast_ref::<crate::process::Interrupted>().is_some() {
                    return Err(e);
                }
                println!("    FAILED: {e}");
                ok = false;
                break;
            }
        }
        if ok {
            progress::done("ok", start);
        } else {
            failed.push(check.name);
        }
    }
    Ok(failed)
}
