// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The matrix: the architectures and kernels the runner supports, which cells exist and which
//! are required, and how to build and boot each. Everything else (the `--kernel`/`--arch`
//! options, the CI workflow of a driver, kernel-core's own test matrix, the README's table) is
//! read from or checked against these two tables.

use crate::infra::error::Result;

/// How a guest runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Machine {
    /// Under QEMU's system emulation (TCG).
    Qemu {
        /// The QEMU binary and its machine arguments.
        binary: &'static str,
        args: &'static [&'static str],
        /// The console device for `console=`.
        console: &'static str,
        /// What the kernel command line holds beside the console and the runner's own options,
        /// for this machine.
        cmdline: &'static str,
        /// The Debian package that provides the binary.
        package: &'static str,
        /// The virtual CPUs (`-smp`): two on every machine, so that an SMP kernel runs a
        /// driver's code on CPUs at once, where races, lock-order bugs and missing locks show.
        /// QEMU's TCG runs each vCPU in a host thread of its own.
        smp: &'static str,
        /// Whether a booted guest is saved once and resumed for each run
        /// ([`crate::pipeline::snapshot`]): where booting costs most (x86_64 and arm64, with
        /// the detectors, and Debian's stock kernels), on machines with PCI for the virtio
        /// serial port that hands the resumed guest its modules.
        resume: bool,
    },
    /// User-Mode Linux: the kernel is a program, run as a plain process.
    Uml,
}

/// A guest architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// The name users type: `x86_64`, `arm64`, `riscv64`, `loongarch64`, `arm`, `s390`,
    /// `ppc64le`, `ppc32`, `um`.
    pub name: &'static str,
    /// The kernel's `ARCH=`.
    pub kernel_arch: &'static str,
    /// The `make` target that builds the boot image, and where it lands in the build dir.
    pub image_target: &'static str,
    pub image_path: &'static str,
    /// How the guest runs.
    pub machine: Machine,
    /// The Rust target and toolchain that build the guest's `/init`.
    pub init_target: &'static str,
    pub init_build_std: bool,
    /// The kernel configuration fragment of its machine, merged after `common.config`
    /// (`configs/<name>.config` in this crate), and that file's name.
    pub config: &'static str,
    pub config_name: &'static str,
    /// Options of `common.config` the architecture does not have, left out of its
    /// configuration (with the reason in a comment at its row).
    pub unavailable: &'static [&'static str],
    /// The rustc release that builds its kernels and modules, where the stable toolchain is
    /// too old for the architecture (the kernel's `scripts/min-tool-version.sh`).
    pub rustc: Option<&'static str>,
    /// Whether its kernel is 64-bit (`CONFIG_64BIT`).
    pub bits64: bool,
    /// Whether it has the memory and lock detectors (`configs/detectors.config`: KASAN,
    /// KFENCE, lockdep, UBSAN), on the kernels that ask for them ([`Kernel::detectors`]): the
    /// architectures whose kernels ship most.
    pub detectors: bool,
    /// `make` variables its kernel and module builds need beyond the toolchain's, and the
    /// Debian packages that provide what they name.
    pub make_variables: &'static [&'static str],
    pub build_packages: &'static [&'static str],
}

/// Every architecture, in matrix order: x86_64 first (the default of a named kernel), then
/// the other 64-bit ones, 32-bit arm, big-endian s390 and UML.
pub const ARCHES: &[Arch] = &[
    Arch {
        name: "x86_64",
        kernel_arch: "x86_64",
        image_target: "bzImage",
        image_path: "arch/x86/boot/bzImage",
        machine: Machine::Qemu {
            binary: "qemu-system-x86_64",
            // No 5-level paging (`la57`, which `max` offers): with it, an interrupt early in the
            // boot of a KASAN kernel can touch memory whose shadow is not mapped yet, and KASAN
            // floods the console with "wild-memory-access" reports (seen once in six boots).
            args: &["-machine", "pc", "-cpu", "max,la57=off"],
            console: "ttyS0",
            cmdline: "",
            package: "qemu-system-x86",
            // Two sockets of one core: without ACPI (left out for build time) the kernel finds
            // its CPUs in SeaBIOS's MP table, which lists one CPU per socket.
            smp: "2,sockets=2",
            resume: true,
        },
        init_target: "x86_64-unknown-none",
        init_build_std: false,
        config: include_str!("../../configs/x86_64.config"),
        config_name: "x86_64.config",
        unavailable: &[],
        rustc: None,
        bits64: true,
        detectors: true,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "arm64",
        kernel_arch: "arm64",
        image_target: "Image",
        image_path: "arch/arm64/boot/Image",
        machine: Machine::Qemu {
            binary: "qemu-system-aarch64",
            args: &["-M", "virt", "-cpu", "cortex-a57"],
            console: "ttyAMA0",
            cmdline: "",
            package: "qemu-system-arm",
            smp: "2",
            resume: true,
        },
        init_target: "aarch64-unknown-none",
        init_build_std: false,
        config: include_str!("../../configs/arm64.config"),
        config_name: "arm64.config",
        unavailable: &[],
        rustc: None,
        bits64: true,
        detectors: true,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "riscv64",
        kernel_arch: "riscv",
        image_target: "Image",
        image_path: "arch/riscv/boot/Image",
        machine: Machine::Qemu {
            binary: "qemu-system-riscv64",
            // OpenSBI, shipped with QEMU, as the firmware that starts the kernel in S-mode.
            args: &["-M", "virt", "-bios", "default"],
            console: "ttyS0",
            cmdline: "",
            package: "qemu-system-riscv",
            smp: "2",
            resume: false,
        },
        // The kernel is built without FPU support: no floating point in the guest's /init.
        init_target: "riscv64imac-unknown-none-elf",
        init_build_std: false,
        config: include_str!("../../configs/riscv64.config"),
        config_name: "riscv64.config",
        unavailable: &[],
        rustc: None,
        bits64: true,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "loongarch64",
        kernel_arch: "loongarch",
        // Without EFI_STUB the ELF image is what `-kernel` boots directly, without firmware.
        image_target: "vmlinux.elf",
        image_path: "arch/loongarch/boot/vmlinux.elf",
        machine: Machine::Qemu {
            binary: "qemu-system-loongarch64",
            args: &["-M", "virt"],
            console: "ttyS0",
            cmdline: "",
            package: "qemu-system-misc",
            smp: "2",
            resume: false,
        },
        // No prebuilt `core` for this target: nightly builds it.
        init_target: "loongarch64-unknown-none",
        init_build_std: true,
        config: include_str!("../../configs/loongarch64.config"),
        config_name: "loongarch64.config",
        unavailable: &[],
        rustc: None,
        bits64: true,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "arm",
        kernel_arch: "arm",
        image_target: "zImage",
        image_path: "arch/arm/boot/zImage",
        machine: Machine::Qemu {
            binary: "qemu-system-arm",
            args: &["-M", "virt", "-cpu", "cortex-a15"],
            console: "ttyAMA0",
            cmdline: "",
            package: "qemu-system-arm",
            smp: "2",
            resume: false,
        },
        init_target: "armv7a-none-eabi",
        init_build_std: false,
        config: include_str!("../../configs/arm.config"),
        config_name: "arm.config",
        unavailable: &[],
        rustc: None,
        bits64: false,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "s390",
        kernel_arch: "s390",
        image_target: "bzImage",
        image_path: "arch/s390/boot/bzImage",
        machine: Machine::Qemu {
            binary: "qemu-system-s390x",
            args: &["-M", "s390-ccw-virtio", "-cpu", "max"],
            console: "ttysclp0",
            cmdline: "",
            package: "qemu-system-s390x",
            smp: "2",
            resume: false,
        },
        // The kernel's own Rust target for s390; rustup ships no `core` for it.
        init_target: "s390x-unknown-none-softfloat",
        init_build_std: true,
        config: include_str!("../../configs/s390.config"),
        config_name: "s390.config",
        // The soft-lockup detector `depends on !S390` (lib/Kconfig.debug).
        unavailable: &["CONFIG_SOFTLOCKUP_DETECTOR"],
        // Linux 7.3's scripts/min-tool-version.sh wants rustc 1.96 or newer for s390.
        rustc: Some("1.97.1"),
        bits64: true,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "ppc64le",
        kernel_arch: "powerpc",
        // The ELF itself: the firmware's Open Firmware client interface loads it.
        image_target: "vmlinux",
        image_path: "vmlinux",
        machine: Machine::Qemu {
            binary: "qemu-system-ppc64",
            // QEMU's own firmware (VOF) instead of SLOF: a boot of 2 to 4 s instead of 16.
            args: &["-M", "pseries,x-vof=on", "-cpu", "power10"],
            console: "hvc0",
            cmdline: "",
            package: "qemu-system-ppc",
            smp: "2",
            resume: false,
        },
        // No bare-metal PowerPC target: the Linux one, freestanding and static (prebuilt core).
        init_target: "powerpc64le-unknown-linux-gnu",
        init_build_std: false,
        config: include_str!("../../configs/ppc64le.config"),
        config_name: "ppc64le.config",
        // Linux 7.3's kernel crate does not build for powerpc with BUG: its `bug.rs` needs
        // `ARCH_WARN_ASM`, which powerpc's <asm/bug.h> does not define.
        unavailable: &["CONFIG_BUG", "CONFIG_DEBUG_BUGVERBOSE"],
        rustc: None,
        bits64: true,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
    Arch {
        name: "ppc32",
        kernel_arch: "powerpc",
        image_target: "vmlinux",
        image_path: "vmlinux",
        machine: Machine::Qemu {
            // QEMU's 64-bit build, which has every 32-bit machine too: it runs each vCPU on a
            // host thread of its own (MTTCG), where `qemu-system-ppc` runs both vCPUs on one
            // thread by turns. With the idle loop spinning (below), a turn ended only at QEMU's
            // 100 ms kick, so every KUnit case, which runs in a kthread of its own, waited for
            // one: the larger example's boot took 8.3 s of CPU by turns and 0.7 s this way.
            binary: "qemu-system-ppc64",
            // QEMU's generic paravirtual e500 board: the one 32-bit PowerPC machine with SMP.
            args: &["-M", "ppce500", "-cpu", "e500mc"],
            console: "ttyS0",
            // The e500mc idle loop's `wait` is an illegal instruction to QEMU's e500mc.
            cmdline: "powersave=off",
            package: "qemu-system-ppc",
            smp: "2",
            resume: false,
        },
        init_target: "powerpc-unknown-linux-gnu",
        init_build_std: false,
        config: include_str!("../../configs/ppc32.config"),
        config_name: "ppc32.config",
        // As ppc64le.
        unavailable: &["CONFIG_BUG", "CONFIG_DEBUG_BUGVERBOSE"],
        rustc: None,
        bits64: false,
        detectors: false,
        // GNU ld: `ld.lld -r` makes a 32-bit module's `.plt` a writable and executable
        // PROGBITS section (GNU ld keeps it NOBITS, as <asm/module.h> declares it), which the
        // module loader refuses, so no module would load.
        make_variables: &["LD=powerpc-linux-gnu-ld"],
        // The vDSO is linked through clang's driver, which finds `powerpc-linux-gnu-ld` only
        // beside a cross GCC it detects (`/usr/lib/gcc-cross/powerpc-linux-gnu`): without one it
        // runs the host's `ld` ("unrecognised emulation mode: elf32ppclinux", seen on a machine
        // that had only the binutils).
        build_packages: &["binutils-powerpc-linux-gnu", "gcc-powerpc-linux-gnu"],
    },
    Arch {
        name: "um",
        kernel_arch: "um",
        image_target: "linux",
        image_path: "linux",
        machine: Machine::Uml,
        // UML runs the host's x86_64 programs: the x86_64 /init.
        init_target: "x86_64-unknown-none",
        init_build_std: false,
        config: include_str!("../../configs/um.config"),
        config_name: "um.config",
        // A uniprocessor kernel: UML has no SMP on 6.12 (7.3 added it, as host threads), and
        // the fast cell stays one process of one CPU on every kernel. Without preemption: 6.12's
        // UML with PREEMPT cannot start /init ("userspace - ptrace set fp regs failed, errno =
        // 14", then "Attempted to kill init!").
        unavailable: &["CONFIG_SMP", "CONFIG_NR_CPUS", "CONFIG_PREEMPT"],
        rustc: None,
        bits64: true,
        detectors: false,
        make_variables: &[],
        build_packages: &[],
    },
];

/// The x86_64 row, the first of [`ARCHES`].
pub fn x86_64() -> Arch {
    ARCHES[0]
}

impl Arch {
    /// The Debian packages its guests need (its QEMU), beyond the kernel build's tools.
    pub fn packages(&self) -> Vec<&'static str> {
        let mut packages = match self.machine {
            Machine::Qemu { package, .. } => vec![package],
            Machine::Uml => Vec::new(),
        };
        packages.extend(self.build_packages);
        packages
    }

    /// What runs its guests, for messages: the QEMU binary or `UML`.
    pub fn runner(&self) -> &'static str {
        match self.machine {
            Machine::Qemu { binary, .. } => binary,
            Machine::Uml => "UML",
        }
    }
}

/// Where Debian serves a suite from: its security suites (`bookworm-security`) have an archive
/// of their own, every other suite is in the main one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Archive {
    /// `http://deb.debian.org/debian`, or `$KERNEL_CORE_DEBIAN_MIRROR`.
    Main,
    /// `http://deb.debian.org/debian-security`, or `$KERNEL_CORE_DEBIAN_SECURITY_MIRROR`.
    Security,
}

impl Archive {
    /// The environment variable that replaces the archive's URL (a mirror or a proxy).
    pub const fn override_var(self) -> &'static str {
        match self {
            Archive::Main => "KERNEL_CORE_DEBIAN_MIRROR",
            Archive::Security => "KERNEL_CORE_DEBIAN_SECURITY_MIRROR",
        }
    }

    /// Debian's own URL of the archive.
    pub const fn default_url(self) -> &'static str {
        match self {
            Archive::Main => "http://deb.debian.org/debian",
            Archive::Security => "http://deb.debian.org/debian-security",
        }
    }

    /// The URL packages are fetched from: the override if it is set and not empty, else
    /// Debian's.
    pub fn url(self) -> String {
        self.url_with(std::env::var(self.override_var()).ok().as_deref())
    }

    /// [`Self::url`] with the override's value given.
    pub fn url_with(self, value: Option<&str>) -> String {
        value
            .map(|url| url.trim().trim_end_matches('/'))
            .filter(|url| !url.is_empty())
            .unwrap_or(self.default_url())
            .to_string()
    }
}

/// A kernel version the runs support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The name users type: `7.3`, `7.2`, `6.12`.
    pub name: &'static str,
    /// The Debian package holding its source tarball, the suite it comes from, and the archive
    /// that serves the suite.
    pub package: &'static str,
    pub suite: &'static str,
    pub archive: Archive,
    /// The architectures where it has Rust (`Documentation/rust/arch-support.rst`), in matrix
    /// order.
    pub arches: &'static [&'static str],
    /// Those of them in the required matrix: the cells kernel-core's CI and a driver's
    /// generated workflow run.
    pub required: &'static [&'static str],
    /// Whether its cells carry the memory and lock detectors, on the architectures that have
    /// them ([`Arch::detectors`]): the kernels that ship most (the newest and the LTS).
    pub detectors: bool,
    /// For a distribution's stock kernel: which one. Its cells build the driver against the
    /// distribution's kernel and boot its unchanged image (`distro/`); `None` for the kernels
    /// this tool builds from `tinyconfig`.
    pub stock: Option<&'static Stock>,
}

/// A distribution's stock kernel: its packages (`linux-headers-$KREL`, `linux-binary-$KREL`) in
/// the row's suite, and `package`, the row's `linux-source-*`, of exactly the same version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stock {
    /// The distribution, for messages: `Debian`.
    pub distro: &'static str,
    /// The kernel series the row stands for: a release found in the suite must be of it.
    pub series: &'static str,
    /// The tag in the suite's kernel releases: `+deb13` in `7.3.4+deb13-amd64`.
    pub abi: &'static str,
    /// What precedes the Debian architecture in its flavour's name: `rt-` for the
    /// `PREEMPT_RT` kernels (`7.3.4+deb13-rt-amd64`), nothing for the standard ones.
    pub flavour_prefix: &'static str,
}

/// The seven architectures of Linux 7.2 (and of 7.3's `Documentation/rust/arch-support.rst`).
const SEVEN: &[&str] = &[
    "x86_64",
    "arm64",
    "riscv64",
    "loongarch64",
    "arm",
    "s390",
    "um",
];

/// Linux 7.3's nine: the seven, and PowerPC, which its `arch/powerpc/Kconfig` gives Rust
/// (`select HAVE_RUST if PPC32`, `select HAVE_RUST if PPC64 && CPU_LITTLE_ENDIAN`) while its
/// arch-support page still lists seven.
const NINE: &[&str] = &[
    "x86_64",
    "arm64",
    "riscv64",
    "loongarch64",
    "arm",
    "s390",
    "ppc64le",
    "ppc32",
    "um",
];

/// Every kernel, newest first.
pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "7.3",
        package: "linux-source-7.3",
        suite: "trixie-backports",
        archive: Archive::Main,
        arches: NINE,
        required: NINE,
        detectors: true,
        stock: None,
    },
    Kernel {
        name: "7.2",
        package: "linux-source-7.2",
        suite: "forky",
        archive: Archive::Main,
        arches: SEVEN,
        // Debian forky's kernel, with the 7.1/7.2 form of the API. Its cells run when named
        // (`--kernel 7.2`), not in the required matrix: the required one spans the API from
        // the LTS (6.12) to the newest (7.3), and one more kernel build with its cells and
        // rust-analyzer (about 640 CPU-seconds) would take a fresh machine's run past its
        // 75 minutes on 2 cores. What differs between its architectures (32-bit arm,
        // big-endian, ...) is kernel-core's and the architecture's, which 7.3's cells cover.
        required: &[],
        detectors: false,
        stock: None,
    },
    Kernel {
        name: "6.12",
        package: "linux-source-6.12",
        suite: "bookworm-security",
        archive: Archive::Security,
        // Its Documentation/rust/arch-support.rst lists neither arm nor s390. Its UML cannot
        // start a process on a host CPU with AMX (it sets its processes' FP registers with the
        // pre-AMX size of the x86 state, which such a host refuses; 7.x's UML asks the host):
        // 6.12/um stays a cell, not a required one, since CI hosts may have AMX. The required
        // cells are the architectures that ship 6.12 most (Debian trixie, Android 16), with the
        // kernel's detectors; riscv64 and loongarch64 are cells that a driver for them runs
        // (`--kernel 6.12 --arch all`), left out of CI's matrix for its time budget.
        arches: &["x86_64", "arm64", "riscv64", "loongarch64", "um"],
        required: &["x86_64", "arm64"],
        detectors: true,
        stock: None,
    },
    // Debian's stock kernels, as their users run them (`distro/`): the driver is built for the
    // distribution's kernel and loaded into its unchanged image. Debian's kernels have no
    // KUnit: kernel-core's harness module runs the suites there (`kernel_core_kunit.c`).
    // Trixie's own 6.12 has no Rust (CONFIG_RUSTC_VERSION=0): no row.
    Kernel {
        name: "debian-7.3",
        package: "linux-source-7.3",
        suite: "trixie-backports",
        archive: Archive::Main,
        // arm64: Debian's arm64 image under `qemu-system-aarch64 -M virt`, modules built with
        // the host suite's cross GCC (gcc-aarch64-linux-gnu).
        arches: &["x86_64", "arm64"],
        required: &["x86_64", "arm64"],
        detectors: false,
        stock: Some(&Stock {
            distro: "Debian",
            series: "7.3",
            abi: "+deb13",
            flavour_prefix: "",
        }),
    },
    // The same suite's PREEMPT_RT kernel (`linux-image-rt-amd64`): spinlocks that sleep,
    // interrupts in threads.
    Kernel {
        name: "debian-7.3-rt",
        package: "linux-source-7.3",
        suite: "trixie-backports",
        archive: Archive::Main,
        arches: &["x86_64"],
        required: &["x86_64"],
        detectors: false,
        stock: Some(&Stock {
            distro: "Debian",
            series: "7.3",
            abi: "+deb13",
            flavour_prefix: "rt-",
        }),
    },
    // Debian forky's stock 7.2: the one required cell of the 7.1/7.2 form of the API (its
    // `pin_init`, `alloc` and `sync` differ from 7.3's in a few items, which kernel-core
    // bridges). A stock kernel costs a metadata build (`modules_prepare`, 2 to 4 minutes), not
    // a kernel build, which keeps a fresh machine's run within its budget.
    Kernel {
        name: "debian-7.2",
        package: "linux-source-7.2",
        suite: "forky",
        archive: Archive::Main,
        arches: &["x86_64"],
        required: &["x86_64"],
        detectors: false,
        stock: Some(&Stock {
            distro: "Debian",
            series: "7.2",
            abi: "+deb14",
            flavour_prefix: "",
        }),
    },
];

/// The fast cell: what `cargo kernel-core test` runs with no `--kernel` and no `--arch`.
/// User-Mode Linux on the newest kernel: a plain process, no emulator.
pub const FAST_CELL: (&str, &str) = ("7.3", "um");

impl Kernel {
    /// Whether it has Rust on `arch`.
    pub fn supports(&self, arch: &Arch) -> bool {
        self.arches.contains(&arch.name)
    }

    /// Whether (`self`, `arch`) is a cell of the required matrix.
    pub fn requires(&self, arch: &Arch) -> bool {
        self.required.contains(&arch.name)
    }
}

/// Looks up `--arch`.
pub fn arch(name: &str) -> Result<Arch> {
    ARCHES
        .iter()
        .copied()
        .find(|a| a.name == name)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "unknown architecture `{name}`: use one of {}",
                ARCHES.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            )
        })
}

/// The architecture a kernel `.config` was made for.
pub fn from_config(config: &str) -> Result<Arch> {
    let has = |option: &str| config.lines().any(|l| l == format!("{option}=y"));
    let name = if has("CONFIG_UML") {
        "um"
    } else if has("CONFIG_X86_64") {
        "x86_64"
    } else if has("CONFIG_ARM64") {
        "arm64"
    } else if has("CONFIG_RISCV") {
        "riscv64"
    } else if has("CONFIG_LOONGARCH") {
        "loongarch64"
    } else if has("CONFIG_ARM") {
        "arm"
    } else if has("CONFIG_S390") {
        "s390"
    } else {
        return Err(anyhow::anyhow!(
            "cannot tell the architecture from the kernel's .config: pass --arch"
        ));
    };
    arch(name)
}

/// Looks up `--kernel`.
pub fn kernel(name: &str) -> Result<Kernel> {
    KERNELS
        .iter()
        .copied()
        .find(|k| k.name == name)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "unknown kernel `{name}`: use one of {}",
                KERNELS
                    .iter()
                    .map(|k| k.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// The cells that `--kernel` and `--arch` name: each a comma-separated list, or `all`.
///
/// - Neither given: the fast cell ([`FAST_CELL`]).
/// - `--kernel all --arch all`: the required matrix.
/// - A list or `all` for one and not the other: the other defaults to x86_64 (`--arch`) or
///   the newest kernel (`--kernel`); `all` means every architecture the kernels named have
///   Rust on, or every kernel that has Rust on the architectures named.
/// - A named kernel and a named architecture without Rust there is an error that names the
///   kernels which have it.
pub fn matrix(kernels: Option<&str>, arches: Option<&str>) -> Result<Vec<(Kernel, Arch)>> {
    if kernels.is_none() && arches.is_none() {
        return Ok(vec![(kernel(FAST_CELL.0)?, arch(FAST_CELL.1)?)]);
    }
    let all_kernels = kernels == Some("all");
    let all_arches = arches == Some("all");
    let kernels: Vec<Kernel> = match kernels {
        None => vec![KERNELS[0]],
        Some("all") => KERNELS.to_vec(),
        Some(list) => list
            .split(',')
            .map(|name| kernel(name.trim()))
            .collect::<Result<_>>()?,
    };
    let arches: Vec<Arch> = match arches {
        None => vec![x86_64()],
        Some("all") => ARCHES.to_vec(),
        Some(list) => list
            .split(',')
            .map(|name| arch(name.trim()))
            .collect::<Result<_>>()?,
    };
    let mut cells = Vec::new();
    for kernel in &kernels {
        for arch in &arches {
            let wanted = if all_kernels && all_arches {
                kernel.requires(arch)
            } else {
                kernel.supports(arch)
            };
            if wanted {
                cells.push((*kernel, *arch));
            } else if !all_kernels && !all_arches && kernel.stock.is_some() {
                return Err(anyhow::anyhow!(
                    "{} (Debian's stock kernel) is a cell on {} only: its modules for other architectures need a cross GCC of the kernel's flags",
                    kernel.name,
                    kernel.arches.join(", ")
                ));
            } else if !all_kernels && !all_arches {
                let with: Vec<&str> = KERNELS
                    .iter()
                    .filter(|k| k.supports(arch))
                    .map(|k| k.name)
                    .collect();
                return Err(anyhow::anyhow!(
                    "Linux {} has no Rust on {}: the kernels that have it there are {}",
                    kernel.name,
                    arch.name,
                    with.join(", ")
                ));
            }
        }
    }
    if cells.is_empty() {
        return Err(anyhow::anyhow!(
            "no kernel of {} has Rust on {}",
            kernels
                .iter()
                .map(|k| k.name)
                .collect::<Vec<_>>()
                .join(", "),
            arches.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(cells)
}

/// The required matrix: every cell kernel-core's CI and a driver's workflow run.
pub fn required() -> Vec<(Kernel, Arch)> {
    KERNELS
        .iter()
        .flat_map(|k| {
            ARCHES
                .iter()
                .filter(|a| k.requires(a))
                .map(move |a| (*k, *a))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cells: &[(Kernel, Arch)]) -> Vec<String> {
        cells
            .iter()
            .map(|(k, a)| format!("{}/{}", k.name, a.name))
            .collect()
    }

    #[test]
    fn the_matrix_of_the_options() {
        assert_eq!(names(&matrix(None, None).unwrap()), ["7.3/um"]);
        assert_eq!(names(&matrix(Some("6.12"), None).unwrap()), ["6.12/x86_64"]);
        assert_eq!(
            names(&matrix(Some("6.12,7.3"), Some("x86_64,arm64")).unwrap()),
            ["6.12/x86_64", "6.12/arm64", "7.3/x86_64", "7.3/arm64"]
        );
        let all = names(&matrix(Some("all"), Some("all")).unwrap());
        assert_eq!(all.len(), 9 + 2 + 2 + 1 + 1, "{all:?}");
        assert!(all.contains(&"debian-7.3/x86_64".to_string()));
        assert!(all.contains(&"debian-7.2/x86_64".to_string()));
        assert_eq!(all, names(&required()));
        assert!(!all.contains(&"7.2/x86_64".to_string()));
        assert!(!all.contains(&"7.2/arm".to_string()));
        assert!(!all.contains(&"6.12/riscv64".to_string()));
        assert!(!all.contains(&"7.2/arm64".to_string()));
        assert!(!all.contains(&"6.12/s390".to_string()));
        assert_eq!(
            names(&matrix(Some("7.2"), Some("all")).unwrap()).len(),
            7,
            "a named kernel runs on every architecture it has Rust on"
        );
        assert_eq!(
            names(&matrix(Some("6.12"), Some("all")).unwrap()).len(),
            5,
            "6.12 has no Rust on arm and s390"
        );
        assert_eq!(
            names(&matrix(Some("all"), Some("s390")).unwrap()),
            ["7.3/s390", "7.2/s390"]
        );
        assert!(matrix(Some("5.10"), None).is_err());
        assert!(matrix(None, Some("x86_64,sparc")).is_err());
    }

    #[test]
    fn a_cell_without_rust_names_the_kernels_that_have_it() {
        let e = matrix(Some("6.12"), Some("s390")).unwrap_err().to_string();
        assert_eq!(
            e,
            "Linux 6.12 has no Rust on s390: the kernels that have it there are 7.3, 7.2"
        );
    }

    #[test]
    fn a_stock_row_says_where_it_is_a_cell() {
        let e = matrix(Some("debian-7.3"), Some("riscv64"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("debian-7.3 (Debian's stock kernel) is a cell on x86_64, arm64 only"),
            "{e}"
        );
        let e = matrix(Some("debian-7.2"), Some("arm64"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("debian-7.2 (Debian's stock kernel) is a cell on x86_64 only"),
            "{e}"
        );
        assert_eq!(
            names(&matrix(Some("debian-7.2"), None).unwrap()),
            ["debian-7.2/x86_64"]
        );
    }

    #[test]
    fn security_suites_come_from_the_security_archive() {
        for k in KERNELS {
            let security = k.suite.ends_with("-security");
            assert_eq!(k.archive == Archive::Security, security, "{}", k.name);
        }
        assert_eq!(
            Archive::Security.url_with(None),
            "http://deb.debian.org/debian-security"
        );
        assert_eq!(
            Archive::Security.url_with(Some(" http://mirror.example/debian-security/ ")),
            "http://mirror.example/debian-security"
        );
        assert_eq!(
            Archive::Main.url_with(Some("")),
            "http://deb.debian.org/debian"
        );
    }

    #[test]
    fn every_row_is_consistent() {
        for k in KERNELS {
            for a in k.required {
                assert!(k.arches.contains(a), "{} requires {a} without Rust", k.name);
            }
            for a in k.arches {
                arch(a).unwrap();
            }
        }
        for a in ARCHES {
            assert!(
                a.config.contains("CONFIG_64BIT=y") == a.bits64,
                "{}'s fragment and bits64 disagree",
                a.name
            );
        }
    }
}
