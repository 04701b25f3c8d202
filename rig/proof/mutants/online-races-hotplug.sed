# Mutant: lg_global_lock_online() walks cpu_online_mask and nothing holds
# off a CPU coming online (the upstream hotplug race): the CPU_UP_PREPARE
# notifier no longer waits for lg->online_lock.
# file: kernel/lglock.c
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_lock(&lg->online_lock);$/d}
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_unlock(&lg->online_lock);$/d}
/^void __lg_global_lock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
/^void __lg_global_unlock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
