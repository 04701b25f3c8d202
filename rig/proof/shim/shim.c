/*
 * The userspace machine lglock.h runs on in the tests: threads that play
 * CPUs (each pinned to a host core), per-CPU copies of a data section,
 * preemption counts with migration at preemption points, test-and-set
 * spinlocks on C11 atomics (so ThreadSanitizer sees acquire/release),
 * CPU hotplug with notifiers, initcalls, WARN_ON() reports, and a small
 * lockdep that records lock-class dependencies and reports cycles.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/lglock.h>
#include <linux/cpu.h>
#include <linux/init.h>
#include "shim.h"

int shim_violations;
int shim_lockdep_reports;
int shim_warnings;
/* every CPU possible and online until a test says otherwise */
int nr_cpu_ids = NR_CPUS;
struct cpumask shim_online_mask, shim_possible_mask;
char *shim_percpu_base[SHIM_NR_CPUS];

static __thread int cur_cpu = -1;
static __thread int preempt;
/* migration target + 1, by source cpu; a cache line each, as it is read
 * at every preemption point */
static struct {
	int to;
} __attribute__((aligned(64))) want[SHIM_NR_CPUS];
static int host_cpus = 1;

static void violation(const char *what)
{
	__atomic_add_fetch(&shim_violations, 1, __ATOMIC_RELAXED);
	fprintf(stderr, "# shim: %s (cpu %d, preempt %d)\n", what, cur_cpu,
		preempt);
}

void shim_warn(const char *file, int line)
{
	__atomic_add_fetch(&shim_warnings, 1, __ATOMIC_RELAXED);
	fprintf(stderr, "# shim: WARNING at %s:%d (cpu %d)\n", file, line,
		cur_cpu);
}

static void __attribute__((constructor)) shim_init(void)
{
	size_t len = __stop_lgshim_percpu - __start_lgshim_percpu;
	int cpu;

	for (cpu = 0; cpu < SHIM_NR_CPUS; cpu++) {
		cpumask_set_cpu(cpu, &shim_possible_mask);
		cpumask_set_cpu(cpu, &shim_online_mask);
		/* a page each: no false sharing between CPUs' copies */
		shim_percpu_base[cpu] = aligned_alloc(4096,
						      (len + 4095) & ~4095UL);
		memcpy(shim_percpu_base[cpu], __start_lgshim_percpu, len);
	}
	host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (host_cpus < 1)
		host_cpus = 1;
}

static void pin_host(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % host_cpus, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int shim_this_cpu(void)
{
	return cur_cpu;
}

int shim_preempt_count(void)
{
	return preempt;
}

void shim_request_migration(int from, int to)
{
	__atomic_store_n(&want[from].to, to + 1, __ATOMIC_RELEASE);
}

void shim_preempt_point(void)
{
	int to;

	if (preempt || cur_cpu < 0)
		return;
	if (!__atomic_load_n(&want[cur_cpu].to, __ATOMIC_RELAXED))
		return;
	to = __atomic_exchange_n(&want[cur_cpu].to, 0, __ATOMIC_ACQ_REL);
	if (to) {
		cur_cpu = to - 1;
		pin_host(cur_cpu);
	}
}

void shim_preempt_disable(void)
{
	preempt++;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void shim_preempt_enable(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (--preempt < 0)
		violation("preempt count underflow");
	shim_preempt_point();
}

int shim_smp_processor_id(void)
{
	if (cur_cpu < 0) {
		violation("smp_processor_id() outside a CPU thread");
		return 0;
	}
	if (!preempt)
		violation("smp_processor_id() in preemptible code");
	return cur_cpu;
}

void arch_spin_lock(arch_spinlock_t *l)
{
	shim_preempt_point();
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			sched_yield();
	shim_preempt_point();
}

void arch_spin_unlock(arch_spinlock_t *l)
{
	if (!__atomic_load_n(&l->v, __ATOMIC_RELAXED))
		violation("unlock of a lock that is not held");
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

void spin_lock(spinlock_t *l)
{
	preempt_disable();
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquire(&l->dep_map, 0, 0, 0, 2, NULL, _RET_IP_);
#endif
	arch_spin_lock(&l->raw);
}

void spin_unlock(spinlock_t *l)
{
	arch_spin_unlock(&l->raw);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_release(&l->dep_map, 1, _RET_IP_);
#endif
	preempt_enable();
}

/* ---- a small lockdep: classes, held stacks, dependency graph ---- */

#define MAX_CLASSES 64
static pthread_mutex_t dep_mutex = PTHREAD_MUTEX_INITIALIZER;
static const void *class_key[MAX_CLASSES];
static const char *class_name[MAX_CLASSES];
static int nclasses;
/* dep[a][b]: b was taken while a was held */
static unsigned char dep[MAX_CLASSES][MAX_CLASSES];

struct held {
	int class;
	int read;
};
static __thread struct held held[32];
static __thread int nheld;

static int class_of(struct lockdep_map *m)
{
	const void *key = m->key ? (const void *)m->key : (const void *)m;
	int i;

	for (i = 0; i < nclasses; i++)
		if (class_key[i] == key)
			return i;
	class_key[nclasses] = key;
	class_name[nclasses] = m->name;
	return nclasses++;
}

static int reaches(int from, int to, unsigned char *seen)
{
	int i;

	if (from == to)
		return 1;
	if (seen[from])
		return 0;
	seen[from] = 1;
	for (i = 0; i < nclasses; i++)
		if (dep[from][i] && reaches(i, to, seen))
			return 1;
	return 0;
}

void lock_acquire(struct lockdep_map *lock, unsigned int subclass,
		  int trylock, int read, int check,
		  struct lockdep_map *nest_lock, unsigned long ip)
{
	int c, i;

	(void)subclass; (void)trylock; (void)check; (void)nest_lock; (void)ip;
	pthread_mutex_lock(&dep_mutex);
	c = class_of(lock);
	for (i = 0; i < nheld; i++) {
		struct held *h = &held[i];
		unsigned char seen[MAX_CLASSES] = { 0 };

		if (h->class == c) {
			/* as lockdep: only recursive reads may nest */
			if (!(read == 2 && h->read)) {
				shim_lockdep_reports++;
				fprintf(stderr,
					"# lockdep: recursive locking of %s\n",
					class_name[c]);
			}
			continue;
		}
		/* as lockdep: recursive-read edges are not recorded */
		if (h->read == 2 || read == 2)
			continue;
		if (!dep[h->class][c] && reaches(c, h->class, seen)) {
			shim_lockdep_reports++;
			fprintf(stderr,
				"# lockdep: circular locking: %s -> %s\n",
				class_name[h->class], class_name[c]);
		}
		dep[h->class][c] = 1;
	}
	pthread_mutex_unlock(&dep_mutex);
	if (nheld < 32)
		held[nheld++] = (struct held){ c, read };
}

void lock_release(struct lockdep_map *lock, int nested, unsigned long ip)
{
	int c, i;

	(void)nested; (void)ip;
	pthread_mutex_lock(&dep_mutex);
	c = class_of(lock);
	pthread_mutex_unlock(&dep_mutex);
	for (i = nheld - 1; i >= 0; i--)
		if (held[i].class == c) {
			memmove(&held[i], &held[i + 1],
				(nheld - i - 1) * sizeof(held[0]));
			nheld--;
			return;
		}
	violation("lock_release of a lock that is not held");
}

/* ---- threads as CPUs ---- */

struct start {
	int cpu;
	void *(*fn)(void *);
	void *arg;
};

static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	cur_cpu = s.cpu;
	pin_host(s.cpu);
	return s.fn(s.arg);
}

pthread_t shim_thread(int cpu, void *(*fn)(void *), void *arg)
{
	struct start *s = malloc(sizeof(*s));
	pthread_t t;

	s->cpu = cpu;
	s->fn = fn;
	s->arg = arg;
	if (pthread_create(&t, NULL, trampoline, s)) {
		perror("pthread_create");
		exit(2);
	}
	return t;
}

/* ---- CPU hotplug ---- */

static pthread_rwlock_t hotplug = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t nb_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct notifier_block *nbs[16];
static int nnbs;

int register_cpu_notifier(struct notifier_block *nb)
{
	pthread_mutex_lock(&nb_mutex);
	if (nnbs < (int)(sizeof(nbs) / sizeof(nbs[0])))
		nbs[nnbs++] = nb;
	else
		violation("too many CPU notifiers");
	pthread_mutex_unlock(&nb_mutex);
	return 0;
}

#ifdef CONFIG_HOTPLUG_CPU
void unregister_cpu_notifier(struct notifier_block *nb)
{
	int i;

	pthread_mutex_lock(&nb_mutex);
	for (i = 0; i < nnbs; i++) {
		if (nbs[i] == nb) {
			memmove(&nbs[i], &nbs[i + 1],
				(nnbs - i - 1) * sizeof(nbs[0]));
			nnbs--;
			break;
		}
	}
	pthread_mutex_unlock(&nb_mutex);
}
#endif

int shim_notifier_registered(struct notifier_block *nb)
{
	int i, n = 0;

	pthread_mutex_lock(&nb_mutex);
	for (i = 0; i < nnbs; i++)
		n += nbs[i] == nb;
	pthread_mutex_unlock(&nb_mutex);
	return n;
}

#ifdef CONFIG_HOTPLUG_CPU
void get_online_cpus(void)
{
	pthread_rwlock_rdlock(&hotplug);
}

void put_online_cpus(void)
{
	pthread_rwlock_unlock(&hotplug);
}
#endif

static void notify(unsigned long action, int cpu)
{
	int i;

	pthread_mutex_lock(&nb_mutex);
	for (i = 0; i < nnbs; i++)
		nbs[i]->notifier_call(nbs[i], action, (void *)(long)cpu);
	pthread_mutex_unlock(&nb_mutex);
}

void shim_set_online(int cpu, bool online)
{
	if (online)
		cpumask_set_cpu(cpu, &shim_online_mask);
	else
		cpumask_clear_cpu(cpu, &shim_online_mask);
}

bool shim_cpu_online(int cpu)
{
	return cpumask_test_cpu(cpu, &shim_online_mask);
}

void shim_cpu_up_prepare(int cpu)
{
	pthread_rwlock_wrlock(&hotplug);
	notify(CPU_UP_PREPARE, cpu);
	pthread_rwlock_unlock(&hotplug);
}

void shim_cpu_up_finish(int cpu)
{
	pthread_rwlock_wrlock(&hotplug);
	shim_set_online(cpu, true);
	notify(CPU_ONLINE, cpu);
	pthread_rwlock_unlock(&hotplug);
}

int shim_cpu_up(int cpu)
{
	pthread_rwlock_wrlock(&hotplug);
	notify(CPU_UP_PREPARE, cpu);
	shim_set_online(cpu, true);
	notify(CPU_ONLINE, cpu);
	pthread_rwlock_unlock(&hotplug);
	return 0;
}

int shim_cpu_down(int cpu)
{
#ifndef CONFIG_HOTPLUG_CPU
	violation("cpu_down without CONFIG_HOTPLUG_CPU");
	return -1;
#endif
	pthread_rwlock_wrlock(&hotplug);
	notify(CPU_DOWN_PREPARE, cpu);
	shim_set_online(cpu, false);
	notify(CPU_DEAD, cpu);
	pthread_rwlock_unlock(&hotplug);
	return 0;
}

void shim_set_cpus(int possible, int online)
{
	int cpu;

	nr_cpu_ids = possible;
	for (cpu = 0; cpu < SHIM_NR_CPUS; cpu++) {
		if (cpu < possible)
			cpumask_set_cpu(cpu, &shim_possible_mask);
		else
			cpumask_clear_cpu(cpu, &shim_possible_mask);
		shim_set_online(cpu, cpu < online);
	}
}

/* ---- initcalls ---- */

extern shim_initcall_t __start_lgshim_initcall[], __stop_lgshim_initcall[];

/* keeps the initcall section in every program, even one with none */
static int shim_initcall_anchor(void)
{
	return 0;
}
core_initcall(shim_initcall_anchor);

void shim_do_initcalls(void)
{
	static int done;
	shim_initcall_t *fn;

	if (done++)
		return;
	for (fn = __start_lgshim_initcall; fn < __stop_lgshim_initcall; fn++)
		(*fn)();
}

#ifdef CONFIG_SMP
bool shim_lg_cpu_locked(struct lglock *lg, int cpu)
{
	return arch_spin_is_locked(per_cpu_ptr(lg->lock, cpu));
}
#endif

void shim_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

bool shim_wait_flag(int *flag, int val, int ms)
{
	int i;

	for (i = 0; i < ms * 10; i++) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == val)
			return true;
		struct timespec ts = { 0, 100000 };

		nanosleep(&ts, NULL);
	}
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE) == val;
}

/* keeps the per-CPU section in every program, even one with no lglock */
DEFINE_PER_CPU(int, shim_percpu_anchor);
