/*
 * Stand-in for <linux/threads.h>: NR_CPUS is CONFIG_NR_CPUS, as in the
 * kernel.  The machine's default is 8, the possible CPUs its threads play
 * in the rule tests; the instruction counts (make count) build it with
 * -DCONFIG_NR_CPUS=512 and 4096.
 */
#ifndef LGSHIM_THREADS_H
#define LGSHIM_THREADS_H

#ifndef CONFIG_NR_CPUS
# define CONFIG_NR_CPUS	8
#endif
#define NR_CPUS		CONFIG_NR_CPUS

#endif
