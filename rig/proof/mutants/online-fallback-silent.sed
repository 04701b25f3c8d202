# Mutant: the fallback of an uninitialised lg_global_lock_online() is
# taken without a warning, so the missing lg_lock_init() goes unnoticed.
# file: kernel/lglock.c
s/WARN_ON_ONCE(!lg->online_ready)/!lg->online_ready/
