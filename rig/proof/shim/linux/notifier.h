/*
 * Stand-in for <linux/notifier.h>: the notifier block and the CPU hotplug
 * actions lglocks handle, as in the kernel.
 */
#ifndef LGSHIM_NOTIFIER_H
#define LGSHIM_NOTIFIER_H

struct notifier_block {
	int (*notifier_call)(struct notifier_block *, unsigned long, void *);
	struct notifier_block *next;
	int priority;
};

#define NOTIFY_OK		0x0001

#define CPU_ONLINE		0x0002
#define CPU_UP_PREPARE		0x0003
#define CPU_UP_CANCELED		0x0004
#define CPU_DOWN_PREPARE	0x0005
#define CPU_DEAD		0x0007
#define CPU_TASKS_FROZEN	0x0010

#endif
