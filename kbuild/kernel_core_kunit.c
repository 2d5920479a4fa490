// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * kernel_core_kunit.ko: runs the `#[kunit_tests]` suites of modules on kernels without KUnit.
 *
 * Stock kernels do not build KUnit in (Debian and Ubuntu leave CONFIG_KUNIT unset), so the
 * kernel's own `#[kunit_tests]` compiles a driver's suites out there, and KUnit's module
 * notifier, which runs the suites of a module when it is loaded, is not there either. This
 * module plays KUnit's part for kernel-core's `#[kunit_tests]`, as `kunit.ko` does on kernels
 * that build KUnit as a module: loaded first, it runs the suites of every module loaded after
 * it, when that module's init has returned (MODULE_STATE_LIVE, KUnit's moment too), and prints
 * the results as KTAP in KUnit's own format, which `kunit.py parse` reads.
 *
 * - Where the suites are: kernel-core's `#[kunit_tests]` (kernel-core/src/env/kernel/kunit.rs)
 *   lists each suite of a module as a module parameter whose `ops` is
 *   kernel_core_kunit_suite_ops, exported here, and whose `arg` is the suite's `struct
 *   kunit_suite`. A module's parameters are an array the loader keeps with its length, whatever
 *   the kernel's configuration, so a module's suites are found without KUnit's section table.
 *   Referring to the ops also makes every module with suites depend on this one: modprobe
 *   loads it first, insmod refuses the module until it is loaded.
 * - How a case runs: as under KUnit, in a kernel thread of its own, so that a failed
 *   assertion can end the case at once (kernel_core_kunit_abort()) and a case that crashes
 *   (an Oops) ends its thread, not the run. The thread's exit is awaited through its
 *   `vfork_done`, which the kernel completes however the thread ends.
 * - What a result means: a case passes unless it failed an assertion, crashed or timed out;
 *   the `#[kunit_tests]` wrappers set the status SKIPPED for a case whose `#[cfg]` is off or
 *   which is `#[ignore]`d, and this prints `# SKIP` for it; a suite fails if a case failed,
 *   and is skipped if every case was.
 *
 * The types are KUnit's own (`struct kunit`, `struct kunit_suite`, `struct kunit_case` of
 * <kunit/test.h>, which the kernel declares whatever its configuration), so the suites are
 * built the same way on every kernel. Written for kernel-core from KUnit's documented
 * behaviour (Documentation/dev-tools/kunit/, include/kunit/test.h).
 */

#define pr_fmt(fmt) fmt

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

/* How long a case may run, in seconds: KUnit's default. */
static unsigned long timeout = 300;
module_param(timeout, ulong, 0644);
MODULE_PARM_DESC(timeout, "How long a test case may run, in seconds (300)");

/* Whether suites run when their module loads: KUnit's `kunit.enable`. */
static bool enable = true;
module_param(enable, bool, 0644);
MODULE_PARM_DESC(enable, "Run the suites of modules as they load (Y)");

/*
 * A suite's parameter cannot be set: it only marks the suite. Passing it to insmod is an
 * error, not silence.
 */
static int kernel_core_kunit_refuse(const char *value, const struct kernel_param *kp)
{
	pr_err("kernel_core_kunit: %s lists a test suite and takes no value\n", kp->name);
	return -EINVAL;
}

const struct kernel_param_ops kernel_core_kunit_suite_ops = {
	.set = kernel_core_kunit_refuse,
};
EXPORT_SYMBOL_GPL(kernel_core_kunit_suite_ops);

/* The case that runs now (one at a time, as KUnit runs them) and its thread. */
static DEFINE_MUTEX(kernel_core_kunit_lock);
static struct kunit *kernel_core_kunit_test;
static struct task_struct *kernel_core_kunit_task;

/* How a case's thread ended: set by the thread, read once it has exited. */
struct kernel_core_kunit_run {
	struct kunit test;
	struct kunit_suite *suite;
	struct kunit_case *kcase;
	int result;
};

/**
 * kernel_core_kunit_current() - the running case's test, in the case's own thread.
 *
 * Return: the `struct kunit` of the case whose thread calls it; NULL elsewhere (a thread the
 * case started, or no case at all), where an assertion can only be logged.
 */
struct kunit *kernel_core_kunit_current(void)
{
	struct kunit *test = READ_ONCE(kernel_core_kunit_test);

	if (test && READ_ONCE(kernel_core_kunit_task) == current)
		return test;
	return NULL;
}
EXPORT_SYMBOL_GPL(kernel_core_kunit_current);

/**
 * kernel_core_kunit_abort() - ends the running case now, as failed.
 * @test: the running case's test, from kernel_core_kunit_current().
 *
 * Ends the case's thread without returning, as KUnit's assertions do.
 */
void __noreturn kernel_core_kunit_abort(struct kunit *test)
{
	struct kernel_core_kunit_run *run = container_of(test, struct kernel_core_kunit_run, test);

	WRITE_ONCE(test->status, KUNIT_FAILURE);
	run->result = -EFAULT;
	kthread_complete_and_exit(NULL, -EFAULT);
}
EXPORT_SYMBOL_GPL(kernel_core_kunit_abort);

static int kernel_core_kunit_case_thread(void *data)
{
	struct kernel_core_kunit_run *run = data;
	struct kunit_suite *suite = run->suite;

	if (suite->init) {
		int err = suite->init(&run->test);

		if (err) {
			pr_err("    # %s: the suite's init failed: %d\n", run->kcase->name, err);
			WRITE_ONCE(run->test.status, KUNIT_FAILURE);
			run->result = 0;
			return 0;
		}
	}
	run->kcase->run_case(&run->test);
	if (suite->exit)
		suite->exit(&run->test);
	run->result = 0;
	return 0;
}

/* Runs one case in its own thread; returns its status. */
static enum kunit_status kernel_core_kunit_run_case(struct kunit_suite *suite,
						    struct kunit_case *kcase)
{
	struct kernel_core_kunit_run *run;
	struct task_struct *task;
	struct completion *exited;
	enum kunit_status status;
	unsigned long left;

	if (kcase->generate_params) {
		pr_info("    # %s: parameterized cases need KUnit itself\n", kcase->name);
		return KUNIT_SKIPPED;
	}
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		pr_err("    # %s: no memory to run it\n", kcase->name);
		return KUNIT_FAILURE;
	}
	run->suite = suite;
	run->kcase = kcase;
	run->test.name = kcase->name;
	spin_lock_init(&run->test.lock);
	INIT_LIST_HEAD(&run->test.resources);
	run->test.status = KUNIT_SUCCESS;
	/* What a thread that never reaches its end leaves: it crashed. */
	run->result = -EINTR;

	task = kthread_create(kernel_core_kunit_case_thread, run, "kunit_try_catch");
	if (IS_ERR(task)) {
		pr_err("    # %s: cannot start its thread: %ld\n", kcase->name, PTR_ERR(task));
		kfree(run);
		return KUNIT_FAILURE;
	}
	get_task_struct(task);
	/* Completed when the thread exits, however it exits; NULL once it has. */
	exited = task->vfork_done;
	WRITE_ONCE(kernel_core_kunit_test, &run->test);
	WRITE_ONCE(kernel_core_kunit_task, task);
	wake_up_process(task);
	left = wait_for_completion_timeout(exited, timeout * HZ);
	if (!left) {
		pr_err("    # %s: timed out after %lus\n", kcase->name, timeout);
		run->result = -ETIMEDOUT;
		/* As KUnit: wait for the thread, which a stuck case may never end. */
		kthread_stop(task);
	}
	put_task_struct(task);
	WRITE_ONCE(kernel_core_kunit_task, NULL);
	WRITE_ONCE(kernel_core_kunit_test, NULL);

	status = READ_ONCE(run->test.status);
	if (run->result == -EINTR) {
		pr_err("    # %s: try faulted\n", kcase->name);
		status = KUNIT_FAILURE;
	} else if (run->result == -ETIMEDOUT) {
		status = KUNIT_FAILURE;
	}
	kfree(run);
	return status;
}

static size_t kernel_core_kunit_cases(struct kunit_suite *suite)
{
	struct kunit_case *kcase;
	size_t n = 0;

	for (kcase = suite->test_cases; kcase->run_case; kcase++)
		n++;
	return n;
}

/* Runs a suite, printing its KTAP; returns whether it failed. */
static bool kernel_core_kunit_run_suite(struct module *mod, struct kunit_suite *suite,
					unsigned int index)
{
	size_t passed = 0, failed = 0, skipped = 0, n = kernel_core_kunit_cases(suite), i = 0;
	struct kunit_case *kcase;
	int err = 0;

	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: %s\n", suite->name);
	pr_info("    # module: %s\n", mod->name);
	pr_info("    1..%zu\n", n);
	if (suite->suite_init) {
		err = suite->suite_init(suite);
		if (err)
			pr_err("    # %s: the suite's init failed: %d\n", suite->name, err);
	}
	for (kcase = suite->test_cases; kcase->run_case; kcase++) {
		enum kunit_status status = err ? KUNIT_SKIPPED : kernel_core_kunit_run_case(suite, kcase);

		i++;
		switch (status) {
		case KUNIT_SUCCESS:
			passed++;
			pr_info("    ok %zu %s\n", i, kcase->name);
			break;
		case KUNIT_SKIPPED:
			skipped++;
			pr_info("    ok %zu %s # SKIP\n", i, kcase->name);
			break;
		default:
			failed++;
			pr_info("    not ok %zu %s\n", i, kcase->name);
			break;
		}
	}
	if (suite->suite_exit && !err)
		suite->suite_exit(suite);
	pr_info("# %s: pass:%zu fail:%zu skip:%zu total:%zu\n", suite->name, passed, failed,
		skipped, n);
	if (failed || err)
		pr_info("not ok %u %s\n", index, suite->name);
	else if (n && skipped == n)
		pr_info("ok %u %s # SKIP\n", index, suite->name);
	else
		pr_info("ok %u %s\n", index, suite->name);
	return failed || err;
}

static bool kernel_core_kunit_is_suite(const struct kernel_param *kp)
{
	return kp->ops == &kernel_core_kunit_suite_ops && kp->arg;
}

/* Runs every suite `mod` lists, in the order of its parameters. */
static void kernel_core_kunit_run_module(struct module *mod)
{
	unsigned int i, suites = 0, index = 0;

	for (i = 0; i < mod->num_kp; i++)
		suites += kernel_core_kunit_is_suite(&mod->kp[i]);
	if (!suites)
		return;
	mutex_lock(&kernel_core_kunit_lock);
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", suites);
	for (i = 0; i < mod->num_kp; i++) {
		if (kernel_core_kunit_is_suite(&mod->kp[i]))
			kernel_core_kunit_run_suite(mod, mod->kp[i].arg, ++index);
	}
	mutex_unlock(&kernel_core_kunit_lock);
}

static int kernel_core_kunit_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	if (state == MODULE_STATE_LIVE && READ_ONCE(enable))
		kernel_core_kunit_run_module(data);
	return NOTIFY_OK;
}

static struct notifier_block kernel_core_kunit_notifier = {
	.notifier_call = kernel_core_kunit_notify,
};

static int __init kernel_core_kunit_init(void)
{
	return register_module_notifier(&kernel_core_kunit_notifier);
}

static void __exit kernel_core_kunit_exit(void)
{
	unregister_module_notifier(&kernel_core_kunit_notifier);
}

module_init(kernel_core_kunit_init);
module_exit(kernel_core_kunit_exit);
MODULE_DESCRIPTION("kernel-core: runs #[kunit_tests] suites on kernels without KUnit, printing KTAP");
MODULE_LICENSE("Dual MIT/GPL");
