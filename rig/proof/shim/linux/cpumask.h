/*
 * Stand-in for <linux/cpumask.h>, on the machine's masks (shim/shim.c).
 *
 * As in the kernel built without CONFIG_CPUMASK_OFFSTACK (and without
 * CONFIG_DEBUG_PER_CPU_MAPS): NR_CPUS bits in an array of longs,
 * nr_cpumask_bits is NR_CPUS, nr_cpu_ids a variable (the machine sets it:
 * NR_CPUS unless a test says otherwise), cpumask_check() returns its
 * argument, cpumask_next() finds the next CPU with find_next_bit() over
 * nr_cpumask_bits, and for_each_cpu(), for_each_possible_cpu() and
 * for_each_online_cpu() loop on it.
 *
 * The machine's: the bit operations are relaxed atomics, a word at a
 * time, as CPU hotplug changes the masks while lockers read them.
 */
#ifndef LGSHIM_CPUMASK_H
#define LGSHIM_CPUMASK_H

#include <linux/threads.h>
#include <linux/bitops.h>

#if NR_CPUS == 1
# define nr_cpu_ids		1
#else
extern int nr_cpu_ids;
#endif
#define nr_cpumask_bits		NR_CPUS

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
#define cpumask_bits(maskp)	((maskp)->bits)

extern struct cpumask shim_online_mask, shim_possible_mask;
#define cpu_online_mask		(&shim_online_mask)
#define cpu_possible_mask	(&shim_possible_mask)

static inline unsigned int cpumask_check(unsigned int cpu)
{
	return cpu;
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	cpu = cpumask_check(cpu);
	__atomic_or_fetch(&m->bits[cpu / BITS_PER_LONG],
			  1UL << (cpu % BITS_PER_LONG), __ATOMIC_RELAXED);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	cpu = cpumask_check(cpu);
	__atomic_and_fetch(&m->bits[cpu / BITS_PER_LONG],
			   ~(1UL << (cpu % BITS_PER_LONG)), __ATOMIC_RELAXED);
}

static inline int cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	cpu = cpumask_check(cpu);
	return (__atomic_load_n(&m->bits[cpu / BITS_PER_LONG],
				__ATOMIC_RELAXED) >> (cpu % BITS_PER_LONG)) & 1;
}

static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(nr_cpumask_bits); i++)
		__atomic_store_n(&d->bits[i],
				 __atomic_load_n(&s->bits[i], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
}

static inline unsigned int cpumask_next(int n, const struct cpumask *srcp)
{
	/* -1 is a legal arg here. */
	if (n != -1)
		cpumask_check(n);
	return find_next_bit(cpumask_bits(srcp), nr_cpumask_bits, n + 1);
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = -1;						\
	     (cpu) = cpumask_next((cpu), (mask)),			\
	     (cpu) < nr_cpu_ids;)

#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)

#endif
