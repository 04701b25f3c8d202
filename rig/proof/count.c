/*
 * make count: the harness count.sh runs under valgrind's callgrind to
 * count the instructions of lg_global_lock_online() +
 * lg_global_unlock_online() (the write side of a brlock), built with
 * gcc -O2 from the series' kernel/lglock.c on the shim at a given
 * CONFIG_NR_CPUS, without lockdep or TSan.
 *
 *	./count-NR_CPUS NR_CPU_IDS ONLINE PAIRS
 *
 * boots with CPUs 0..NR_CPU_IDS-1 possible (nr_cpu_ids = NR_CPU_IDS) and
 * 0..ONLINE-1 online, initialises a lock, checks once that
 * lg_global_lock_online() holds exactly the online CPUs' locks, then
 * takes and releases it PAIRS times on CPU 0.  Prints one line:
 * "NR_CPUS NR_CPU_IDS ONLINE PAIRS".
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/lglock.h>
#include "shim/shim.h"

DEFINE_LGLOCK(cl);
static int pairs;

static void *run(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < pairs; i++) {
		lg_global_lock_online(cl);
		lg_global_unlock_online(cl);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int ids, online, c, bad = 0;
	pthread_t t;

	if (argc != 4) {
		fprintf(stderr, "usage: %s NR_CPU_IDS ONLINE PAIRS\n", argv[0]);
		return 2;
	}
	ids = atoi(argv[1]);
	online = atoi(argv[2]);
	pairs = atoi(argv[3]);
	if (ids < 1 || ids > NR_CPUS || online < 1 || online > ids ||
	    pairs < 0) {
		fprintf(stderr, "count: need 1 <= ONLINE <= NR_CPU_IDS <= %d\n",
			NR_CPUS);
		return 2;
	}
	shim_set_cpus(ids, online);
	lg_lock_init(cl);
	/* (this pair is counted too: count.sh takes the difference of runs) */
	lg_global_lock_online(cl);
	for (c = 0; c < NR_CPUS; c++)
		bad += shim_lg_cpu_locked(&cl_lglock, c) != (c < online);
	lg_global_unlock_online(cl);
	for (c = 0; c < NR_CPUS; c++)
		bad += shim_lg_cpu_locked(&cl_lglock, c);
	if (bad || shim_warnings || shim_violations) {
		fprintf(stderr, "count: the lock held %d wrong CPUs' locks, "
			"%d warnings, %d violations\n", bad, shim_warnings,
			shim_violations);
		return 1;
	}
	t = shim_thread(0, run, NULL);
	pthread_join(t, NULL);
	printf("%d %d %d %d\n", NR_CPUS, ids, online, pairs);
	return 0;
}
