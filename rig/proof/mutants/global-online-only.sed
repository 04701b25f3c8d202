# Mutant: lg_global_lock() takes only the online CPUs' locks (the
# upstream mistake that left offline CPUs' data unprotected).
# file: kernel/lglock.c
/^void __lg_global_lock(/,/^}/s/lg_lock_mask(lg, cpu_possible_mask)/lg_lock_mask(lg, cpu_online_mask)/
/^void __lg_global_unlock(/,/^}/s/lg_unlock_mask(lg, cpu_possible_mask)/lg_unlock_mask(lg, cpu_online_mask)/
