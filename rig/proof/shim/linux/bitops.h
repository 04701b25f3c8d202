/*
 * Stand-in for <linux/bitops.h>, as far as cpumask.h uses it, as in the
 * kernel on x86_64: BITS_PER_LONG, BITS_TO_LONGS(), __ffs() (x86's is one
 * bsf; __builtin_ctzl() is one bsf or tzcnt) and find_next_bit(), out of
 * line as x86 has it (CONFIG_GENERIC_FIND_NEXT_BIT): shim/find_next_bit.c
 * is a port of the kernel's lib/find_next_bit.c.
 */
#ifndef LGSHIM_BITOPS_H
#define LGSHIM_BITOPS_H

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);

#endif
