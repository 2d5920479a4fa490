// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A module that uses every API of kernel-core and prints what it did.
//!
//! It builds unchanged on Linux 6.12, which has none of these APIs in its kernel crate, and on
//! 7.2 and 7.3, which have them. Switching to the kernel's own is the `use` lines below:
//! the switch-back check builds it that way on 7.3 (`kbuild/switch-back/kernel_core.rs`).

// The one prelude line: the kernel's prelude (`module!`, `pr_info!`, `Result`, ...) with
// kernel-core's assertion macros in place of the kernel's, on every kernel. Not next to
// `use kernel::prelude::*;`: two globs exporting one name two ways are ambiguous.
use kernel_core::error::code::ETIMEDOUT;
use kernel_core::extras::fmt::Decimal;
use kernel_core::extras::io::sys_mem;
use kernel_core::extras::sizes::SizeConstants64;
use kernel_core::io::poll::read_poll_timeout;
use kernel_core::io::register::{Array, RegisterBase, WithBase};
use kernel_core::io::{register, Io};
use kernel_core::prelude::*;
use kernel_core::ptr::{const_align_up, Alignable, Alignment};
use kernel_core::sizes::{SizeConstants, SZ_128K, SZ_16M, SZ_4K, SZ_8M};
use kernel_core::time::delay::fsleep;
use kernel_core::time::{msecs_to_jiffies, Delta, Instant, Monotonic};

module! {
    type: KernelCoreSample,
    name: "kernel_core_sample",
    description: "kernel-core sample: sizes, alignment, time, polling, registers and build-time assertions",
    license: "GPL",
}

/// The size of a firmware carve-out, computed in a const generic argument, as nova-core does.
struct Carveout<const BYTES: usize>;

impl<const BYTES: usize> Carveout<BYTES> {
    const BYTES: usize = BYTES;
}

type Wpr = Carveout<{ const_align_up(SZ_8M + SZ_16M + 1, Alignment::new::<SZ_128K>()).unwrap() }>;

// Checked when this crate is compiled.
static_assert!(
    Wpr::BYTES % SZ_128K == 0,
    "the carve-out must be 128 KiB aligned"
);
const VRAM: u64 = 14 * u64::SZ_1M;
const APERTURE: u64 = 2 * u64::SZ_4G;
const WINDOW: u32 = u32::SZ_16M;

/// A ring of `N` 16-byte entries; `N` must be a power of two, checked per instance.
fn ring_bytes<const N: usize>() -> usize {
    const_assert!(N.is_power_of_two(), "ring sizes must be powers of two");
    N * 16
}

/// A register offset; provable at every call site below, so it costs nothing.
#[inline(always)]
fn register(index: usize) -> usize {
    build_assert!(index < 8, "the block has 8 registers");
    0x100 + index * 4
}

/// The family of a channel's registers, and channel 1's base.
struct ChannelBase;
struct Channel1;
impl RegisterBase<ChannelBase> for Channel1 {
    const BASE: usize = 0x40;
}

register! {
    /// Identification.
    BOOT_0(u32) @ 0x0 {
        15:8 vendor;
        7:4 major;
        3:0 minor;
    }
    /// Interrupt control.
    IRQ_CTL(u32) @ 0x10 {
        0:0 enable => bool;
        7:4 line;
    }
    /// Scratch words.
    SCRATCH(u32)[4] @ 0x20 {
        31:0 value;
    }
    /// What the firmware leaves in `SCRATCH[3]`.
    FW_STATUS(u32) => SCRATCH[3] {
        7:0 code;
    }
    /// A channel's control register.
    CH_CTL(u16) @ ChannelBase + 0x2 {
        0:0 run => bool;
    }
}

/// A driver's register sequence, run on memory standing for the device's registers (there is
/// no device here): the same code runs on an `Mmio` mapping in a real driver, and in a `cargo`
/// test on the host.
fn program_registers() -> Result {
    let mut regs = [0_u32; 32];
    let io = sys_mem::<0x80, _>(&mut regs)?;
    io.write32(0x10de_0a21, 0x0);
    let boot0 = io.read(BOOT_0);
    io.write_reg(IRQ_CTL::zeroed().with_enable(true).with_const_line::<5>());
    io.update(IRQ_CTL, |r| r.with_const_line::<9>());
    io.write(SCRATCH::at(3), SCRATCH::from(0x1ee7));
    io.write(Array::at(0), SCRATCH::from(1));
    io.write(WithBase::of::<Channel1>(), CH_CTL::zeroed().with_run(true));
    let irq = io.read32(0x10);
    let status = io.read(FW_STATUS).code().get();
    let channel = io.read16(0x42);
    let past_end = io.try_read32(0x80).is_err();
    pr_info!(
        "registers: BOOT_0 vendor {:#x} rev {}.{}; IRQ_CTL {:#x}; FW_STATUS code {:#x}; channel 1 CH_CTL {:#x}; offset 0x80 rejected: {}\n",
        boot0.vendor().get(),
        boot0.major().get(),
        boot0.minor().get(),
        irq,
        status,
        channel,
        past_end
    );
    let expected = irq == 0x91 && status == 0xe7 && channel == 1 && past_end;
    if expected {
        Ok(())
    } else {
        Err(EINVAL)
    }
}

struct KernelCoreSample;

impl kernel::Module for KernelCoreSample {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        pr_info!("kernel-core sample: sizes, alignment, time, registers and assertions\n");
        pr_info!(
            "sizes: SZ_4K={} VRAM=14*u64::SZ_1M={:#x} APERTURE=2*u64::SZ_4G={:#x} WINDOW=u32::SZ_16M={:#x}\n",
            SZ_4K,
            VRAM,
            APERTURE,
            WINDOW
        );

        let page = Alignment::new::<SZ_4K>();
        let addr: u64 = 0x1234_5678;
        pr_info!(
            "alignment: page log2={} mask={:#x}; {:#x} down={:#x} up={:#x}; u8 0xf1 up to 16: {:?}\n",
            page.log2(),
            page.mask(),
            addr,
            addr.align_down(page),
            addr.align_up(page).unwrap_or(0),
            0xf1_u8.align_up(Alignment::new::<16>())
        );
        pr_info!(
            "const_align_up: carve-out of SZ_8M + SZ_16M + 1 aligned to SZ_128K = {:#x}\n",
            Wpr::BYTES
        );
        pr_info!(
            "assertions: ring_bytes::<64>()={} register(7)={:#x}\n",
            ring_bytes::<64>(),
            register(7)
        );

        // Spin until the monotonic clock has moved by at least a millisecond: tinyconfig's
        // clock source may tick only once per jiffy, so shorter work can measure as 0.
        let start = Instant::<Monotonic>::now();
        let mut spins: u64 = 0;
        while start.elapsed() < Delta::from_millis(1) {
            spins = core::hint::black_box(spins + 1);
        }
        let elapsed: Delta = start.elapsed();
        // 64-bit values in decimal through `Decimal`: Rust's own `{}` of a `u64` or `i64`
        // divides 64-bit values, which 32-bit kernels (arm) cannot.
        pr_info!(
            "time: {} spins until Instant<Monotonic> moved {} ns = {} us (ceil) = {} ms; rem 1ms = {} ns\n",
            Decimal(spins),
            Decimal(elapsed.as_nanos()),
            Decimal(elapsed.as_micros_ceil()),
            Decimal(elapsed.as_millis()),
            Decimal(elapsed.rem_nanos(1_000_000).as_nanos())
        );
        let quarters = Delta::from_secs(3) / Delta::from_millis(250);
        let saturated = Delta::from_micros(i64::MAX).as_nanos();
        pr_info!(
            "time: Delta::from_secs(3) / Delta::from_millis(250) = {}, from_micros(i64::MAX) = {} ns\n",
            Decimal(quarters),
            Decimal(saturated)
        );
        // Waiting: a sleep, and a "register" that reads ready on its third read, polled every
        // 100 us; then one that never does, with a 2 ms timeout.
        let start = Instant::<Monotonic>::now();
        fsleep(Delta::from_micros(500));
        let slept = start.elapsed();
        let mut reads = 0_u32;
        let ready = read_poll_timeout(
            || {
                reads += 1;
                Ok(reads)
            },
            |reads: &u32| *reads >= 3,
            Delta::from_micros(100),
            Delta::from_millis(100),
        )?;
        let never = read_poll_timeout(|| Ok(0_u32), |_| false, Delta::ZERO, Delta::from_millis(2));
        let timed_out = matches!(never, Err(e) if e.to_errno() == ETIMEDOUT.to_errno());
        pr_info!(
            "waiting: fsleep(500 us) slept {} us; read_poll_timeout: ready after {} reads, then {}; msecs_to_jiffies(10) = {}\n",
            Decimal(slept.as_micros_ceil()),
            ready,
            if timed_out { "ETIMEDOUT" } else { "unexpected" },
            msecs_to_jiffies(10)
        );
        program_registers()?;
        pr_info!("kernel-core sample: done\n");
        Ok(KernelCoreSample)
    }
}

impl Drop for KernelCoreSample {
    fn drop(&mut self) {
        pr_info!("kernel-core sample: unloaded\n");
    }
}
