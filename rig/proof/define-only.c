/*
 * Rule 8: DEFINE_LGLOCK() defines data, not code.  The Makefile checks
 * that this object has no text symbols.
 */
#include <linux/lglock.h>

DEFINE_LGLOCK(thin_a);
DEFINE_BRLOCK(thin_b);
