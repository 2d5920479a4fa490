// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The command line, and nothing else: its grammar, described by types (`cargo kernel-core
//! --help`). The commands are carried out by [`crate::commands`].
//!
//! `--kernel`/`--arch` have one grammar, read from the matrix, and the commands `kernels`,
//! `modules`, `rust-analyzer` and `why-build-error` are written once ([`Shared`]) and
//! flattened into `cargo kernel-core` and kernel-core's own `cargo xtask`.

use crate::infra::error::Result;
use crate::model::arch::{self, Arch, Kernel, ARCHES, KERNELS};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// What `--help` says of the cache, for every command line that uses it.
pub const CACHE_HELP: &str = "Environment:
  KERNEL_CORE_CACHE                   where kernel sources and builds are cached
                                      (default: $XDG_CACHE_HOME/kernel-core or ~/.cache/kernel-core);
                                      a kernel build another key superseded goes after 6 h unused
  KERNEL_CORE_DEBIAN_MIRROR           the Debian archive that kernel packages come from
                                      (default: http://deb.debian.org/debian)
  KERNEL_CORE_DEBIAN_SECURITY_MIRROR  the archive of Debian's security suites, bookworm-security
                                      (default: http://deb.debian.org/debian-security)";

/// Cargo runs a subcommand as `cargo-kernel-core kernel-core ARGS`.
#[derive(Parser)]
#[command(name = "cargo", bin_name = "cargo")]
pub enum Cargo {
    KernelCore(Cli),
}

/// Test an out-of-tree Rust kernel driver on every kernel and architecture.
#[derive(Args)]
#[command(version, after_help = CACHE_HELP)]
pub struct Cli {
    /// The driver's directory.
    #[arg(long, value_name = "DIR", default_value = ".", global = true)]
    pub driver: PathBuf,
    #[command(subcommand)]
    pub command: Cmd,
}

// Its doc comments are `--help` text, not Markdown.
#[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]
#[derive(Subcommand)]
pub enum Cmd {
    /// Make a driver skeleton in DIR that builds and passes as generated.
    ///
    /// Its library (src/, two files with a #[kunit_tests] suite each), tested on the host by
    /// its Cargo.toml and built into the module by its Kbuild; the module glue; rust-analyzer
    /// set-up; a CI workflow for the required matrix.
    New {
        /// The new driver's directory; its name is the driver's.
        dir: PathBuf,
        /// The kernel-core dependency: a version (default: this tool's), a path to a
        /// kernel-core package (a checkout's `kernel-core/`, a vendor directory), or a git
        /// repository (`git+https://...`).
        #[arg(long, value_name = "VERSION|PATH|GIT")]
        kernel_core: Option<String>,
    },
    /// Run the driver's host suites, then its KUnit suites in each cell.
    ///
    /// With neither --kernel nor --arch: the host suites, then the fast cell (Linux 7.3 on
    /// User-Mode Linux, a plain process). Per cell: builds the kernel if it is not cached,
    /// builds the module, boots, and judges every case the module declares. Writes a KTAP
    /// log (accepted by the kernel's kunit.py parse), JUnit XML and run.json per cell in
    /// target/kernel-core/<kernel>-<arch>/. Fails on a failed, hung or missing case, a kernel
    /// WARNING, BUG, Oops or panic, lost log lines, a module that did not build or load, or a
    /// timeout, naming the log. Cells run --jobs at a time, those that took longest last time
    /// first; each cell's output comes whole, in the matrix's order.
    Test(Test),
    /// Install what the kernel builds and boots need, saying what it changes: Debian
    /// packages (clang, lld, QEMU, ...; run as root), rustup toolchains and bindgen.
    Setup {
        #[command(flatten)]
        cells: Cells,
    },
    /// Package the driver for its users: a DKMS source package that builds it on their
    /// machine (--dkms), and the Rust metadata that Debian's stock kernels' headers lack
    /// (--overlay).
    ///
    /// --dkms writes <name>-<version>/ and <name>-dkms_<version>_all.deb (installing it under
    /// /usr/src/<name>-<version>/): the driver's module sources, the kernel-core sources its
    /// Cargo.toml resolves, dkms.conf (BUILD_EXCLUSIVE_CONFIG="CONFIG_RUST", the modules,
    /// AUTOINSTALL) and a Makefile that runs kernel-core-preflight before Kbuild, so that a
    /// build that cannot work fails saying what to install. --overlay writes
    /// linux-rust-metadata-<release>_<version>_<arch>.deb for each stock kernel (rebuilt and
    /// checked in the cache), which depends on linux-headers-<release> of exactly its version.
    Package(Package),
    /// Check that Rust modules can be built for a kernel release on this machine: the
    /// preflight that the DKMS packages run before every build, every item with ok or missing.
    ///
    /// The headers, CONFIG_RUST, the kernel's own rustc (its CONFIG_RUSTC_VERSION_TEXT, and the
    /// version its Rust metadata records), the Rust metadata (Debian's headers carry none: the
    /// overlay package), proc macros this machine can run, target.json where the architecture
    /// uses it, bindgen of the kernel's version, and an overlay made for these very headers.
    Doctor(Doctor),
    #[command(flatten)]
    Shared(Shared),
}

/// `cargo kernel-core package`'s options.
// Its doc comments are `--help` text, not Markdown.
#[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]
#[derive(Args, Clone, Debug)]
pub struct Package {
    /// Write the driver's DKMS source package (a directory and a .deb).
    #[arg(long, required_unless_present = "overlay")]
    pub dkms: bool,
    /// With --dkms: a test build, <name>-kunit, whose #[kunit_tests] suites run when the
    /// module loads, by kernel-core's harness module (packaged too) on kernels without KUnit.
    #[arg(long, requires = "dkms")]
    pub with_tests: bool,
    /// Write the Rust metadata overlay of each stock kernel that --kernel and --arch name
    /// (default: every stock kernel of the required matrix), or of --kernel-release.
    #[arg(long)]
    pub overlay: bool,
    #[command(flatten)]
    pub cells: Cells,
    /// With --overlay: the stock kernel release (`7.3.4+deb13-amd64`), instead of the newest
    /// of each row.
    #[arg(long, value_name = "KREL", requires = "overlay")]
    pub kernel_release: Option<String>,
    /// Where the packages go (default: the driver's target/kernel-core/package).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `cargo kernel-core doctor`'s options.
// Its doc comments are `--help` text, not Markdown.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Args, Clone, Debug)]
pub struct Doctor {
    /// The kernel release (default: the running kernel's, `uname -r`).
    #[arg(long, value_name = "KREL")]
    pub kernel_release: Option<String>,
    /// Its headers (default: /lib/modules/<release>/build).
    #[arg(long, value_name = "DIR")]
    pub kdir: Option<PathBuf>,
}

/// `cargo kernel-core test`'s options.
#[derive(Args, Clone, Debug)]
pub struct Test {
    #[command(flatten)]
    pub matrix: Matrix,
    /// Skip the host suites.
    #[arg(long, conflicts_with = "host_only")]
    pub no_host: bool,
    /// Run the host suites only.
    #[arg(long)]
    pub host_only: bool,
    /// After the host suites, run each host test again once per allocation it made, failing
    /// each in turn (KERNEL_CORE_FAIL_NTH=1, 2, ...), as the kernel's fail-nth does: every
    /// error path must return its error (or handle it), leak nothing and leave no lock held.
    /// Prints how the mode's time grows with the number of allocations.
    #[arg(long, conflicts_with = "no_host")]
    pub fail_each_alloc: bool,
    /// Build the host suites with kernel-core's model checker (its feature `loom`, as
    /// `--features kernel-core/loom`): each test's `kernel_core::extras::model::model` runs
    /// once per interleaving of its threads that loom explores, and one that fails fails the
    /// case, naming the model checker. The other tests run as without it.
    #[arg(long, conflicts_with = "no_host")]
    pub model: bool,
    /// Do not report the leaks of this host test (its name as `cargo test` lists it, its last
    /// parts, or a prefix ending in `*`); repeatable, or comma-separated.
    #[arg(
        long,
        value_name = "TEST",
        value_delimiter = ',',
        conflicts_with = "no_host"
    )]
    pub allow_leaks: Vec<String>,
    /// Fail on module-build warnings.
    #[arg(long)]
    pub deny_warnings: bool,
    /// How long a case may run without output before it counts as hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub case_timeout: u64,
    /// Under QEMU, keep the guest's time by its own instructions (`-icount shift=0,sleep=off`)
    /// instead of the host's clock, so that a busy host cannot stretch a case's timeouts.
    #[arg(long)]
    pub icount: bool,
    /// Boot every guest from its kernel. By default, an x86_64 or arm64 guest is booted once
    /// per kernel, saved when its `/init` is ready, and resumed for each run, which spares most
    /// of the boot; the suites run the same either way.
    #[arg(long)]
    pub cold_boot: bool,
    #[command(flatten)]
    pub events: Events,
}

/// Where a run's events go beside the terminal: `--events FILE`.
#[derive(Args, Clone, Debug, Default)]
pub struct Events {
    /// Also write every event of the run to FILE as it happens, one JSON object per line
    /// (steps, notes, each case's result, each plan's and cell's report), for editors and CI
    /// annotations.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

/// Checks a `--kernel` value: a kernel of the matrix, a comma-separated list, or `all`.
pub fn kernel_list(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &KERNELS.iter().map(|k| k.name).collect::<Vec<_>>(),
        "kernel",
    )
}

/// Checks an `--arch` value: an architecture of the matrix, a comma-separated list, or `all`.
pub fn arch_list(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &ARCHES.iter().map(|a| a.name).collect::<Vec<_>>(),
        "architecture",
    )
}

/// Checks one `--arch` name.
pub fn one_arch(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &ARCHES.iter().map(|a| a.name).collect::<Vec<_>>(),
        "architecture",
    )
    .and_then(|v| {
        if v.contains(',') || v == "all" {
            Err("one architecture here".to_string())
        } else {
            Ok(v)
        }
    })
}

/// Checks one `--kernel` name.
pub fn one_kernel(value: &str) -> std::result::Result<String, String> {
    list(
        value,
        &KERNELS.iter().map(|k| k.name).collect::<Vec<_>>(),
        "kernel",
    )
    .and_then(|v| {
        if v.contains(',') || v == "all" {
            Err("one kernel here".to_string())
        } else {
            Ok(v)
        }
    })
}

fn list(value: &str, names: &[&str], what: &str) -> std::result::Result<String, String> {
    if value == "all" {
        return Ok(value.to_string());
    }
    for item in value.split(',') {
        if !names.contains(&item.trim()) {
            return Err(format!(
                "unknown {what} `{}`: use {}, a comma-separated list of them, or all",
                item.trim(),
                names.join(", ")
            ));
        }
    }
    Ok(value.to_string())
}

/// Which cells: `--kernel` and `--arch`.
#[derive(Args, Clone, Debug, Default)]
pub struct Cells {
    /// Kernels: a kernel of the matrix (`kernels list`), a comma-separated list, or all. With
    /// neither option: the command's default cell (above); with `--kernel all --arch all`: the
    /// required matrix.
    #[arg(long, value_name = "K", value_parser = kernel_list)]
    pub kernel: Option<String>,
    /// Architectures: one of the matrix (x86_64 when only --kernel is given), a
    /// comma-separated list, or all (every architecture the kernels have Rust on).
    #[arg(long, value_name = "A", value_parser = arch_list)]
    pub arch: Option<String>,
}

impl Cells {
    /// The cells the options name ([`arch::matrix`]).
    pub fn matrix(&self) -> Result<Vec<(Kernel, Arch)>> {
        arch::matrix(self.kernel.as_deref(), self.arch.as_deref())
    }
}

/// Which cells, and how many run at once: `--kernel`, `--arch` and `--jobs`.
#[derive(Args, Clone, Debug, Default)]
pub struct Matrix {
    #[command(flatten)]
    pub cells: Cells,
    /// How many cells run at once (one builds its module while another boots); their output
    /// still comes cell by cell, in order. One per core by default.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl Matrix {
    /// `--jobs`, or one per core.
    pub fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(crate::pipeline::lanes::default_jobs, usize::from)
    }
}

/// The commands both tools share.
#[derive(Subcommand, Debug)]
pub enum Shared {
    /// The kernels of the matrix: list them, build them into the cache, or remove builds.
    #[command(subcommand)]
    Kernels(KernelsCmd),
    /// Build the modules against a kernel build of your own, or a distribution's stock kernel.
    ///
    /// With --kdir, the kernel build directory (its O=) is checked first: Rust support, the
    /// same rustc, Module.symvers; the architecture is read from its .config unless given.
    /// With --distro or --kernel-release, for a distribution's stock kernel as its users run
    /// it: the modules are built against the kernel's Rust metadata, rebuilt and checked in
    /// the cache (as for `test --kernel debian-7.3`), and the output says how to install and
    /// sign them.
    Modules {
        /// The kernel build directory.
        #[arg(long, value_name = "DIR", required_unless_present_any = ["distro", "kernel_release"], conflicts_with_all = ["distro", "kernel_release"])]
        kdir: Option<PathBuf>,
        /// A distribution kernel of the matrix (debian-7.3, debian-7.2); its newest release
        /// unless --kernel-release is given.
        #[arg(long, value_name = "K", value_parser = one_kernel)]
        distro: Option<String>,
        /// The stock kernel release to build for, such as `$(uname -r)` on the machine that
        /// will load the module (`7.3.4+deb13-amd64`); picks the --distro row if that is not
        /// given.
        #[arg(long, value_name = "KREL")]
        kernel_release: Option<String>,
        /// With a stock kernel: also write the metadata overlay package (rust/*.rmeta, the
        /// proc macros, scripts/target.json), which makes `make -C /lib/modules/$KREL/build
        /// M=...` build Rust modules on the user's machine.
        #[arg(long)]
        overlay: bool,
        /// The architecture (default: from the .config, or x86_64 for a stock kernel).
        #[arg(long, value_name = "A", value_parser = one_arch)]
        arch: Option<String>,
    },
    /// Write the module's rust-project.json, so that rust-analyzer knows the kernel's crates,
    /// kernel_core, kernel_core_macros and the driver's library in the module.
    ///
    /// Runs the kernel's `make M=DIR rust-analyzer`, builds libkernel_core_macros.so with
    /// Kbuild, adds kernel-core (and, for a kernel without a `pin_init` crate such as 6.12,
    /// kernel-core's pin-init crate as `pin_init`, as Kbuild does), checks the file, and runs
    /// `rust-analyzer diagnostics` on the module if rust-analyzer is installed.
    RustAnalyzer {
        /// The kernel the module is built against.
        #[arg(long, value_name = "K", default_value = "7.3", value_parser = one_kernel)]
        kernel: String,
        /// The architecture (default: x86_64).
        #[arg(long, value_name = "A", value_parser = one_arch)]
        arch: Option<String>,
        /// The module's directory (default: the driver's).
        #[arg(long, value_name = "DIR")]
        module: Option<PathBuf>,
        /// rust-analyzer must run and find no error in the module or in kernel-core.
        #[arg(long)]
        strict: bool,
    },
    /// Name each build_assert!/build_error! call that survived optimization in these objects.
    ///
    /// Kernel or host objects (after a failed link, target/*/deps/*.o): each site's
    /// file:line:column and the function that holds it, and the functions that call
    /// build_error with no site. Module builds print this unasked when modpost fails on
    /// rust_build_error.
    WhyBuildError {
        /// The object files.
        #[arg(required = true, value_name = "OBJECT.o")]
        objects: Vec<PathBuf>,
    },
}

/// `kernels ...`.
#[derive(Subcommand, Debug)]
pub enum KernelsCmd {
    /// The kernels and architectures, which cells are required, and which builds are cached
    /// or being built.
    List(Cells),
    /// Fetch and build kernels into the cache, with nothing else (the longest builds first).
    Build(Cells),
    /// Remove cached kernel builds (sources and packages stay).
    Clean(Cells),
    /// Check that every package the matrix fetches can be fetched, from nothing.
    ///
    /// From empty apt roots of its own (never the cache's): each suite's signed lists, each
    /// package's entry, size and SHA256, and that its URL serves a file of that size. Nothing
    /// but the lists is downloaded (a minute). Fails naming the package, the suite and the URL.
    CheckFetch,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn lists_are_checked_against_the_matrix() {
        assert_eq!(kernel_list("6.12,7.3").unwrap(), "6.12,7.3");
        assert_eq!(arch_list("all").unwrap(), "all");
        let e = arch_list("x86_64,sparc").unwrap_err();
        assert!(
            e.contains("unknown architecture `sparc`") && e.contains("loongarch64"),
            "{e}"
        );
        assert!(one_arch("x86_64,arm64").is_err());
        assert!(one_kernel("7.3").is_ok());
        assert!(kernel_list("5.10").is_err());
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cargo::command().debug_assert();
    }

    #[test]
    fn options_parse_and_misuse_is_refused() {
        let parse =
            |args: &[&str]| Cargo::try_parse_from([&["cargo", "kernel-core"], args].concat());
        assert!(parse(&["test", "--kernel", "6.12,7.3", "--arch", "all"]).is_ok());
        assert!(parse(&["test", "--arch", "sparc"]).is_err());
        assert!(parse(&["test", "--host-only", "--no-host"]).is_err());
        assert!(parse(&["test", "--host-only", "--fail-each-alloc"]).is_ok());
        assert!(parse(&["test", "--no-host", "--fail-each-alloc"]).is_err());
        assert!(parse(&["test", "--host-only", "--model", "--fail-each-alloc"]).is_ok());
        assert!(parse(&["test", "--no-host", "--model"]).is_err());
        let Ok(Cargo::KernelCore(Cli {
            command: Cmd::Test(test),
            ..
        })) = parse(&["test", "--allow-leaks", "a::b,c", "--allow-leaks", "d*"])
        else {
            panic!("--allow-leaks parses");
        };
        assert_eq!(test.allow_leaks, ["a::b", "c", "d*"]);
        assert!(parse(&["test", "--jobs", "3", "--kernel", "all"]).is_ok());
        assert!(parse(&["test", "-j", "1"]).is_ok());
        assert!(parse(&["test", "--jobs", "0"]).is_err(), "at least one job");
        assert!(
            parse(&["kernels", "list", "--jobs", "2"]).is_err(),
            "only runs take --jobs"
        );
        assert!(parse(&["test", "--bogus"]).is_err());
        assert!(parse(&["new"]).is_err(), "DIR is required");
        assert!(parse(&["modules"]).is_err(), "--kdir is required");
        assert!(parse(&["modules", "--distro", "debian-7.3"]).is_ok());
        assert!(parse(&[
            "modules",
            "--kernel-release",
            "7.3.4+deb13-amd64",
            "--overlay"
        ])
        .is_ok());
        assert!(
            parse(&["modules", "--kdir", "/k", "--distro", "debian-7.3"]).is_err(),
            "a build directory or a stock kernel, not both"
        );
        assert!(parse(&["kernels", "clean", "--kernel", "7.2"]).is_ok());
        assert!(parse(&["kernels", "list", "--kernel", "6.12", "--arch", "um"]).is_ok());
        assert!(parse(&["why-build-error"]).is_err(), "objects are required");
        assert!(parse(&["package"]).is_err(), "--dkms or --overlay");
        assert!(parse(&["package", "--dkms", "--with-tests"]).is_ok());
        assert!(
            parse(&["package", "--with-tests", "--overlay"]).is_err(),
            "tests of what"
        );
        assert!(parse(&[
            "package",
            "--overlay",
            "--kernel",
            "debian-7.3",
            "--arch",
            "all"
        ])
        .is_ok());
        assert!(parse(&["package", "--dkms", "--kernel-release", "7.3.4+deb13-amd64"]).is_err());
        assert!(parse(&["doctor", "--kernel-release", "7.3.4+deb13-amd64"]).is_ok());
        assert!(parse(&["doctor"]).is_ok(), "the running kernel's");
    }
}
