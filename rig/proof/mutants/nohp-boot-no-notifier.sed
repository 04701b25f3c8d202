# Mutant (!CONFIG_HOTPLUG_CPU): lg_lock_init() takes boot as over from the
# start and registers no notifier, so a lock initialised before smp_init()
# never learns of the CPUs that come up after it.
# file: kernel/lglock.c
s/^static int lg_boot_cpus_up;$/static int lg_boot_cpus_up = 1;/
