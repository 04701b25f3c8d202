/*
 * Stand-in for <linux/compiler.h>: likely()/unlikely() and the sparse
 * annotations, as in the kernel.
 */
#ifndef LGSHIM_COMPILER_H
#define LGSHIM_COMPILER_H

#ifdef __CHECKER__
# define __acquires(x)	__attribute__((context(x, 0, 1)))
# define __releases(x)	__attribute__((context(x, 1, 0)))
# define __acquire(x)	__context__(x, 1)
# define __release(x)	__context__(x, -1)
# define __percpu	__attribute__((noderef, address_space(3)))
# define __force	__attribute__((force))
# define __kernel	__attribute__((address_space(0)))
#else
# define __acquires(x)
# define __releases(x)
# define __acquire(x)	(void)0
# define __release(x)	(void)0
# define __percpu
# define __force
# define __kernel
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif
