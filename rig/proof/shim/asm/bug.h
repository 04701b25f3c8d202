/*
 * Stand-in for <asm/bug.h> (asm-generic/bug.h): WARN_ON() and
 * WARN_ON_ONCE() as in the kernel, each an expression that yields its
 * condition, WARN_ON_ONCE() reporting only the first time at its call
 * site.  The report is the machine's (shim/shim.c): shim_warn() counts it
 * in shim_warnings, which the tests read (shim/shim.h), and prints where
 * it fired.  The "once" flag is set with an atomic exchange, where the
 * kernel's plain store is a benign race, so that ThreadSanitizer stays
 * quiet about it.
 */
#ifndef LGSHIM_ASM_BUG_H
#define LGSHIM_ASM_BUG_H

#include <stdbool.h>
#include <linux/compiler.h>

void shim_warn(const char *file, int line);
#define __WARN()	shim_warn(__FILE__, __LINE__)

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__WARN();						\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(condition)	({					\
	static bool __warned;						\
	int __ret_warn_once = !!(condition);				\
									\
	if (unlikely(__ret_warn_once) &&				\
	    !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))	\
		__WARN();						\
	unlikely(__ret_warn_once);					\
})

#endif
