// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The planted byte-order bug of `kbuild/fixtures/byte_order_bug.rs`, on the host: a device's
//! little-endian register read in the CPU's byte order.
//!
//! Memory stands for the device. It holds the register as the bus puts it: its little-endian
//! bytes. Read through `Mmio` (in the kernel `readl()`, little-endian on every CPU; on the host
//! a little-endian load), the register is right on every host. Read in the CPU's own order
//! (through `SysMem`, whose accesses are meant for ordinary memory, or with a plain
//! `ptr::read_volatile()` of the register, as a driver that dereferences its mapping does), it
//! is right on little-endian hosts only.
//!
//! These tests pass on every host, and prove what they must on each: that the planted read
//! goes wrong exactly on big-endian hosts (s390x and 32-bit PowerPC, which `cargo xtask test`
//! runs under qemu-user) and never on little-endian ones, where it would hide. In the kernel,
//! the fixture's case fails in the ppc32 cell and passes in every little-endian one.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::{Io, Mmio, MmioRaw, Region};

/// The register's value: the vendor and device IDs of the e500 PCI host bridge, which the
/// fixture reads in the ppc32 cell.
const ID: u32 = 0x0030_1957;

/// Whether the host is big-endian.
const BIG_ENDIAN: bool = cfg!(target_endian = "big");

/// The device: 16 bytes of registers, with the ID register at offset 4 in the bus's order.
fn device() -> [u32; 4] {
    [0, u32::from_ne_bytes(ID.to_le_bytes()), 0, 0]
}

/// The register read right: through `Mmio`.
fn through_mmio(registers: &mut [u32; 4]) -> Option<u32> {
    // The address of the registers, whose provenance the cast exposes: on the host, `Mmio`
    // reaches memory that way.
    let addr = registers.as_mut_ptr() as usize;
    let raw = MmioRaw::<Region<16>>::new_region(addr, 16).ok()?;
    // SAFETY: `registers` is valid, aligned memory (exposed above) for as long as the view is
    // used, and the accessors only load it.
    let io = unsafe { Mmio::from_raw(raw) };
    Some(io.read32(4))
}

/// THE BUG, one way: the register through `SysMem`, in the CPU's order.
fn through_sys_mem(registers: &mut [u32; 4]) -> Option<u32> {
    let io = sys_mem::<16, u32>(registers).ok()?;
    Some(io.read32(4))
}

/// THE BUG, the other way: a plain volatile read of the register, in the CPU's order.
fn plain_read(registers: &[u32; 4]) -> u32 {
    // SAFETY: the element is valid, aligned memory; the byte order is the bug, not the access.
    unsafe { core::ptr::read_volatile(&registers[1]) }
}

#[test]
fn through_mmio_a_little_endian_register_reads_right_on_every_host() {
    let mut registers = device();
    assert_eq!(through_mmio(&mut registers), Some(ID));
    // Its bytes, the lowest first, as the bus put them.
    assert_eq!(registers[1].to_ne_bytes(), [0x57, 0x19, 0x30, 0x00]);
}

#[test]
fn the_planted_read_goes_wrong_exactly_on_big_endian_hosts() {
    let mut registers = device();
    let planted = [
        ("SysMem", through_sys_mem(&mut registers)),
        ("ptr::read_volatile", Some(plain_read(&registers))),
    ];
    for (how, value) in planted {
        // What the fixture's case asserts; on a big-endian host it does not hold.
        let wrong = value != Some(ID);
        assert_eq!(
            wrong,
            BIG_ENDIAN,
            "{how}: read {value:x?}, and the host is {}-endian",
            if BIG_ENDIAN { "big" } else { "little" }
        );
        // And how it goes wrong there: the register's bytes in reverse.
        let expected = if BIG_ENDIAN { ID.swap_bytes() } else { ID };
        assert_eq!(value, Some(expected), "{how}");
    }
}
