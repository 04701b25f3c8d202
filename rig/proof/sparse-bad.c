/* Unbalanced: sparse -Wcontext must report both functions. */
#include <linux/lglock.h>

DECLARE_LGLOCK(sp);

void sp_leaks_local(void)
{
	lg_local_lock(sp);
}

void sp_leaks_global(void)
{
	lg_global_lock(sp);
}
