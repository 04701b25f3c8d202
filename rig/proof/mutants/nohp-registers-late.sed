# Mutant (!CONFIG_HOTPLUG_CPU): lg_lock_init() registers the hotplug
# notifier after boot too, where unregister_cpu_notifier() does nothing:
# a module's lock stays on the chain after lg_lock_free().
# file: kernel/lglock.c
s/^\tif (!lg_boot_cpus_up)$/\tif (1)/
