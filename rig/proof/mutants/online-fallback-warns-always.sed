# Mutant: the fallback of an uninitialised lg_global_lock_online() warns
# on every call (WARN_ON(), not WARN_ON_ONCE()), flooding the log.
# file: kernel/lglock.c
s/WARN_ON_ONCE(!lg->online_ready)/WARN_ON(!lg->online_ready)/
