/*
 * Stand-in for <linux/init.h>.  No-ops: __cpuinit and __init, as userspace
 * has no init or hotplug text sections to discard.  The machine's
 * (shim/shim.c): core_initcall() puts its function in a section of
 * initcalls, which the boot the tests play runs with shim_do_initcalls(),
 * after it has brought its CPUs up (as the kernel's smp_init() comes
 * before its initcalls).
 */
#ifndef LGSHIM_INIT_H
#define LGSHIM_INIT_H

#define __cpuinit
#define __init

typedef int (*shim_initcall_t)(void);
#define core_initcall(fn)						\
	static shim_initcall_t __shim_initcall_##fn			\
	__attribute__((used, section("lgshim_initcall"))) = fn

#endif
