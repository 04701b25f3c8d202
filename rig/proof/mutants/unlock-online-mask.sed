# Mutant: lg_global_unlock_online() releases the CPUs online now, not
# the set the lock took.
# file: kernel/lglock.c
/^void __lg_global_unlock_online(/,/^}/s/for_each_cpu_nr(cpu, &lg->online)/for_each_online_cpu(cpu)/
