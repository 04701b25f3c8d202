/*
 * Stand-in for <linux/smp.h>, the machine's (shim/shim.c):
 * smp_processor_id() is the CPU the calling thread plays, and reports a
 * violation where CONFIG_DEBUG_PREEMPT would (called while preemptible).
 */
#ifndef LGSHIM_SMP_H
#define LGSHIM_SMP_H

int shim_smp_processor_id(void);
#define smp_processor_id()	shim_smp_processor_id()

#endif
