/*
 * Balanced use: sparse -Wcontext must stay silent on this file, and so must
 * its "should it be static?" check on the definitions: DEFINE_LGLOCK() after
 * DECLARE_LGLOCK(), DEFINE_STATIC_LGLOCK() alone.
 */
#include <linux/lglock.h>

DECLARE_LGLOCK(sp);
DECLARE_BRLOCK(spbr);
DEFINE_LGLOCK(sp);
DEFINE_BRLOCK(spbr);
DEFINE_STATIC_LGLOCK(spst);
DEFINE_STATIC_BRLOCK(spstbr);

static void sp_balanced(int cpu)
{
	lg_local_lock(sp);
	lg_local_unlock(sp);
	lg_local_lock_cpu(sp, cpu);
	lg_local_unlock_cpu(sp, cpu);
	lg_global_lock(sp);
	lg_global_unlock(sp);
	lg_global_lock_online(sp);
	lg_global_unlock_online(sp);
	br_read_lock(spbr);
	br_read_unlock(spbr);
	br_write_lock(spbr);
	br_write_unlock(spbr);
	lg_local_lock(spst);
	lg_local_unlock(spst);
	br_write_lock(spstbr);
	br_write_unlock(spstbr);
}
