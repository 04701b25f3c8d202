/*
 * The test hooks: what the tests use of the machine in shim.c to drive
 * it (threads that play CPUs, CPU hotplug, migration) and to look at it
 * (the counts of what the kernel's debugging would have reported).  The
 * code under test never includes this; it sees the machine only through
 * the stand-ins for kernel headers in linux/ beside this file.
 */
#ifndef LGSHIM_SHIM_H
#define LGSHIM_SHIM_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/threads.h>

#define SHIM_NR_CPUS	NR_CPUS	/* possible CPUs */

/* Violations the kernel would have reported (DEBUG_PREEMPT, spinlock
 * debugging): smp_processor_id() while preemptible, unlock of a free lock.
 */
extern int shim_violations;
/* Cycles the small lockdep found. */
extern int shim_lockdep_reports;
/* WARN_ON() and WARN_ON_ONCE() reports (asm/bug.h), each also printed. */
extern int shim_warnings;

/* The CPU the calling thread runs on, -1 when it is no CPU thread. */
int shim_this_cpu(void);
int shim_preempt_count(void);

/* Start fn(arg) on a thread that plays CPU cpu. */
pthread_t shim_thread(int cpu, void *(*fn)(void *), void *arg);
/* Ask the thread running on cpu "from" to move to "to" at its next
 * preemption point (only taken while preemptible). */
void shim_request_migration(int from, int to);
/* A place where the scheduler could preempt and migrate the caller. */
void shim_preempt_point(void);

/* Hotplug, as the kernel orders it: notifiers under the hotplug lock.
 * Without CONFIG_HOTPLUG_CPU a CPU only comes up (at boot): shim_cpu_down()
 * is then a violation and does nothing. */
void shim_set_online(int cpu, bool online);	/* boot state, no notifiers */
int shim_cpu_up(int cpu);
int shim_cpu_down(int cpu);
/* The two halves of cpu_up, for tests that need the gap between them. */
void shim_cpu_up_prepare(int cpu);
void shim_cpu_up_finish(int cpu);
bool shim_cpu_online(int cpu);
/* Boot state for the instruction counts: nr_cpu_ids = possible, CPUs
 * 0..possible-1 possible, 0..online-1 online; no notifiers. */
void shim_set_cpus(int possible, int online);
/* Run the core_initcall()s (linux/init.h), once, as the kernel does after
 * smp_init(). */
void shim_do_initcalls(void);

/* How often nb is on the CPU notifier chain (once, or not at all). */
struct notifier_block;
int shim_notifier_registered(struct notifier_block *nb);

/* Whether a raw per-CPU lock is held (white-box checks). */
struct lglock;
bool shim_lg_cpu_locked(struct lglock *lg, int cpu);

/* Spin until *flag == val or ms pass; returns whether it got there. */
bool shim_wait_flag(int *flag, int val, int ms);
void shim_msleep(int ms);

#endif
