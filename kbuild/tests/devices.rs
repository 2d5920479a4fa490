// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's `Mmio` and `register!` against each QEMU machine's real devices: what the
//! suites over memory cannot show, that a read through `Mmio` is a read of the device.
//!
//! Every machine the runner boots has devices at fixed addresses, with identification
//! registers whose values QEMU documents in its sources:
//!
//! | architecture | machine | device | address | register | expected |
//! |---|---|---|---|---|---|
//! | x86_64 | `pc` | HPET (`hw/timer/hpet.c`) | `0xfed00000` | `GCAP_ID` (`0x0`, 64 bits) | vendor `0x8086`, revision 1, 64-bit counter, legacy routing, 3 timers, period 10,000,000 fs |
//! | x86_64 | `pc` | HPET | `0xfed00000` | timer 2's comparator (`0x148`) | reads back what was written (timer 2 is not enabled; the old value is put back) |
//! | arm64, arm | `virt` | virtio-mmio transport 0 (`hw/virtio/virtio-mmio.c`, `hw/arm/virt.c`) | `0x0a000000` | `MagicValue` (`0x0`), `VendorID` (`0xc`), `DeviceID` (`0x8`) | `0x74726976` ("virt"), `0x554d4551` ("QEMU"), 0 (no device behind it) |
//! | riscv64 | `virt` | virtio-mmio transport 0 (`hw/riscv/virt.c`) | `0x10001000` | the same | the same |
//! | riscv64 | `virt` | PCIe ECAM, host bridge 00:00.0 (`hw/pci-host/gpex.c`) | `0x30000000` | vendor and device (`0x0`) | `0x1b36`, `0x0008` (Red Hat's "QEMU PCIe host bridge") |
//! | loongarch64 | `virt` | PCIe ECAM, host bridge 00:00.0 (`hw/loongarch/virt.c`) | `0x20000000` | the same | the same |
//! | riscv64, loongarch64 | `virt` | the host bridge's interrupt line (`0x3c`, a byte QEMU keeps writable for every PCI function) | | | reads back what was written (the old value is put back) |
//! | ppc32 (big-endian) | `ppce500` | MPIC (`hw/intc/openpic.c`, model FSL MPIC 4.2; CCSR at `0xf_e000_0000`, `hw/ppc/e500plat.c`) | `0xf_e004_0000` | `BRR1` (`0x0`), `FRR` (`0x1000`), **big-endian**, 32-bit accesses only | IP block `0x0040`, version 4.2; 196 sources, VID 2 (OpenPIC 1.2) |
//! | ppc32 (big-endian) | `ppce500` | PCI controller (`hw/pci-host/ppce500.c`) | `0xf_e000_8000` | `CFG_ADDR` (`0x0`, **big-endian**) selects, `CFG_DATA` (`0x4`, little-endian) reads the host bridge 00:00.0's vendor, device and class | `0x1957` (Freescale), `0x0030` (MPC8533E), class `0x0b20` |
//! | ppc64le | `pseries` | the first PCI host bridge's I/O space (`hw/ppc/spapr_pci.c`), its VGA's Bochs VBE ports (`hw/display/vga.c`, `docs/specs/standard-vga.rst`) | `0x2000_0000_0000` | index `0x1ce` and data `0x1d0` (16 bits, little-endian): `VBE_DISPI_INDEX_ID` (0), `VBE_DISPI_INDEX_VIDEO_MEMORY_64K` (`0xa`) | `0xb0c5` (`VBE_DISPI_ID5`), 256 (16 MiB of video memory); the index reads back what was written |
//!
//! (UML on x86_64 has `CONFIG_X86_64` too: the HPET cases say `not(CONFIG_UML)`.)
//!
//! Byte order: `Mmio`'s accessors are the kernel's `readl()` and the other widths, which read
//! a register as little-endian on every CPU (on big-endian 32-bit PowerPC, `lwbrx`). Most of the
//! registers above are little-endian, as PCI and virtio define them, and read as they are. The
//! MPIC and the e500 PCI controller's `CFG_ADDR` are big-endian (Freescale's own registers):
//! their value is `read32(offset).swap_bytes()`, and a value is written as
//! `write32(value.swap_bytes(), offset)`, on any CPU, as the kernel's `ioread32be()` and
//! `iowrite32be()` do. (`u32::from_be()` would be wrong: it swaps nothing on a big-endian CPU,
//! where `readl()` has already swapped.) The ppc32 cases read both orders from one device, on
//! the matrix's one big-endian CPU with device memory, where a byte-order slip cannot hide: the
//! planted bug `kbuild/fixtures/byte_order_bug.rs` shows that a little-endian register read in
//! the CPU's order is wrong there.
//!
//! pseries has little memory-mapped I/O at fixed addresses (its PCI configuration space is
//! reached through RTAS calls, its BARs are placed by the firmware); its host bridge's I/O
//! window is fixed by QEMU's machine, and the VGA QEMU gives the machine by default answers
//! at the legacy Bochs VBE ports there. The index register is written (harmless: only the
//! next data access reads it, and nothing else in the guest uses the VGA), so the VBE cases
//! put the old index back. Only ports a device answers are read: on pseries, a read of a port
//! nothing answers is a machine check, which QEMU raises again at every retry.
//!
//! s390 has no memory-mapped I/O: its devices are reached through channel I/O, and its
//! `readl()` is a PCI instruction (zPCI), so there is nothing to map. UML has no device memory
//! at all. Their cases are compiled out there (`#[cfg]`), and KUnit reports them skipped.
//!
//! The HPET's 64-bit register is read with `try_read`: a `Region` is only 4-byte aligned, so
//! kernel-core (as the kernel) checks a 64-bit access there at run time, not at build time.
//!
//! The last case reads an `Mmio` view of a whole `Region` and checks its bounds: a `try_read`
//! past its end or at a misaligned offset is an error, not an access.

#[kernel_core::kunit::kunit_tests(kernel_core_devices)]
mod tests {
    // s390 and UML have no device memory to map (see the module's documentation): their cases
    // and `Mapping` are compiled out.
    #[cfg_attr(any(CONFIG_S390, CONFIG_UML), allow(unused_imports))]
    use kernel::prelude::*;
    #[cfg_attr(any(CONFIG_S390, CONFIG_UML), allow(unused_imports))]
    use kernel_core::io::{register, Io, Mmio, MmioRaw, Region};

    /// A mapping of `SIZE` bytes of device memory, unmapped when dropped.
    #[cfg(not(any(CONFIG_S390, CONFIG_UML)))]
    struct Mapping<const SIZE: usize> {
        addr: usize,
    }

    /// On 6.12: kernel-core's C helpers (`kernel_core_helpers.c`), which `kernel-core.mk`
    /// compiles into the module there.
    #[cfg(all(not(kernel_core_linux_7_1), not(any(CONFIG_S390, CONFIG_UML))))]
    mod c {
        unsafe extern "C" {
            pub(super) fn kernel_core_ioremap(
                offset: kernel::bindings::phys_addr_t,
                size: usize,
            ) -> *mut core::ffi::c_void;
            pub(super) fn kernel_core_iounmap(addr: *mut core::ffi::c_void);
        }
    }

    #[cfg(not(any(CONFIG_S390, CONFIG_UML)))]
    impl<const SIZE: usize> Mapping<SIZE> {
        /// Maps `SIZE` bytes at physical address `phys`.
        fn new(phys: u64) -> Result<Self> {
            #[cfg(kernel_core_linux_7_1)]
            // SAFETY: `ioremap()` maps any physical range; the address is a device's of this
            // machine, which nothing else owns.
            let ptr = unsafe { kernel::bindings::ioremap(phys as _, SIZE as _) };
            #[cfg(not(kernel_core_linux_7_1))]
            // SAFETY: As above, through the C helper.
            let ptr = unsafe { c::kernel_core_ioremap(phys as _, SIZE) };
            if ptr.is_null() {
                return Err(ENOMEM);
            }
            Ok(Self { addr: ptr as usize })
        }

        /// A view of the whole mapping.
        fn io(&self) -> Result<Mmio<'_, Region<SIZE>>> {
            let raw = MmioRaw::<Region<SIZE>>::new_region(self.addr, SIZE)?;
            // SAFETY: `raw` covers the mapping, which stays mapped for as long as `self` is
            // borrowed.
            Ok(unsafe { Mmio::from_raw(raw) })
        }
    }

    #[cfg(not(any(CONFIG_S390, CONFIG_UML)))]
    impl<const SIZE: usize> Drop for Mapping<SIZE> {
        fn drop(&mut self) {
            let ptr = self.addr as *mut core::ffi::c_void;
            #[cfg(kernel_core_linux_7_1)]
            // SAFETY: `ptr` is what `ioremap()` returned, unmapped once.
            unsafe {
                kernel::bindings::iounmap(ptr.cast())
            };
            #[cfg(not(kernel_core_linux_7_1))]
            // SAFETY: As above.
            unsafe {
                c::kernel_core_iounmap(ptr)
            };
        }
    }

    #[cfg(all(CONFIG_X86_64, not(CONFIG_UML)))]
    register! {
        /// The HPET's General Capabilities and ID register.
        HPET_GCAP_ID(u64) @ 0x0 {
            /// The counter's period, in femtoseconds.
            63:32 period;
            /// The vendor's PCI ID.
            31:16 vendor;
            /// Whether the legacy replacement route exists.
            15:15 legacy_route => bool;
            /// Whether the main counter has 64 bits.
            13:13 counter_64 => bool;
            /// The number of timers, less one.
            12:8 last_timer;
            /// The revision.
            7:0 revision;
        }
        /// Timer 2's comparator, low half.
        HPET_T2_CMP(u32) @ 0x148 {
            31:0 value;
        }
    }

    #[cfg(any(CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV))]
    register! {
        /// A virtio-mmio transport's magic value.
        VIRTIO_MAGIC(u32) @ 0x0 {
            31:0 value;
        }
        /// Its device ID: 0 when no device sits behind the transport.
        VIRTIO_DEVICE_ID(u32) @ 0x8 {
            31:0 value;
        }
        /// Its vendor ID.
        VIRTIO_VENDOR_ID(u32) @ 0xc {
            31:0 value;
        }
    }

    #[cfg(any(CONFIG_RISCV, CONFIG_LOONGARCH))]
    register! {
        /// A PCI function's vendor and device IDs (configuration space offset 0).
        PCI_ID(u32) @ 0x0 {
            31:16 device;
            15:0 vendor;
        }
        /// Its interrupt line (configuration space offset 0x3c), a byte every function keeps
        /// writable.
        PCI_INTERRUPT_LINE(u8) @ 0x3c {
            7:0 value;
        }
    }

    #[cfg(CONFIG_PPC32)]
    register! {
        /// The MPIC's Block Revision Register 1 (big-endian, as all of the MPIC's registers).
        MPIC_BRR1(u32) @ 0x0 {
            /// The IP block's ID.
            31:16 ip_id;
            /// Its major version.
            15:8 major;
            /// Its minor version.
            7:0 minor;
        }
        /// The MPIC's Feature Reporting Register (big-endian).
        MPIC_FRR(u32) @ 0x1000 {
            /// The number of interrupt sources, less one.
            26:16 last_source;
            /// The number of CPUs, less one.
            12:8 last_cpu;
            /// The OpenPIC version: 2 is 1.2.
            7:0 version;
        }
        /// The e500 PCI controller's configuration address (big-endian).
        E500_PCI_CFG_ADDR(u32) @ 0x0 {
            /// Whether a `CFG_DATA` access reaches the configuration space.
            31:31 enable => bool;
            23:16 bus;
            15:11 device;
            10:8 function;
            /// The configuration register, in bytes (a multiple of 4).
            7:0 offset;
        }
        /// Its configuration data (little-endian, as PCI's configuration space), with
        /// `CFG_ADDR` selecting register 0: the vendor and device IDs.
        E500_PCI_CFG_DATA(u32) @ 0x4 {
            31:16 device;
            15:0 vendor;
        }
    }

    /// The ppce500 machine's CCSR (configuration, control and status registers), above 4 GiB
    /// (so the kernel needs `CONFIG_PHYS_64BIT`), with the MPIC and the PCI controller in it.
    #[cfg(CONFIG_PPC32)]
    const CCSR: u64 = 0xf_e000_0000;
    #[cfg(CONFIG_PPC32)]
    const MPIC: u64 = CCSR + 0x4_0000;
    #[cfg(CONFIG_PPC32)]
    const E500_PCI: u64 = CCSR + 0x8000;

    #[cfg(CONFIG_PPC64)]
    register! {
        /// The Bochs VBE index register (little-endian, as PCI's I/O space).
        VBE_DISPI_INDEX(u16) @ 0x1ce {
            15:0 index;
        }
        /// The Bochs VBE data register: the register the index selects.
        VBE_DISPI_DATA(u16) @ 0x1d0 {
            15:0 value;
        }
    }

    /// The I/O space of the pseries machine's first PCI host bridge.
    #[cfg(CONFIG_PPC64)]
    const PHB0_IO: u64 = 0x2000_0000_0000;

    /// The physical address of virtio-mmio transport 0.
    #[cfg(any(CONFIG_ARM64, CONFIG_ARM))]
    const VIRTIO_MMIO: u64 = 0x0a00_0000;
    #[cfg(CONFIG_RISCV)]
    const VIRTIO_MMIO: u64 = 0x1000_1000;

    /// The physical address of the PCIe ECAM window (bus 0, device 0, function 0 first).
    #[cfg(CONFIG_RISCV)]
    const ECAM: u64 = 0x3000_0000;
    #[cfg(CONFIG_LOONGARCH)]
    const ECAM: u64 = 0x2000_0000;

    // x86_64's HPET.
    #[cfg(all(CONFIG_X86_64, not(CONFIG_UML)))]
    #[test]
    fn hpet_identification() -> Result {
        let hpet = Mapping::<0x400>::new(0xfed0_0000)?;
        let io = hpet.io()?;
        let id = io.try_read(HPET_GCAP_ID)?;
        assert_eq!(id.vendor().get(), 0x8086);
        assert_eq!(id.revision().get(), 1);
        assert!(id.counter_64());
        assert!(id.legacy_route());
        assert_eq!(id.last_timer().get(), 2);
        assert_eq!(id.period().get(), 10_000_000);
        // The same bits through the plain accessors, as two halves.
        assert_eq!(io.read32(0) as u64, id.into_raw() & 0xffff_ffff);
        assert_eq!(io.read32(4) as u64, id.into_raw() >> 32);
        Ok(())
    }

    #[cfg(all(CONFIG_X86_64, not(CONFIG_UML)))]
    #[test]
    fn hpet_timer_2_comparator_reads_back() -> Result {
        let hpet = Mapping::<0x400>::new(0xfed0_0000)?;
        let io = hpet.io()?;
        let old = io.read(HPET_T2_CMP);
        io.write_reg(HPET_T2_CMP::from_raw(0).with_value(0x1234_5678_u32));
        let back = io.read(HPET_T2_CMP).value().get();
        io.write_reg(old);
        assert_eq!(back, 0x1234_5678);
        Ok(())
    }

    // The virtio-mmio transports of arm64's, arm's and riscv64's `virt`.
    #[cfg(any(CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV))]
    #[test]
    fn virtio_mmio_identification() -> Result {
        let transport = Mapping::<0x200>::new(VIRTIO_MMIO)?;
        let io = transport.io()?;
        assert_eq!(io.read(VIRTIO_MAGIC).value().get(), 0x7472_6976);
        assert_eq!(io.read(VIRTIO_VENDOR_ID).value().get(), 0x554d_4551);
        assert_eq!(io.read(VIRTIO_DEVICE_ID).value().get(), 0);
        // "virt" in memory order: the register is little-endian, as `readl()` is. (Only
        // 32-bit accesses: virtio-mmio answers a narrower read of its registers with 0.)
        assert_eq!(io.read32(0), u32::from_le_bytes(*b"virt"));
        Ok(())
    }

    // The PCIe host bridge of riscv64's and loongarch64's `virt`.
    #[cfg(any(CONFIG_RISCV, CONFIG_LOONGARCH))]
    #[test]
    fn pcie_host_bridge_identification() -> Result {
        let config = Mapping::<0x1000>::new(ECAM)?;
        let io = config.io()?;
        let id = io.read(PCI_ID);
        assert_eq!(id.vendor().get(), 0x1b36);
        assert_eq!(id.device().get(), 0x0008);
        assert_eq!(io.read16(0), 0x1b36);
        Ok(())
    }

    #[cfg(any(CONFIG_RISCV, CONFIG_LOONGARCH))]
    #[test]
    fn pcie_interrupt_line_reads_back() -> Result {
        let config = Mapping::<0x1000>::new(ECAM)?;
        let io = config.io()?;
        let old = io.read(PCI_INTERRUPT_LINE);
        io.write_reg(PCI_INTERRUPT_LINE::from_raw(0).with_value(0x5a_u8));
        let back = io.read8(0x3c);
        io.write_reg(old);
        assert_eq!(back, 0x5a);
        Ok(())
    }

    // The MPIC of ppc32's `ppce500`: big-endian registers.
    #[cfg(CONFIG_PPC32)]
    #[test]
    fn mpic_identification_is_big_endian() -> Result {
        let mpic = Mapping::<0x2000>::new(MPIC)?;
        let io = mpic.io()?;
        // `read32` is `readl()`, little-endian: the big-endian register comes back swapped.
        let brr1 = MPIC_BRR1::from_raw(io.read32(0x0).swap_bytes());
        assert_eq!(brr1.ip_id().get(), 0x0040);
        assert_eq!((brr1.major().get(), brr1.minor().get()), (4, 2));
        // (Only 32-bit accesses: the MPIC answers a narrower read with all ones, so its
        // bytes cannot be read one by one.)
        // `register!`'s own `read` is `readl()` too: right for little-endian registers only.
        assert_eq!(io.read(MPIC_BRR1).into_raw(), 0x0204_4000);
        let frr = MPIC_FRR::from_raw(io.read32(0x1000).swap_bytes());
        assert_eq!(frr.last_source().get(), 195);
        assert_eq!(frr.version().get(), 2);
        Ok(())
    }

    // The PCI controller of ppc32's `ppce500`: a big-endian address register selects what a
    // little-endian data register reads. The kernel is built without PCI, so nothing else uses
    // the controller; the old address is put back all the same.
    #[cfg(CONFIG_PPC32)]
    #[test]
    fn e500_pci_host_bridge_through_both_byte_orders() -> Result {
        let controller = Mapping::<0x1000>::new(E500_PCI)?;
        let io = controller.io()?;
        let old = io.read32(0x0);
        let select = |offset: u8| {
            let address = E500_PCI_CFG_ADDR::from_raw(0)
                .with_enable(true)
                .with_offset(offset);
            io.write32(address.into_raw().swap_bytes(), 0x0);
        };
        select(0x00);
        // The address reads back in its own (big-endian) order.
        let address = E500_PCI_CFG_ADDR::from_raw(io.read32(0x0).swap_bytes());
        let id = io.read(E500_PCI_CFG_DATA);
        let low_half = io.read16(0x4);
        select(0x08);
        let class = io.read32(0x4) >> 16;
        io.write32(old, 0x0);
        assert!(address.enable());
        assert_eq!((address.bus().get(), address.device().get()), (0, 0));
        assert_eq!(id.vendor().get(), 0x1957);
        assert_eq!(id.device().get(), 0x0030);
        assert_eq!(low_half, 0x1957);
        assert_eq!(class, 0x0b20);
        Ok(())
    }

    // The VGA of ppc64le's `pseries`, through its host bridge's I/O space: little-endian.
    #[cfg(CONFIG_PPC64)]
    #[test]
    fn vbe_identification() -> Result {
        let space = Mapping::<0x400>::new(PHB0_IO)?;
        let io = space.io()?;
        let old = io.read(VBE_DISPI_INDEX);
        let read = |index: u16| {
            io.write_reg(VBE_DISPI_INDEX::from_raw(0).with_index(index));
            (
                io.read(VBE_DISPI_INDEX).index().get(),
                io.read(VBE_DISPI_DATA).value().get(),
            )
        };
        let id = read(0x0);
        let memory = read(0xa);
        io.write_reg(old);
        assert_eq!(id, (0x0, 0xb0c5));
        assert_eq!(memory, (0xa, 256));
        Ok(())
    }

    // Every machine but s390's and UML's, which have no device memory: a view of the whole
    // mapping, and its bounds.
    #[cfg(not(any(CONFIG_S390, CONFIG_UML)))]
    #[test]
    fn a_region_s_bounds_are_checked() -> Result {
        #[cfg(all(CONFIG_X86_64, not(CONFIG_UML)))]
        const PHYS: u64 = 0xfed0_0000;
        #[cfg(any(CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV))]
        const PHYS: u64 = VIRTIO_MMIO;
        #[cfg(CONFIG_LOONGARCH)]
        const PHYS: u64 = ECAM;
        #[cfg(CONFIG_PPC32)]
        const PHYS: u64 = MPIC;
        // Ports 0x2d0 to 0x3cf: the bytes read at 0xfc to 0xff are the VGA's ports 0x3cc to
        // 0x3cf (an I/O port nothing answers is a machine check on pseries).
        #[cfg(CONFIG_PPC64)]
        const PHYS: u64 = PHB0_IO + 0x2d0;
        let device = Mapping::<0x100>::new(PHYS)?;
        let io = device.io()?;
        assert!(io.try_read8(0xff).is_ok());
        assert!(io.try_read32(0xfc).is_ok());
        // One byte past the end, and a misaligned offset: errors, not accesses.
        assert!(io.try_read8(0x100).is_err());
        assert!(io.try_read32(0xfd).is_err());
        assert!(io.try_read32(0x102).is_err());
        assert!(io.try_read16(1).is_err());
        assert!(io.try_write32(0, 0x100).is_err());
        Ok(())
    }

    // On Linux 7.3, the kernel's own `Mmio` over the same mapped device: kernel-core's
    // accessors read what the kernel's read, and see what the kernel's wrote (the conformance
    // of `Mmio` on a device, where the conformance suite compares them on memory).
    #[cfg(all(kernel_core_linux_7_3, not(any(CONFIG_S390, CONFIG_UML))))]
    #[test]
    fn the_kernel_s_mmio_and_kernel_core_s_read_the_same_device() -> Result {
        use kernel::io::Io as _;

        #[cfg(CONFIG_X86_64)]
        const PHYS: u64 = 0xfed0_0000;
        #[cfg(any(CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV))]
        const PHYS: u64 = VIRTIO_MMIO;
        #[cfg(CONFIG_LOONGARCH)]
        const PHYS: u64 = ECAM;
        #[cfg(CONFIG_PPC32)]
        const PHYS: u64 = MPIC;
        #[cfg(CONFIG_PPC64)]
        const PHYS: u64 = PHB0_IO;
        // The identification registers: the same bits through both.
        #[cfg(CONFIG_X86_64)]
        const IDS: &[usize] = &[0x0, 0x4];
        #[cfg(any(CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV))]
        const IDS: &[usize] = &[0x0, 0x4, 0x8, 0xc];
        #[cfg(CONFIG_LOONGARCH)]
        const IDS: &[usize] = &[0x0, 0x8];
        // The MPIC's BRR1 (its FRR lies beyond this mapping), compared as `readl()` gives it:
        // the same bits through both whatever the register's own order.
        #[cfg(CONFIG_PPC32)]
        const IDS: &[usize] = &[0x0];
        // VBE's registers are 16 bits wide: compared in the block below.
        #[cfg(CONFIG_PPC64)]
        const IDS: &[usize] = &[];

        let device = Mapping::<0x400>::new(PHYS)?;
        let ours = device.io()?;
        let raw = kernel::io::MmioRaw::<kernel::io::Region<0x400>>::new_region(device.addr, 0x400)?;
        // SAFETY: `raw` covers the mapping, which stays mapped while `device` lives.
        let theirs = unsafe { kernel::io::Mmio::from_raw(raw) };
        // The offsets come from a slice, so their bounds are checked at run time: `try_`.
        for &offset in IDS {
            assert_eq!(ours.try_read32(offset), theirs.try_read32(offset));
            assert_eq!(
                ours.relaxed().try_read32(offset),
                theirs.relaxed().try_read32(offset)
            );
        }
        // A register harmless to write (see the table above), written through one and read
        // through the other, both ways; the old value is put back.
        #[cfg(CONFIG_X86_64)]
        {
            let old = theirs.read32(0x148);
            theirs.write32(0x0bad_cafe, 0x148);
            let seen = ours.read32(0x148);
            ours.write32(0x1234_5678, 0x148);
            let back = theirs.read32(0x148);
            theirs.write32(old, 0x148);
            assert_eq!((seen, back), (0x0bad_cafe, 0x1234_5678));
        }
        #[cfg(CONFIG_PPC64)]
        {
            // The VBE index, written through one and read through the other, both ways, and
            // the ID it selects through both; the old index is put back.
            let old = theirs.read16(0x1ce);
            theirs.write16(0x0, 0x1ce);
            let seen = ours.read16(0x1ce);
            let id = (ours.read16(0x1d0), theirs.read16(0x1d0));
            ours.write16(0xa, 0x1ce);
            let back = theirs.read16(0x1ce);
            theirs.write16(old, 0x1ce);
            assert_eq!((seen, back), (0x0, 0xa));
            assert_eq!(id, (0xb0c5, 0xb0c5));
        }
        #[cfg(CONFIG_LOONGARCH)]
        {
            let old = theirs.read8(0x3c);
            theirs.write8(0x3a, 0x3c);
            let seen = ours.read8(0x3c);
            ours.write8(0x5c, 0x3c);
            let back = theirs.read8(0x3c);
            theirs.write8(old, 0x3c);
            assert_eq!((seen, back), (0x3a, 0x5c));
        }
        Ok(())
    }
}
