# Mutant: lg_global_lock_online() on a lock that lg_lock_init() never
# prepared still warns, but then walks its empty online set instead of
# taking every possible CPU's lock, and so excludes nobody; the unlock
# matches it.
# file: kernel/lglock.c
/^void __lg_global_lock_online(/,/^}/s/lg_lock_mask(lg, unlikely(lg->online_took_all) ?/lg_lock_mask(lg, 0 ?/
/^void __lg_global_unlock_online(/,/^}/s/lg_unlock_mask(lg, unlikely(lg->online_took_all) ?/lg_unlock_mask(lg, 0 ?/
