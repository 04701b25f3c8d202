/*
 * Stand-in for <linux/cpu.h>.  The machine's (shim/shim.c): CPU hotplug
 * calls the registered notifiers with the hotplug lock held for writing;
 * get_online_cpus() holds it for reading.  Without CONFIG_HOTPLUG_CPU, as
 * in the kernel (for code built in, not a module): register_cpu_notifier()
 * still registers (CPUs come up at boot), unregister_cpu_notifier() does
 * nothing, and get_online_cpus()/put_online_cpus() are empty.
 */
#ifndef LGSHIM_CPU_H
#define LGSHIM_CPU_H

#include <linux/notifier.h>
#include <linux/cpumask.h>

int register_cpu_notifier(struct notifier_block *nb);
#ifdef CONFIG_HOTPLUG_CPU
void unregister_cpu_notifier(struct notifier_block *nb);
void get_online_cpus(void);
void put_online_cpus(void);
#else
static inline void unregister_cpu_notifier(struct notifier_block *nb)
{
}
#define get_online_cpus()	do { } while (0)
#define put_online_cpus()	do { } while (0)
#endif

#endif
