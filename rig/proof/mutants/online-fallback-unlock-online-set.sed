# Mutant: lg_global_unlock_online() forgets lg->online_took_all and
# releases the online set even after a fallback that took every possible
# CPU's lock: an uninitialised lock stays held by everyone.
# file: kernel/lglock.c
/^void __lg_global_unlock_online(/,/^}/s/lg_unlock_mask(lg, unlikely(lg->online_took_all) ?/lg_unlock_mask(lg, 0 ?/
