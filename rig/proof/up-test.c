/*
 * Rule 7: on !CONFIG_SMP an lglock has no per-CPU array and no loop; every
 * operation is preempt_disable()/preempt_enable().  Built without
 * CONFIG_SMP and without kernel/lglock.c: the header must stand alone.
 */
#include <stdio.h>
#include <linux/lglock.h>
#include "shim/shim.h"

DEFINE_LGLOCK(up);
DEFINE_BRLOCK(upbr);
DEFINE_STATIC_LGLOCK(upst);
/* DEFINE_LGLOCK made no per-CPU array: these names are still free */
int up_lock, upbr_lock, upst_lock;

static int n, bad;

static void t(int cond, const char *what)
{
	printf("%sok %d %s\n", cond ? "" : "not ", ++n, what);
	bad += !cond;
}

int main(void)
{
	int p0 = shim_preempt_count();

	printf("TAP version 13\n1..7\n");
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	t(sizeof(struct lglock) == sizeof(struct lockdep_map),
	  "struct lglock is its lockdep map only");
#else
	t(sizeof(struct lglock) == 0, "struct lglock is empty");
#endif
	lg_lock_init(up);
	lg_local_lock(up);
	t(shim_preempt_count() == p0 + 1, "local lock disables preemption");
	lg_local_unlock(up);
	lg_local_lock_cpu(up, 3);
	t(shim_preempt_count() == p0 + 1, "cross-cpu lock disables preemption");
	lg_local_unlock_cpu(up, 3);
	lg_global_lock(up);
	t(shim_preempt_count() == p0 + 1, "global lock disables preemption");
	lg_global_unlock(up);
	lg_global_lock_online(up);
	t(shim_preempt_count() == p0 + 1, "global_online disables preemption");
	lg_global_unlock_online(up);
	br_read_lock(upbr);
	br_read_unlock(upbr);
	br_write_lock(upbr);
	br_write_unlock(upbr);
	lg_local_lock(upst);
	lg_local_unlock(upst);
	t(shim_preempt_count() == p0, "every unlock enables preemption");
	t(shim_violations == 0 && shim_lockdep_reports == 0 &&
	  shim_warnings == 0,
	  "no kernel-debug violations or warnings, lockdep silent");
	return bad ? 1 : 0;
}
