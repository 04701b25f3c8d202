/*
 * The rules of include/linux/lglock.h, tested in userspace on the real
 * header and kernel/lglock.c, with threads playing SHIM_NR_CPUS CPUs (see
 * shim/).  One test per rule; prints TAP; exit status 1 if any fails.
 *
 *   ./lglock-test [-v] [test...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/lglock.h>
#include "shim/shim.h"

DEFINE_LGLOCK(tl);
DEFINE_STATIC_LGLOCK(other);
DEFINE_STATIC_LGLOCK(modlock);	/* rule 10 initialises it itself */
DEFINE_STATIC_LGLOCK(noinit);	/* rule 11: never passed to lg_lock_init() */
DEFINE_BRLOCK(tb);

static int failed;

#define LOAD(x)	__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

#define EXPECT(cond, ...) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed++;						\
	}								\
} while (0)

static bool lg_unlocked(struct lglock *lg)
{
	int cpu;

	for (cpu = 0; cpu < SHIM_NR_CPUS; cpu++)
		if (shim_lg_cpu_locked(lg, cpu))
			return false;
	return !spin_is_locked(&lg->online_lock);
}

static bool all_unlocked(void)
{
	return lg_unlocked(&tl_lglock) && lg_unlocked(&tb_lglock) &&
	       lg_unlocked(&noinit_lglock);
}

/*
 * The data a brlock protects: a reader touches its own CPU's slot, a
 * writer every slot, so TSan sees a race wherever a reader and a writer
 * (or two writers) overlap.
 */
static long br_data[SHIM_NR_CPUS];

/* A holder/taker pair: the holder takes its lock, the taker then tries. */
enum op { LOCAL, CPU, GLOBAL, GLOBAL_ONLINE, BR_READ, BR_WRITE,
	  /* on the lock noinit */
	  NOINIT_LOCAL, NOINIT_CPU, NOINIT_ONLINE };

struct party {
	enum op op;
	int target;
	int hold_ms;		/* holder: hold this long or until peer got */
	int held, got, done, peer_got_during_hold;
	int dropping;		/* holder: about to unlock */
	struct party *peer;
};

static void take(struct party *p)
{
	int c;

	switch (p->op) {
	case LOCAL:
		lg_local_lock(tl);
		break;
	case CPU:
		lg_local_lock_cpu(tl, p->target);
		break;
	case GLOBAL:
		lg_global_lock(tl);
		break;
	case GLOBAL_ONLINE:
		lg_global_lock_online(tl);
		break;
	case BR_READ:
		br_read_lock(tb);
		br_data[shim_this_cpu()]++;
		break;
	case BR_WRITE:
		br_write_lock(tb);
		for (c = 0; c < SHIM_NR_CPUS; c++)
			br_data[c]++;
		break;
	case NOINIT_LOCAL:
		lg_local_lock(noinit);
		br_data[shim_this_cpu()]++;
		break;
	case NOINIT_CPU:
		lg_local_lock_cpu(noinit, p->target);
		br_data[p->target]++;
		break;
	case NOINIT_ONLINE:
		lg_global_lock_online(noinit);
		for (c = 0; c < SHIM_NR_CPUS; c++)
			br_data[c]++;
		break;
	}
}

static void drop(struct party *p)
{
	switch (p->op) {
	case LOCAL:
		lg_local_unlock(tl);
		break;
	case CPU:
		lg_local_unlock_cpu(tl, p->target);
		break;
	case GLOBAL:
		lg_global_unlock(tl);
		break;
	case GLOBAL_ONLINE:
		lg_global_unlock_online(tl);
		break;
	case BR_READ:
		br_read_unlock(tb);
		break;
	case BR_WRITE:
		br_write_unlock(tb);
		break;
	case NOINIT_LOCAL:
		lg_local_unlock(noinit);
		break;
	case NOINIT_CPU:
		lg_local_unlock_cpu(noinit, p->target);
		break;
	case NOINIT_ONLINE:
		lg_global_unlock_online(noinit);
		break;
	}
}

static void *holder(void *arg)
{
	struct party *p = arg;

	take(p);
	STORE(p->held, 1);
	if (shim_wait_flag(&p->peer->got, 1, p->hold_ms))
		p->peer_got_during_hold = 1;
	STORE(p->dropping, 1);
	drop(p);
	STORE(p->done, 1);
	return NULL;
}

static void *taker(void *arg)
{
	struct party *p = arg;

	shim_wait_flag(&p->peer->held, 1, 5000);
	take(p);
	STORE(p->got, 1);
	drop(p);
	STORE(p->done, 1);
	return NULL;
}

/* Take and drop at once, without waiting for a peer. */
static void *just_take(void *arg)
{
	struct party *p = arg;

	take(p);
	STORE(p->got, 1);
	drop(p);
	STORE(p->done, 1);
	return NULL;
}

/*
 * Holder on hcpu, taker on tcpu.  excl: the taker must not get in during
 * the hold; !excl: it must get in while the holder still holds.
 */
static void pair(enum op hop, int hcpu, enum op top, int tcpu, int target,
		 bool excl, const char *what)
{
	struct party h = { .op = hop, .target = target,
			   .hold_ms = excl ? 100 : 3000 };
	struct party t = { .op = top, .target = target };
	pthread_t a, b;

	h.peer = &t;
	t.peer = &h;
	a = shim_thread(hcpu, holder, &h);
	b = shim_thread(tcpu, taker, &t);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (excl)
		EXPECT(!h.peer_got_during_hold,
		       "%s (target %d): taker on cpu %d got in while cpu %d held",
		       what, target, tcpu, hcpu);
	else
		EXPECT(h.peer_got_during_hold,
		       "%s: taker on cpu %d waited for the holder on cpu %d",
		       what, tcpu, hcpu);
	EXPECT(t.got, "%s: taker never got the lock", what);
	EXPECT(all_unlocked(), "%s: a lock is left held", what);
}

/* ---- rule 1: preemption off for the whole local hold ---- */

static int r1_cpu_at_lock, r1_cpu_in_hold, r1_preempt_in_hold;
static int r1_cpu_after;

static void *r1_thread(void *arg)
{
	(void)arg;
	lg_local_lock(tl);
	r1_cpu_at_lock = shim_this_cpu();
	/* the scheduler wants us elsewhere: it must not get its way now */
	shim_request_migration(shim_this_cpu(), 5);
	shim_preempt_point();
	r1_cpu_in_hold = shim_this_cpu();
	r1_preempt_in_hold = shim_preempt_count();
	lg_local_unlock(tl);
	r1_cpu_after = shim_this_cpu();
	return NULL;
}

static void rule1_preempt(void)
{
	int v = shim_violations;
	pthread_t t = shim_thread(2, r1_thread, NULL);

	pthread_join(t, NULL);
	EXPECT(r1_preempt_in_hold > 0, "preemption enabled in a local hold");
	EXPECT(r1_cpu_in_hold == r1_cpu_at_lock,
	       "migrated from cpu %d to %d while holding the local lock",
	       r1_cpu_at_lock, r1_cpu_in_hold);
	EXPECT(r1_cpu_after == 5, "the migration never happened after unlock");
	EXPECT(shim_violations == v, "%d kernel-debug violations",
	       shim_violations - v);
	EXPECT(all_unlocked(), "a lock is left held");
}

/* ---- rule 2: locals on different CPUs never wait for each other ---- */

static void rule2_locals_parallel(void)
{
	int a, b;

	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			if (a != b)
				pair(LOCAL, a, LOCAL, b, 0, false,
				     "local vs local");
}

/* ---- rule 3: cross-CPU excludes that CPU's local, offline too ---- */

static void rule3_cross_cpu(void)
{
	pair(LOCAL, 0, CPU, 1, 0, true, "cross-cpu vs local holder");
	pair(CPU, 1, LOCAL, 0, 0, true, "local vs cross-cpu holder");
	pair(CPU, 1, CPU, 2, 0, true, "cross-cpu vs cross-cpu");
	pair(LOCAL, 0, CPU, 1, 2, false, "cross-cpu on another cpu's lock");
	/* an offline CPU's lock works and still excludes */
	shim_set_online(6, false);
	pair(CPU, 1, CPU, 2, 6, true, "cross-cpu on offline cpu 6");
	shim_set_online(6, true);
}

/* ---- rule 4: global excludes every holder on every possible CPU ---- */

static void rule4_global_all_possible(void)
{
	int c;

	/* CPUs 4..7 possible but offline */
	for (c = 4; c < SHIM_NR_CPUS; c++)
		shim_set_online(c, false);
	for (c = 0; c < SHIM_NR_CPUS; c++) {
		pair(CPU, 1, GLOBAL, 0, c, true, "global vs cross-cpu holder");
		pair(GLOBAL, 0, CPU, 1, c, true, "cross-cpu vs global holder");
	}
	pair(LOCAL, 2, GLOBAL, 0, 0, true, "global vs local holder");
	pair(GLOBAL, 0, LOCAL, 2, 0, true, "local vs global holder");
	pair(GLOBAL, 0, GLOBAL, 1, 0, true, "global vs global");
	for (c = 4; c < SHIM_NR_CPUS; c++)
		shim_set_online(c, true);
}

/*
 * Stress: per-CPU pairs of counters, each changed under its CPU's lock by
 * local and cross-CPU lockers; global lockers check every pair is equal.
 * A hole in the exclusion shows as an unequal pair, or to TSan as a race.
 */
static struct { long a, b; } counters[SHIM_NR_CPUS];
static int stress_stop, stress_bad;

static void *stress_local(void *arg)
{
	long i;
	int me;

	(void)arg;
	for (i = 0; !__atomic_load_n(&stress_stop, __ATOMIC_ACQUIRE); i++) {
		if (i & 3) {
			lg_local_lock(tl);
			me = shim_this_cpu();
		} else {
			/* 6, 7 are offline: only cross-CPU users reach them */
			me = 4 + (i >> 2) % 4;
			lg_local_lock_cpu(tl, me);
		}
		counters[me].a++;
		shim_preempt_point();
		counters[me].b++;
		if (i & 3)
			lg_local_unlock(tl);
		else
			lg_local_unlock_cpu(tl, me);
	}
	return NULL;
}

static void *stress_global(void *arg)
{
	int i, c;

	(void)arg;
	for (i = 0; i < 300; i++) {
		lg_global_lock(tl);
		for (c = 0; c < SHIM_NR_CPUS; c++)
			if (counters[c].a != counters[c].b)
				stress_bad++;
		lg_global_unlock(tl);
	}
	return NULL;
}

static void rule4_stress(void)
{
	pthread_t t[6];
	int i;

	shim_set_online(6, false);
	shim_set_online(7, false);
	for (i = 0; i < 4; i++)
		t[i] = shim_thread(i, stress_local, NULL);
	t[4] = shim_thread(4, stress_global, NULL);
	t[5] = shim_thread(5, stress_global, NULL);
	pthread_join(t[4], NULL);
	pthread_join(t[5], NULL);
	__atomic_store_n(&stress_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	EXPECT(!stress_bad, "global saw %d torn per-cpu pairs", stress_bad);
	EXPECT(all_unlocked(), "a lock is left held");
	shim_set_online(6, true);
	shim_set_online(7, true);
}

/* ---- rule 5: global_online and CPU hotplug ---- */

/*
 * Each part runs on the lock whose global_online side is wop and whose
 * local side is rop: lg_global_lock_online()/lg_local_lock() on tl for
 * rule 5, br_write_lock()/br_read_lock() on tb for rule 9.
 */

static void *up_thread(void *arg)
{
	shim_cpu_up((int)(long)arg);
	return NULL;
}

static void *down_thread(void *arg)
{
	shim_cpu_down((int)(long)arg);
	return NULL;
}

/*
 * (a) CPU 5 comes up while the lock is held on CPU 0: it waits in its
 * CPU_UP_PREPARE notifier until the unlock, and a local locker started on
 * it as soon as it is online does not get in during the hold.
 */
static void up_during_hold(struct lglock *lg, enum op wop, enum op rop,
			   const char *what)
{
	struct party h = { .op = wop, .hold_ms = 300 };
	struct party late = { .op = rop };
	struct party dummy = { 0 };
	pthread_t ht, up, lt = 0;
	bool started = false, early = false;
	int i, v;

	shim_cpu_down(5);
	EXPECT(!cpumask_test_cpu(5, &lg->online),
	       "dead cpu 5 still in the lock's online set");
	v = shim_violations;
	h.peer = &dummy;
	ht = shim_thread(0, holder, &h);
	shim_wait_flag(&h.held, 1, 2000);
	up = shim_thread(1, up_thread, (void *)5L);
	/* as soon as cpu 5 is online, something runs there */
	for (i = 0; i < 250 && !LOAD(h.done); i++) {
		if (!started && shim_cpu_online(5)) {
			early = !LOAD(h.dropping);
			lt = shim_thread(5, just_take, &late);
			started = true;
		}
		shim_msleep(1);
	}
	EXPECT(!early, "%s: cpu 5 came online during the hold", what);
	EXPECT(!(LOAD(late.got) && !LOAD(h.dropping)),
	       "%s: a local locker on cpu 5 got in during the hold", what);
	pthread_join(ht, NULL);
	pthread_join(up, NULL);
	if (!started)
		lt = shim_thread(5, just_take, &late);
	pthread_join(lt, NULL);
	EXPECT(late.got, "%s: cpu 5's local locker never got in", what);
	EXPECT(shim_cpu_online(5) && cpumask_test_cpu(5, &lg->online),
	       "%s: cpu 5 did not come up into the lock's set", what);
	EXPECT(shim_violations == v, "%s: %d kernel-debug violations", what,
	       shim_violations - v);
	EXPECT(all_unlocked(), "%s: (a) a lock is left held", what);
}

/* (b) CPU 6 prepared but not yet online: locked and released as a set */
static void prepared_not_online(enum op wop, enum op rop, const char *what)
{
	shim_cpu_down(6);
	shim_cpu_up_prepare(6);
	pair(wop, 0, rop, 1, 0, true, what);
	EXPECT(all_unlocked(),
	       "%s: (b) unlock released another set than the lock took", what);
	shim_cpu_up_finish(6);
}

/* (c) CPU 3 goes down during the hold; later it comes back */
static void down_during_hold(struct lglock *lg, enum op wop, enum op rop,
			     const char *what)
{
	struct party h = { .op = wop, .hold_ms = 200 };
	struct party dummy = { 0 };
	pthread_t ht, dn;
	int v = shim_violations;

	h.peer = &dummy;
	ht = shim_thread(0, holder, &h);
	shim_wait_flag(&h.held, 1, 2000);
	dn = shim_thread(1, down_thread, (void *)3L);
	pthread_join(ht, NULL);
	pthread_join(dn, NULL);
	EXPECT(all_unlocked(),
	       "%s: (c) a lock is left held after cpu 3 went down", what);
	EXPECT(!cpumask_test_cpu(3, &lg->online),
	       "%s: dead cpu 3 still in the lock's online set", what);
	EXPECT(shim_violations == v, "%s: %d kernel-debug violations", what,
	       shim_violations - v);
	pair(wop, 0, rop, 1, 0, true, what);
	shim_cpu_up(3);
	pair(wop, 0, rop, 3, 0, true, what);
}

static void rule5_online_hotplug(void)
{
	up_during_hold(&tl_lglock, GLOBAL_ONLINE, LOCAL, "global_online");
	prepared_not_online(GLOBAL_ONLINE, LOCAL,
			    "global_online, cpu 6 preparing");
	down_during_hold(&tl_lglock, GLOBAL_ONLINE, LOCAL,
			 "global_online, cpu 3 down and up");
}

/* ---- rule 6: lockdep sees one class, shared vs exclusive ---- */

DEFINE_LGLOCK(dep);
static spinlock_t x_lock = __SPIN_LOCK_UNLOCKED(x_lock);

static void *abba_1(void *arg)
{
	(void)arg;
	lg_local_lock(dep);
	spin_lock(&x_lock);
	spin_unlock(&x_lock);
	lg_local_unlock(dep);
	return NULL;
}

static void *abba_2(void *arg)
{
	(void)arg;
	spin_lock(&x_lock);
	lg_global_lock(dep);
	lg_global_unlock(dep);
	spin_unlock(&x_lock);
	return NULL;
}

static void *clean_use(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 100; i++) {
		lg_local_lock(other);
		lg_local_unlock(other);
		lg_local_lock_cpu(other, 7 - i % 8);
		lg_local_unlock_cpu(other, 7 - i % 8);
		lg_global_lock(other);
		lg_global_unlock(other);
	}
	return NULL;
}

static void rule6_lockdep(void)
{
	int r = shim_lockdep_reports;
	pthread_t t;

	t = shim_thread(0, clean_use, NULL);
	pthread_join(t, NULL);
	t = shim_thread(1, clean_use, NULL);
	pthread_join(t, NULL);
	EXPECT(shim_lockdep_reports == r, "lockdep false positive");
	t = shim_thread(0, abba_1, NULL);
	pthread_join(t, NULL);
	EXPECT(shim_lockdep_reports == r, "lockdep report too early");
	t = shim_thread(1, abba_2, NULL);
	pthread_join(t, NULL);
	EXPECT(shim_lockdep_reports > r,
	       "ABBA between local lglock and a spinlock not reported");
}

/*
 * ---- rule 9: brlocks ----
 * br_write_lock() is lg_global_lock_online(): it excludes the readers on
 * every online CPU, and no reader can run on an offline CPU, so that is
 * every reader.  A CPU coming online waits for the writer; readers on
 * different CPUs never wait for each other.
 */

static void rule9_brlock_readers_parallel(void)
{
	int a, b;

	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			if (a != b)
				pair(BR_READ, a, BR_READ, b, 0, false,
				     "reader vs reader");
}

/*
 * Stress: readers change their CPU's counter pair, writers check every
 * pair is equal, while CPU 6 goes up and down under them.
 */
static struct { long a, b; } br_pairs[SHIM_NR_CPUS];
static int br_stop, br_bad;

static void *br_stress_reader(void *arg)
{
	int me;

	(void)arg;
	while (!LOAD(br_stop)) {
		br_read_lock(tb);
		me = shim_this_cpu();
		br_pairs[me].a++;
		shim_preempt_point();
		br_pairs[me].b++;
		br_read_unlock(tb);
	}
	return NULL;
}

static void *br_stress_writer(void *arg)
{
	int i, c;

	(void)arg;
	for (i = 0; i < 300; i++) {
		br_write_lock(tb);
		for (c = 0; c < SHIM_NR_CPUS; c++)
			if (br_pairs[c].a != br_pairs[c].b)
				br_bad++;
		br_write_unlock(tb);
	}
	return NULL;
}

static void *br_stress_hotplug(void *arg)
{
	(void)arg;
	while (!LOAD(br_stop)) {
		shim_cpu_up(6);
		shim_cpu_down(6);
	}
	return NULL;
}

static void rule9_brlock_write_excludes(void)
{
	struct party h = { .op = BR_WRITE, .hold_ms = 300 };
	struct party dummy = { 0 };
	pthread_t t[7];
	int c, w, v, missed = 0;

	/* CPUs 6 and 7 go down as in the kernel, through the notifiers */
	shim_cpu_down(6);
	shim_cpu_down(7);
	v = shim_violations;

	/* white box: the writer holds every online CPU's lock */
	h.peer = &dummy;
	t[0] = shim_thread(0, holder, &h);
	shim_wait_flag(&h.held, 1, 2000);
	for (c = 0; c < SHIM_NR_CPUS; c++)
		if (shim_cpu_online(c) && !shim_lg_cpu_locked(&tb_lglock, c))
			missed++;
	EXPECT(!missed || LOAD(h.dropping),
	       "the writer left %d online cpus' locks free", missed);
	pthread_join(t[0], NULL);

	for (c = 0; c < SHIM_NR_CPUS; c++) {
		if (!shim_cpu_online(c))
			continue;
		w = c ? 0 : 1;
		pair(BR_WRITE, w, BR_READ, c, 0, true, "reader vs writer");
		pair(BR_READ, c, BR_WRITE, w, 0, true, "writer vs reader");
	}
	pair(BR_WRITE, 0, BR_WRITE, 1, 0, true, "writer vs writer");

	for (c = 0; c < 4; c++)
		t[c] = shim_thread(c, br_stress_reader, NULL);
	t[4] = shim_thread(4, br_stress_writer, NULL);
	t[5] = shim_thread(5, br_stress_writer, NULL);
	t[6] = shim_thread(7, br_stress_hotplug, NULL);
	pthread_join(t[4], NULL);
	pthread_join(t[5], NULL);
	STORE(br_stop, 1);
	for (c = 0; c < 4; c++)
		pthread_join(t[c], NULL);
	pthread_join(t[6], NULL);
	EXPECT(!br_bad, "a writer saw %d torn per-cpu pairs", br_bad);
	EXPECT(shim_violations == v, "%d kernel-debug violations",
	       shim_violations - v);
	EXPECT(all_unlocked(), "a lock is left held");

	/* back online, CPUs 6 and 7 are locked too */
	shim_cpu_up(6);
	shim_cpu_up(7);
	for (c = 6; c < SHIM_NR_CPUS; c++) {
		pair(BR_WRITE, 0, BR_READ, c, 0, true, "reader vs writer");
		pair(BR_READ, c, BR_WRITE, 0, 0, true, "writer vs reader");
	}
}

static void rule9_brlock_cpu_up(void)
{
	up_during_hold(&tb_lglock, BR_WRITE, BR_READ, "br_write");
	prepared_not_online(BR_WRITE, BR_READ, "br_write, cpu 6 preparing");
}

static void rule9_brlock_cpu_down(void)
{
	down_during_hold(&tb_lglock, BR_WRITE, BR_READ,
			 "br_write, cpu 3 down and up");
}

/* ---- rule 10: lg_lock_init() once, lg_lock_free() undoes it ---- */

/*
 * A module's lock: initialised on load (perhaps twice by mistake), freed
 * on unload, initialised again on the next load.  The hotplug notifier is
 * on the chain exactly once while the lock is initialised, never after
 * lg_lock_free(), and the lock follows hotplug again after a new init.
 */
static void rule10_init_free(void)
{
	struct notifier_block *nb = &modlock_lglock.hotplug_nb;
	int n;

	EXPECT(shim_notifier_registered(nb) == 0, "registered before init");
	lg_lock_init(modlock);
	lg_lock_init(modlock);
	n = shim_notifier_registered(nb);
	EXPECT(n == 1, "two inits: notifier registered %d times", n);
	lg_lock_free(modlock);
	n = shim_notifier_registered(nb);
	EXPECT(n == 0, "after free: notifier registered %d times", n);
	lg_lock_free(modlock);		/* a second free does nothing */
	EXPECT(shim_cpu_down(5) == 0, "cpu_down(5)");
	lg_lock_init(modlock);
	n = shim_notifier_registered(nb);
	EXPECT(n == 1, "init after free: notifier registered %d times", n);
	EXPECT(!cpumask_test_cpu(5, &modlock_lglock.online),
	       "init after free: offline cpu 5 in the online set");
	EXPECT(shim_cpu_up(5) == 0, "cpu_up(5)");
	EXPECT(cpumask_test_cpu(5, &modlock_lglock.online),
	       "init after free: cpu 5 came up but is not in the online set");
	lg_global_lock_online(modlock);
	EXPECT(shim_lg_cpu_locked(&modlock_lglock, 5),
	       "global_online after re-init: cpu 5 not locked");
	lg_global_unlock_online(modlock);
	lg_lock_free(modlock);
}

/* ---- rule 11: global_online before lg_lock_init() ---- */

/*
 * A lock no one passed to lg_lock_init() has an empty online set, which
 * would exclude nobody: lg_global_lock_online() warns, once, and takes
 * every possible CPU's lock instead, so it still excludes the local
 * locker of every online CPU and a cross-CPU locker of an offline one,
 * and its unlock releases them all.  After lg_lock_init() it is the
 * online lock again, without a warning.
 */
static void rule11_online_uninit(void)
{
	struct party h = { .op = NOINIT_ONLINE, .hold_ms = 100 };
	struct party dummy = { 0 };
	pthread_t t;
	int c, w, n;

	/* CPUs 6 and 7 possible but offline */
	shim_set_online(6, false);
	shim_set_online(7, false);
	w = shim_warnings;

	/* white box: during the hold, every possible CPU's lock is held */
	h.peer = &dummy;
	t = shim_thread(0, holder, &h);
	shim_wait_flag(&h.held, 1, 2000);
	for (c = 0, n = 0; c < SHIM_NR_CPUS; c++)
		n += !shim_lg_cpu_locked(&noinit_lglock, c);
	EXPECT(!n || LOAD(h.dropping),
	       "uninitialised global_online left %d cpus' locks free", n);
	pthread_join(t, NULL);
	EXPECT(lg_unlocked(&noinit_lglock),
	       "uninitialised global_online: the unlock left locks held");
	if (!lg_unlocked(&noinit_lglock))
		return;		/* the pairs below would only deadlock */

	for (c = 0; c < SHIM_NR_CPUS; c++) {
		if (shim_cpu_online(c)) {
			pair(NOINIT_ONLINE, c ? 0 : 1, NOINIT_LOCAL, c, 0, true,
			     "local vs uninitialised global_online");
			pair(NOINIT_LOCAL, c, NOINIT_ONLINE, c ? 0 : 1, 0, true,
			     "uninitialised global_online vs local");
		} else {
			pair(NOINIT_ONLINE, 0, NOINIT_CPU, 1, c, true,
			     "cross-cpu on an offline cpu vs uninitialised global_online");
		}
		if (!all_unlocked())
			return;
	}
	n = shim_warnings - w;
	EXPECT(n == 1, "uninitialised global_online warned %d times, not once",
	       n);

	/* initialised, it locks the online CPUs only, and does not warn */
	lg_lock_init(noinit);
	w = shim_warnings;
	lg_global_lock_online(noinit);
	for (c = 0, n = 0; c < SHIM_NR_CPUS; c++)
		n += shim_lg_cpu_locked(&noinit_lglock, c) != shim_cpu_online(c);
	EXPECT(!n, "global_online after lg_lock_init(): %d cpus locked wrongly",
	       n);
	lg_global_unlock_online(noinit);
	EXPECT(shim_warnings == w, "global_online after lg_lock_init() warned");
	EXPECT(all_unlocked(), "a lock is left held");
	lg_lock_free(noinit);
	shim_set_online(6, true);
	shim_set_online(7, true);
}

/* ---- the table ---- */

static const struct {
	const char *name;
	void (*fn)(void);
	int warnings;		/* the WARN_ON()s it must see, no more */
} tests[] = {
	{ "rule1_preempt", rule1_preempt },
	{ "rule2_locals_parallel", rule2_locals_parallel },
	{ "rule3_cross_cpu", rule3_cross_cpu },
	{ "rule4_global_all_possible", rule4_global_all_possible },
	{ "rule4_stress", rule4_stress },
	{ "rule5_online_hotplug", rule5_online_hotplug },
	{ "rule6_lockdep", rule6_lockdep },
	{ "rule9_brlock_readers_parallel", rule9_brlock_readers_parallel },
	{ "rule9_brlock_write_excludes", rule9_brlock_write_excludes },
	{ "rule9_brlock_cpu_up", rule9_brlock_cpu_up },
	{ "rule9_brlock_cpu_down", rule9_brlock_cpu_down },
	{ "rule10_init_free", rule10_init_free },
	{ "rule11_online_uninit", rule11_online_uninit, 1 },
};

/*
 * Each test runs in its own process, as a broken lock may deadlock it.
 * The parent watches the child's CPU time, not wall-clock time: a
 * deadlocked test spins (every lock here is a spinlock) and burns CPU, a
 * test starved by a busy host does not, and a correct test needs a few
 * seconds of CPU at most.  A generous wall-clock limit stays as the
 * backstop for a deadlock in which every thread sleeps.
 */
#define WATCHDOG_CPU_S		30
#define WATCHDOG_WALL_S		600

static double seconds(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_one(int i)
{
	const char *why = NULL;
	clockid_t cpu;
	double start;
	int st, limit = 0;
	pid_t pid = fork();

	if (pid == 0) {
		lg_lock_init(tl);
		lg_lock_init(other);
		lg_lock_init(dep);
		br_lock_init(tb);
		failed = 0;
		tests[i].fn();
		EXPECT(shim_warnings == tests[i].warnings,
		       "%s: %d WARN_ON reports, %d expected", tests[i].name,
		       shim_warnings, tests[i].warnings);
		fflush(stdout);
		_exit(failed ? 1 : 0);
	}
	if (pid < 0)
		return -1;
	if (clock_getcpuclockid(pid, &cpu)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -1;
	}
	start = seconds(CLOCK_MONOTONIC);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (!why && seconds(cpu) > WATCHDOG_CPU_S) {
			why = "of CPU time (deadlock)";
			limit = WATCHDOG_CPU_S;
		} else if (!why &&
			   seconds(CLOCK_MONOTONIC) - start > WATCHDOG_WALL_S) {
			why = "(deadlock, all asleep)";
			limit = WATCHDOG_WALL_S;
		}
		if (why)
			kill(pid, SIGKILL);
		shim_msleep(100);
	}
	if (why) {
		printf("# %s: no progress in %ds %s\n", tests[i].name, limit,
		       why);
		return 1;
	}
	return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	int i, j, n = sizeof(tests) / sizeof(tests[0]), bad = 0, run, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", argc > 1 ? argc - 1 : n);
	for (i = 0, run = 0; i < n; i++) {
		if (argc > 1) {
			for (j = 1; j < argc; j++)
				if (!strcmp(argv[j], tests[i].name))
					break;
			if (j == argc)
				continue;
		}
		r = run_one(i);
		run++;
		printf("%sok %d %s\n", r ? "not " : "", run, tests[i].name);
		bad += !!r;
	}
	return bad ? 1 : 0;
}
