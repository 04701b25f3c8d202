# The brlock writer takes the CPUs of cpu_online_mask as it finds them,
# and a CPU coming up does not wait for a writer (no join at
# CPU_UP_PREPARE under online_lock): a reader on a CPU that came online
# during a write section takes its lock, which the writer does not hold,
# and the unlock releases a lock the lock did not take.
# Killed by: a test that hotplugs a CPU while mount/umount writers and
# path-walk readers run (the debug config's lglock torture test does it
# for its own lock).
# file: kernel/lglock.c
# config: debug
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_lock(&lg->online_lock);$/d}
/^\tcase CPU_UP_PREPARE:$/,/break;/{/^\t\tspin_unlock(&lg->online_lock);$/d}
/^void __lg_global_lock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
/^void __lg_global_unlock_online(/,/^}/s/cpu_possible_mask : &lg->online);/cpu_possible_mask : cpu_online_mask);/
