/*
 * SMP without CONFIG_HOTPLUG_CPU: CPUs come up once, at boot (smp_init(),
 * before the initcalls), and never go down; unregister_cpu_notifier()
 * does nothing.  A lock initialised before that (as the VFS's are, from
 * start_kernel()) must follow the CPUs coming up through its notifier; a
 * lock initialised after the initcalls (every lock in a module) must not
 * register one, as lg_lock_free() could not take it off the chain, and
 * must still cover every online CPU.  Prints TAP; exit status 1 if any
 * test fails.
 */
#include <stdio.h>
#include <unistd.h>
#include <linux/lglock.h>
#include "shim/shim.h"

DEFINE_LGLOCK(early);		/* initialised before smp_init() */
DEFINE_STATIC_LGLOCK(late);	/* a module's: after the initcalls */

static int n, bad;

static void t(int cond, const char *what)
{
	printf("%sok %d %s\n", cond ? "" : "not ", ++n, what);
	bad += !cond;
}

static int count_cpus(const struct cpumask *m)
{
	int c, k = 0;

	for (c = 0; c < SHIM_NR_CPUS; c++)
		k += cpumask_test_cpu(c, m);
	return k;
}

static int locked_cpus(struct lglock *lg)
{
	int c, k = 0;

	for (c = 0; c < SHIM_NR_CPUS; c++)
		k += shim_lg_cpu_locked(lg, c);
	return k;
}

/* a writer holds late on CPU 0 while a reader on CPU 5 tries */
static int held, dropping, got_during_hold;

static void *writer(void *arg)
{
	(void)arg;
	br_write_lock(late);
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	shim_msleep(100);
	__atomic_store_n(&dropping, 1, __ATOMIC_RELEASE);
	br_write_unlock(late);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	shim_wait_flag(&held, 1, 5000);
	br_read_lock(late);
	if (!__atomic_load_n(&dropping, __ATOMIC_ACQUIRE))
		got_during_hold = 1;
	br_read_unlock(late);
	return NULL;
}

static void *whitebox(void *arg)
{
	int *k = arg;

	br_write_lock(late);
	*k = locked_cpus(&late_lglock);
	br_write_unlock(late);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int c, k = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a broken lock may deadlock this: SIGALRM ends it (status 142) */
	alarm(120);
	printf("TAP version 13\n1..8\n");
	/* boot: only the boot CPU is up when the early lock is initialised */
	for (c = 1; c < SHIM_NR_CPUS; c++)
		shim_set_online(c, false);
	lg_lock_init(early);
	t(shim_notifier_registered(&early_lglock.hotplug_nb) == 1,
	  "a lock initialised before smp_init() registers its notifier");
	/* smp_init(), then the initcalls */
	for (c = 1; c < SHIM_NR_CPUS; c++)
		shim_cpu_up(c);
	shim_do_initcalls();
	t(count_cpus(&early_lglock.online) == SHIM_NR_CPUS,
	  "it follows the CPUs smp_init() brings up");

	lg_lock_init(late);
	t(shim_notifier_registered(&late_lglock.hotplug_nb) == 0,
	  "a lock initialised after the initcalls registers no notifier");
	t(count_cpus(&late_lglock.online) == SHIM_NR_CPUS,
	  "its online set is every online CPU");
	b = shim_thread(0, whitebox, &k);
	pthread_join(b, NULL);
	t(k == SHIM_NR_CPUS, "br_write_lock() takes every online CPU's lock");
	a = shim_thread(0, writer, NULL);
	b = shim_thread(5, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	t(!got_during_hold && locked_cpus(&late_lglock) == 0,
	  "br_write_lock() excludes a reader, and its unlock frees every lock");
	lg_lock_free(late);
	lg_lock_init(late);
	t(shim_notifier_registered(&late_lglock.hotplug_nb) == 0 &&
	  late_lglock.hotplug_nb.notifier_call != NULL,
	  "lg_lock_free() then lg_lock_init() again: no notifier, initialised");
	b = shim_thread(1, whitebox, &k);
	pthread_join(b, NULL);
	t(k == SHIM_NR_CPUS && shim_violations == 0 && shim_warnings == 0 &&
	  shim_lockdep_reports == 0,
	  "after it, every CPU again; no violations, warnings or lockdep reports");
	return bad ? 1 : 0;
}
