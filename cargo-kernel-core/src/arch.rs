// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The architectures and kernels the QEMU runs support, and how to build and boot each.

use crate::ui::{Error, Result};

/// A guest architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// The name users type: `x86_64`, `arm64`, `riscv64`, `loongarch64`.
    pub name: &'static str,
    /// The kernel's `ARCH=`.
    pub kernel_arch: &'static str,
    /// The `make` target that builds the boot image, and where it lands in the build dir.
    pub image_target: &'static str,
    pub image_path: &'static str,
    /// The QEMU binary and its machine arguments.
    pub qemu: &'static str,
    pub qemu_args: &'static [&'static str],
    /// The console device for `console=`.
    pub console: &'static str,
    /// The Rust target and toolchain that build the guest's `/init`.
    pub init_target: &'static str,
    pub init_build_std: bool,
    /// The Debian package that provides the QEMU binary.
    pub qemu_package: &'static str,
    /// The kernel configuration fragment of its machine, merged after `common.config`
    /// (`configs/<name>.config` in this crate), and that file's name.
    pub config: &'static str,
    pub config_name: &'static str,
}

/// Every architecture, in matrix order.
pub const ARCHES: &[Arch] = &[
    Arch {
        name: "x86_64",
        kernel_arch: "x86_64",
        image_target: "bzImage",
        image_path: "arch/x86/boot/bzImage",
        qemu: "qemu-system-x86_64",
        qemu_args: &["-machine", "pc", "-cpu", "max"],
        console: "ttyS0",
        init_target: "x86_64-unknown-none",
        init_build_std: false,
        qemu_package: "qemu-system-x86",
        config: include_str!("../configs/x86_64.config"),
        config_name: "x86_64.config",
    },
    Arch {
        name: "arm64",
        kernel_arch: "arm64",
        image_target: "Image",
        image_path: "arch/arm64/boot/Image",
        qemu: "qemu-system-aarch64",
        qemu_args: &["-M", "virt", "-cpu", "cortex-a57"],
        console: "ttyAMA0",
        init_target: "aarch64-unknown-none",
        init_build_std: false,
        qemu_package: "qemu-system-arm",
        config: include_str!("../configs/arm64.config"),
        config_name: "arm64.config",
    },
    Arch {
        name: "riscv64",
        kernel_arch: "riscv",
        image_target: "Image",
        image_path: "arch/riscv/boot/Image",
        qemu: "qemu-system-riscv64",
        // OpenSBI, shipped with QEMU, as the firmware that starts the kernel in S-mode.
        qemu_args: &["-M", "virt", "-bios", "default"],
        console: "ttyS0",
        // The kernel is built without FPU support: no floating point in the guest's /init.
        init_target: "riscv64imac-unknown-none-elf",
        init_build_std: false,
        qemu_package: "qemu-system-riscv",
        config: include_str!("../configs/riscv64.config"),
        config_name: "riscv64.config",
    },
    Arch {
        name: "loongarch64",
        kernel_arch: "loongarch",
        // Without EFI_STUB the ELF image is what `-kernel` boots directly, without firmware.
        image_target: "vmlinux.elf",
        image_path: "arch/loongarch/boot/vmlinux.elf",
        qemu: "qemu-system-loongarch64",
        qemu_args: &["-M", "virt"],
        console: "ttyS0",
        // No prebuilt `core` for this target: nightly builds it.
        init_target: "loongarch64-unknown-none",
        init_build_std: true,
        qemu_package: "qemu-system-misc",
        config: include_str!("../configs/loongarch64.config"),
        config_name: "loongarch64.config",
    },
];

/// A kernel version the QEMU runs support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The name users type: `7.3`, `7.2`, `6.12`.
    pub name: &'static str,
    /// The Debian package holding its source tarball, and the suite it comes from.
    pub package: &'static str,
    pub suite: &'static str,
    /// Whether the kernel crate has the 7.1 APIs (and so the conformance suite runs).
    pub has_7_1_api: bool,
    /// Whether the kernel crate has the whole API kernel-core mirrors (Linux 7.3's), and so
    /// the switch-back check runs: the modules built with `kernel::` in place of
    /// `kernel_core::` must build and pass.
    pub has_mirrored_api: bool,
    /// Whether the test matrix runs it on every architecture, or on the first one only.
    pub every_arch: bool,
}

/// Every kernel, newest first.
pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "7.3",
        package: "linux-source-7.3",
        suite: "trixie-backports",
        has_7_1_api: true,
        has_mirrored_api: true,
        every_arch: true,
    },
    Kernel {
        name: "7.2",
        package: "linux-source-7.2",
        suite: "forky",
        has_7_1_api: true,
        has_mirrored_api: false,
        // Debian forky's kernel, with the 7.1/7.2 form of the API: x86_64 covers it.
        every_arch: false,
    },
    Kernel {
        name: "6.12",
        package: "linux-source-6.12",
        suite: "bookworm-security",
        has_7_1_api: false,
        has_mirrored_api: false,
        every_arch: true,
    },
];

/// Looks up `--arch`.
pub fn arch(name: &str) -> Result<Arch> {
    ARCHES
        .iter()
        .copied()
        .find(|a| a.name == name)
        .ok_or_else(|| {
            Error(format!(
                "unknown architecture `{name}`: use one of {}",
                ARCHES.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            ))
        })
}

/// The architecture a kernel `.config` was made for.
pub fn from_config(config: &str) -> Result<Arch> {
    let has = |option: &str| config.lines().any(|l| l == format!("{option}=y"));
    let name = if has("CONFIG_X86_64") {
        "x86_64"
    } else if has("CONFIG_ARM64") {
        "arm64"
    } else if has("CONFIG_RISCV") {
        "riscv64"
    } else if has("CONFIG_LOONGARCH") {
        "loongarch64"
    } else {
        return Err(Error(
            "cannot tell the architecture from the kernel's .config: pass --arch".into(),
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
            Error(format!(
                "unknown kernel `{name}`: use one of {}",
                KERNELS
                    .iter()
                    .map(|k| k.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// The cells that `--kernel` and `--arch` name: each a comma-separated list, or `all`; by
/// default the newest kernel and the first architecture. With `--kernel all --arch all`, a
/// kernel that the matrix runs on the first architecture only (7.2) stays there; named, it
/// runs on every architecture asked for.
pub fn matrix(kernels: Option<&str>, arches: Option<&str>) -> Result<Vec<(Kernel, Arch)>> {
    let arches = match arches {
        None => vec![ARCHES[0]],
        Some("all") => ARCHES.to_vec(),
        Some(list) => list
            .split(',')
            .map(|name| arch(name.trim()))
            .collect::<Result<_>>()?,
    };
    let (kernels, named) = match kernels {
        None => (vec![KERNELS[0]], true),
        Some("all") => (KERNELS.to_vec(), false),
        Some(list) => (
            list.split(',')
                .map(|name| kernel(name.trim()))
                .collect::<Result<_>>()?,
            true,
        ),
    };
    let mut cells = Vec::new();
    for kernel in &kernels {
        for arch in &arches {
            if named || kernel.every_arch || arch.name == ARCHES[0].name {
                cells.push((*kernel, *arch));
            }
        }
    }
    Ok(cells)
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
        assert_eq!(names(&matrix(None, None).unwrap()), ["7.3/x86_64"]);
        assert_eq!(
            names(&matrix(Some("6.12,7.3"), Some("x86_64,arm64")).unwrap()),
            ["6.12/x86_64", "6.12/arm64", "7.3/x86_64", "7.3/arm64"]
        );
        let all = names(&matrix(Some("all"), Some("all")).unwrap());
        assert_eq!(all.len(), 9, "{all:?}");
        assert!(all.contains(&"7.2/x86_64".to_string()));
        assert!(!all.contains(&"7.2/arm64".to_string()));
        assert_eq!(
            names(&matrix(Some("7.2"), Some("all")).unwrap()).len(),
            4,
            "a named kernel runs on every architecture asked for"
        );
        assert!(matrix(Some("5.10"), None).is_err());
        assert!(matrix(None, Some("x86_64,sparc")).is_err());
    }
}
