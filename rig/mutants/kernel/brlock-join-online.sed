# The brlock writer takes the CPUs of cpu_online_mask as it finds them,
# and a CPU coming up does not wait for a writer (no join at
# CPU_UP_PREPARE under online_lock): a reader on a CPU that came online
# during a write section takes its lock, which the writer does not hold,
# and the unlock releases a lock the lock did not take.
# Killed by: the debug config's boot-time lglock torture test at -smp 4
# (it hotplugs CPUs under its own lock); hotplug_walkers (vfstest: a CPU
# offlined and onlined while a mount writer and path walkers run) did not
# kill it at -smp 2, with about 9 hotplug cycles in its 8 seconds.
# file: kernel/lglock.c
# config: debug
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_lock(&lg->online_lock);$/d}
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_unlock(&lg->online_lock);$/d}
/^void __lg_global_lock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
/^void __lg_global_unlock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
