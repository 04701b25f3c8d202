/*
 * Stand-in for <linux/preempt.h>, the machine's (shim/shim.c): a
 * per-thread preemption count, and a preemption point (where a pending
 * migration happens) at preempt_enable().
 */
#ifndef LGSHIM_PREEMPT_H
#define LGSHIM_PREEMPT_H

void shim_preempt_disable(void);
void shim_preempt_enable(void);
#define preempt_disable()	shim_preempt_disable()
#define preempt_enable()	shim_preempt_enable()

#endif
