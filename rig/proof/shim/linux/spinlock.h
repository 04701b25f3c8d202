/*
 * Stand-in for <linux/spinlock.h> and the arch spinlock it is built on,
 * the machine's (shim/shim.c): arch_spinlock_t is a test-and-set lock on
 * C11 atomics, so ThreadSanitizer sees its acquire and release, and its
 * unlock reports a violation when the lock is free, as spinlock debugging
 * would.  spinlock_t is an arch lock with a lockdep map.  Like the kernel's
 * header, this one brings the compiler annotations, kernel.h, preemption
 * and lockdep with it.
 */
#ifndef LGSHIM_SPINLOCK_H
#define LGSHIM_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/lockdep.h>

struct shim_arch_spinlock {
	int v;
};
#define arch_spinlock_t			struct shim_arch_spinlock
#define __ARCH_SPIN_LOCK_UNLOCKED	{ 0 }

/* the kernel's spinlock.h brings cmpxchg() too, through asm/system.h */
#define cmpxchg(ptr, old, new)	__sync_val_compare_and_swap(ptr, old, new)

void arch_spin_lock(arch_spinlock_t *l);
void arch_spin_unlock(arch_spinlock_t *l);

static inline int arch_spin_is_locked(arch_spinlock_t *l)
{
	return __atomic_load_n(&l->v, __ATOMIC_RELAXED);
}

struct shim_spinlock {
	arch_spinlock_t raw;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};
#define spinlock_t		struct shim_spinlock
#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define __SPIN_LOCK_UNLOCKED(x) \
	{ .raw = __ARCH_SPIN_LOCK_UNLOCKED, .dep_map = { .name = #x } }
#else
# define __SPIN_LOCK_UNLOCKED(x)	{ .raw = __ARCH_SPIN_LOCK_UNLOCKED }
#endif

void spin_lock(spinlock_t *l) __acquires(l);
void spin_unlock(spinlock_t *l) __releases(l);

static inline int spin_is_locked(spinlock_t *l)
{
	return arch_spin_is_locked(&l->raw);
}

#endif
