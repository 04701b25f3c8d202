/*
 * find_next_bit(), ported from Linux v2.6.36-rc1's lib/find_next_bit.c
 * (Copyright (C) 2004 Red Hat, Inc., written by David Howells; GNU GPL
 * version 2 or later), the generic version that x86 builds
 * (CONFIG_GENERIC_FIND_NEXT_BIT): the same algorithm, the same loads, out
 * of line as in the kernel.  The one change: each word is read with a
 * relaxed atomic load, because the machine's CPU hotplug changes masks
 * that lockers read and ThreadSanitizer would take a plain load for a
 * race.  On x86_64 that load is the same single mov, so the instruction
 * counts of make count are the kernel's loop.
 */
#include <linux/bitops.h>

#define BITOP_WORD(nr)		((nr) / BITS_PER_LONG)
#define LOAD_WORD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	const unsigned long *p = addr + BITOP_WORD(offset);
	unsigned long result = offset & ~(BITS_PER_LONG - 1);
	unsigned long tmp;

	if (offset >= size)
		return size;
	size -= result;
	offset %= BITS_PER_LONG;
	if (offset) {
		tmp = LOAD_WORD(p++);
		tmp &= (~0UL << offset);
		if (size < BITS_PER_LONG)
			goto found_first;
		if (tmp)
			goto found_middle;
		size -= BITS_PER_LONG;
		result += BITS_PER_LONG;
	}
	while (size & ~(BITS_PER_LONG - 1)) {
		if ((tmp = LOAD_WORD(p++)))
			goto found_middle;
		result += BITS_PER_LONG;
		size -= BITS_PER_LONG;
	}
	if (!size)
		return result;
	tmp = LOAD_WORD(p);

found_first:
	tmp &= (~0UL >> (BITS_PER_LONG - size));
	if (tmp == 0UL)		/* any bits set? */
		return result + size;	/* no */
found_middle:
	return result + __ffs(tmp);
}
