# Mutant: locals are recursive reads to lockdep, so it records no
# dependency through them and misses ABBA.
# file: include/linux/lglock.h
/^# define lg_acquire_shared(/,/lock_acquire(/s/, 0, 0, 1, LG_LOCKDEP_CHECK,/, 0, 0, 2, LG_LOCKDEP_CHECK,/
