// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Work on every online CPU at the same time, for the suites that must see a kernel's CPUs run
 * at once (the SMP suite of kbuild/tests/smp.rs, the unlocked counter of
 * kbuild/fixtures/planted_bugs.rs): on_each_cpu() and num_online_cpus() are static inline or
 * macro wrappers no Rust code can call on every kernel from 6.12 on.
 *
 * Each CPU runs the work in on_each_cpu()'s IPI (interrupts off) once every online CPU has
 * arrived, so all of them run it together: on a kernel that only pretends to be SMP (one CPU
 * online), one CPU runs it alone, which the suites see.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/smp.h>

unsigned int kernel_core_online_cpus(void);
unsigned int kernel_core_on_every_cpu(void (*work)(void *data, unsigned int cpu), void *data);

unsigned int kernel_core_online_cpus(void)
{
	return num_online_cpus();
}

struct kernel_core_every_cpu {
	void (*work)(void *data, unsigned int cpu);
	void *data;
	unsigned int cpus;
	atomic_t arrived;
	atomic_t late;
};

/*
 * How long a CPU waits for the others, in spins, not in time: with interrupts off on every
 * CPU, a kernel whose clocksource is jiffies (x86 under QEMU's TCG, whose TSC it finds
 * unstable) sees no time pass at all. A few seconds under TCG.
 */
#define KERNEL_CORE_EVERY_CPU_SPINS 200000000UL

static void kernel_core_every_cpu_one(void *info)
{
	struct kernel_core_every_cpu *every = info;
	unsigned long spins = 0;

	atomic_inc(&every->arrived);
	while (atomic_read(&every->arrived) < every->cpus) {
		if (++spins > KERNEL_CORE_EVERY_CPU_SPINS) {
			atomic_inc(&every->late);
			return;
		}
		cpu_relax();
	}
	every->work(every->data, smp_processor_id());
}

/*
 * Runs `work(data, cpu)` on every online CPU at once; returns how many CPUs ran it together,
 * or 0 if some CPU had not arrived after KERNEL_CORE_EVERY_CPU_SPINS spins of the others.
 */
unsigned int kernel_core_on_every_cpu(void (*work)(void *data, unsigned int cpu), void *data)
{
	struct kernel_core_every_cpu every = {
		.work = work,
		.data = data,
		.arrived = ATOMIC_INIT(0),
		.late = ATOMIC_INIT(0),
	};

	cpus_read_lock();
	every.cpus = num_online_cpus();
	on_each_cpu(kernel_core_every_cpu_one, &every, 1);
	cpus_read_unlock();
	return atomic_read(&every.late) ? 0 : every.cpus;
}
