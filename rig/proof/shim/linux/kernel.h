/*
 * Stand-in for <linux/kernel.h>: container_of() and _RET_IP_, as in the
 * kernel (container_of() without its type check), and, as the kernel's
 * does, <asm/bug.h> for WARN_ON_ONCE().
 */
#ifndef LGSHIM_KERNEL_H
#define LGSHIM_KERNEL_H

#include <stddef.h>
#include <asm/bug.h>

#define _RET_IP_		(unsigned long)__builtin_return_address(0)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
