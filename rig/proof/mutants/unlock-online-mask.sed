# Mutant: lg_global_unlock_online() releases the CPUs online now, not
# the set the lock took.
# file: kernel/lglock.c
/^void __lg_global_unlock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
