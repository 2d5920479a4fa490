// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * kernel-core's C helpers, for kernels whose Rust support does not export its own (Linux
 * 6.12: 7.1 and later have them in rust/helpers, and kernel-core calls those there).
 *
 * Each is a one-line wrapper around a `static inline` function or a macro of the kernel's
 * headers, which no Rust code can call, in the style of the kernel's own rust/helpers files.
 * kernel-core.mk compiles this file into each module that uses kernel-core, with the kernel's
 * own headers and flags, so every wrapper holds the architecture's own code: arm64's
 * ALTERNATIVE sequences in readl() & co. are patched when the module loads (module_finalize()
 * applies a module's alternatives), riscv64's writes keep its per-CPU mmiowb state, and
 * fsleep(), udelay() and cpu_relax() are the kernel's, not a re-implementation.
 */

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/types.h>

#define KERNEL_CORE_READ(name, type)                                              \
	type kernel_core_##name(const volatile void __iomem *addr);               \
	type kernel_core_##name(const volatile void __iomem *addr)                \
	{                                                                         \
		return name(addr);                                                \
	}
#define KERNEL_CORE_WRITE(name, type)                                             \
	void kernel_core_##name(type value, volatile void __iomem *addr);         \
	void kernel_core_##name(type value, volatile void __iomem *addr)          \
	{                                                                         \
		name(value, addr);                                                \
	}

KERNEL_CORE_READ(readb, u8)
KERNEL_CORE_READ(readw, u16)
KERNEL_CORE_READ(readl, u32)
KERNEL_CORE_READ(readb_relaxed, u8)
KERNEL_CORE_READ(readw_relaxed, u16)
KERNEL_CORE_READ(readl_relaxed, u32)
KERNEL_CORE_WRITE(writeb, u8)
KERNEL_CORE_WRITE(writew, u16)
KERNEL_CORE_WRITE(writel, u32)
KERNEL_CORE_WRITE(writeb_relaxed, u8)
KERNEL_CORE_WRITE(writew_relaxed, u16)
KERNEL_CORE_WRITE(writel_relaxed, u32)
#ifdef CONFIG_64BIT
KERNEL_CORE_READ(readq, u64)
KERNEL_CORE_READ(readq_relaxed, u64)
KERNEL_CORE_WRITE(writeq, u64)
KERNEL_CORE_WRITE(writeq_relaxed, u64)
#endif

#ifdef CONFIG_HAS_IOMEM
void __iomem *kernel_core_ioremap(phys_addr_t offset, size_t size);
void __iomem *kernel_core_ioremap(phys_addr_t offset, size_t size)
{
	return ioremap(offset, size);
}

void kernel_core_iounmap(void __iomem *addr);
void kernel_core_iounmap(void __iomem *addr)
{
	iounmap(addr);
}
#endif /* CONFIG_HAS_IOMEM */

void kernel_core_fsleep(unsigned long usecs);
void kernel_core_fsleep(unsigned long usecs)
{
	fsleep(usecs);
}

void kernel_core_udelay(unsigned long usecs);
void kernel_core_udelay(unsigned long usecs)
{
	udelay(usecs);
}

void kernel_core_cpu_relax(void);
void kernel_core_cpu_relax(void)
{
	cpu_relax();
}

void kernel_core_might_resched(void);
void kernel_core_might_resched(void)
{
	might_resched();
}
