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

/*
 * Locks, completions and barriers for kernel-core's `sync` on Linux 6.12, whose Rust support
 * has no helper for these: spin_trylock() and the irqsave pair are macros, lockdep_assert_held()
 * and init_completion() are a macro and a `static inline`, smp_mb() & co. are the
 * architecture's macros.
 */
#include <linux/completion.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

int kernel_core_spin_trylock(spinlock_t *lock);
int kernel_core_spin_trylock(spinlock_t *lock)
{
	return spin_trylock(lock);
}

unsigned long kernel_core_spin_lock_irqsave(spinlock_t *lock);
unsigned long kernel_core_spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	return flags;
}

int kernel_core_spin_trylock_irqsave(spinlock_t *lock, unsigned long *flags);
int kernel_core_spin_trylock_irqsave(spinlock_t *lock, unsigned long *flags)
{
	return spin_trylock_irqsave(lock, *flags);
}

void kernel_core_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
void kernel_core_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock_irqrestore(lock, flags);
}

void kernel_core_spin_assert_is_held(spinlock_t *lock);
void kernel_core_spin_assert_is_held(spinlock_t *lock)
{
	lockdep_assert_held(lock);
}

void kernel_core_mutex_assert_is_held(struct mutex *lock);
void kernel_core_mutex_assert_is_held(struct mutex *lock)
{
	lockdep_assert_held(lock);
}

void kernel_core_init_completion(struct completion *x);
void kernel_core_init_completion(struct completion *x)
{
	init_completion(x);
}

void kernel_core_smp_mb(void);
void kernel_core_smp_mb(void)
{
	smp_mb();
}

void kernel_core_smp_wmb(void);
void kernel_core_smp_wmb(void)
{
	smp_wmb();
}

void kernel_core_smp_rmb(void);
void kernel_core_smp_rmb(void)
{
	smp_rmb();
}

void kernel_core_mb(void);
void kernel_core_mb(void)
{
	mb();
}

void kernel_core_rmb(void);
void kernel_core_rmb(void)
{
	rmb();
}

void kernel_core_wmb(void);
void kernel_core_wmb(void)
{
	wmb();
}

void kernel_core_dma_mb(void);
void kernel_core_dma_mb(void)
{
	dma_mb();
}

void kernel_core_dma_rmb(void);
void kernel_core_dma_rmb(void)
{
	dma_rmb();
}

void kernel_core_dma_wmb(void);
void kernel_core_dma_wmb(void)
{
	dma_wmb();
}

/* Refcounts (include/linux/refcount.h): all `static inline`, with the kernel's saturation. */
#include <linux/refcount.h>

void kernel_core_refcount_set(refcount_t *r, int n);
void kernel_core_refcount_set(refcount_t *r, int n)
{
	refcount_set(r, n);
}

void kernel_core_refcount_inc(refcount_t *r);
void kernel_core_refcount_inc(refcount_t *r)
{
	refcount_inc(r);
}

void kernel_core_refcount_dec(refcount_t *r);
void kernel_core_refcount_dec(refcount_t *r)
{
	refcount_dec(r);
}

bool kernel_core_refcount_dec_and_test(refcount_t *r);
bool kernel_core_refcount_dec_and_test(refcount_t *r)
{
	return refcount_dec_and_test(r);
}

/* Dynamic lock class keys, which lockdep registers (no-ops without CONFIG_LOCKDEP). */
void kernel_core_lockdep_register_key(struct lock_class_key *key);
void kernel_core_lockdep_register_key(struct lock_class_key *key)
{
	lockdep_register_key(key);
}

void kernel_core_lockdep_unregister_key(struct lock_class_key *key);
void kernel_core_lockdep_unregister_key(struct lock_class_key *key)
{
	lockdep_unregister_key(key);
}
