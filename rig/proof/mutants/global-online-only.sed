# Mutant: lg_global_lock() takes only the online CPUs' locks (the
# upstream mistake that left offline CPUs' data unprotected).  Its loops
# are lg_lock_all() and lg_unlock_all(), which the fallback of an
# uninitialised lg_global_lock_online() shares.
# file: kernel/lglock.c
/^static void lg_lock_all(/,/^}/s/for_each_possible_cpu(cpu)/for_each_online_cpu(cpu)/
/^static void lg_unlock_all(/,/^}/s/for_each_possible_cpu(cpu)/for_each_online_cpu(cpu)/
