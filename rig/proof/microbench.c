/*
 * Lock microbenchmark: lock+unlock pairs per second for lg_local_lock,
 * br_read_lock, one global spinlock and the read side of one global
 * rwlock, at 1..N threads pinned one per host core.  Built from the real
 * lglock.h and kernel/lglock.c on the shim, without lockdep or TSan.
 * Prints CSV on stdout, the scaling ratios as comments.
 *
 *   ./microbench [seconds-per-cell]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <linux/lglock.h>
#include "shim/shim.h"

DEFINE_LGLOCK(mb_lg);
DEFINE_BRLOCK(mb_br);
static spinlock_t mb_spin = __SPIN_LOCK_UNLOCKED(mb_spin);
static int mb_rw;	/* reader count; bit 30: writer */

static void rw_read_lock(void)
{
	preempt_disable();
	while (__atomic_add_fetch(&mb_rw, 1, __ATOMIC_ACQUIRE) & (1 << 30)) {
		__atomic_sub_fetch(&mb_rw, 1, __ATOMIC_RELAXED);
		while (__atomic_load_n(&mb_rw, __ATOMIC_RELAXED) & (1 << 30))
			;
	}
}

static void rw_read_unlock(void)
{
	__atomic_sub_fetch(&mb_rw, 1, __ATOMIC_RELEASE);
	preempt_enable();
}

enum kind { LG_LOCAL, BR_READ, SPINLOCK, RWLOCK_READ, NKINDS };
static const char *names[] = { "lg_local_lock", "br_read_lock",
			       "spinlock", "rwlock_read" };

static int go, stop;
static long counts[64];

struct arg {
	enum kind k;
	int idx;
};

static void *worker(void *p)
{
	struct arg *a = p;
	long n = 0;

	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		int i;

		for (i = 0; i < 256; i++) {
			switch (a->k) {
			case LG_LOCAL:
				lg_local_lock(mb_lg);
				lg_local_unlock(mb_lg);
				break;
			case BR_READ:
				br_read_lock(mb_br);
				br_read_unlock(mb_br);
				break;
			case SPINLOCK:
				spin_lock(&mb_spin);
				spin_unlock(&mb_spin);
				break;
			default:
				rw_read_lock();
				rw_read_unlock();
				break;
			}
		}
		n += 256;
	}
	counts[a->idx] = n;
	return NULL;
}

static double run(enum kind k, int threads, double secs)
{
	pthread_t t[64];
	struct arg a[64];
	struct timespec s, e;
	long total = 0;
	int i;

	go = stop = 0;
	for (i = 0; i < threads; i++) {
		a[i].k = k;
		a[i].idx = i;
		t[i] = shim_thread(i, worker, &a[i]);
	}
	shim_msleep(50);
	clock_gettime(CLOCK_MONOTONIC, &s);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	shim_msleep((int)(secs * 1000));
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	clock_gettime(CLOCK_MONOTONIC, &e);
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		total += counts[i];
	}
	return total / ((e.tv_sec - s.tv_sec) + (e.tv_nsec - s.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), k, n;
	double one[NKINDS], top[NKINDS];

	if (ncpu > SHIM_NR_CPUS)
		ncpu = SHIM_NR_CPUS;
	lg_lock_init(mb_lg);
	br_lock_init(mb_br);
	printf("lock,threads,ops_per_sec,ops_per_sec_per_thread,vs_1_thread\n");
	for (k = 0; k < NKINDS; k++) {
		for (n = 1; n <= ncpu; n++) {
			double r = run(k, n, secs);

			if (n == 1)
				one[k] = r;
			top[k] = r;
			printf("%s,%d,%.0f,%.0f,%.3f\n", names[k], n, r, r / n,
			       r / one[k]);
		}
	}
	for (k = 0; k < NKINDS; k++)
		printf("# %s: %d threads / 1 thread = %.2fx\n", names[k], ncpu,
		       top[k] / one[k]);
	return 0;
}
