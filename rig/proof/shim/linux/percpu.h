/*
 * Stand-in for <linux/percpu.h>, the machine's (shim/shim.c), done the
 * way the kernel does it: DEFINE_PER_CPU() puts the variable in a section
 * of its own, the machine gives every CPU a copy of that section, and
 * per_cpu_ptr() moves an address from the section to a CPU's copy.
 */
#ifndef LGSHIM_PERCPU_H
#define LGSHIM_PERCPU_H

#include <linux/compiler.h>
#include <linux/smp.h>
#include <linux/threads.h>

#define DEFINE_PER_CPU(type, name) \
	__attribute__((section("lgshim_percpu"))) __typeof__(type) __percpu name

extern char *shim_percpu_base[NR_CPUS];
extern char __start_lgshim_percpu[], __stop_lgshim_percpu[];

#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(*(ptr)) __kernel __force *)			\
	 ((char __force *)(ptr) - __start_lgshim_percpu +		\
	  shim_percpu_base[(cpu)]))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())

#endif
