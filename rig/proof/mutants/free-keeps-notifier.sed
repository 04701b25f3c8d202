# Mutant: lg_lock_free() forgets to unregister the hotplug notifier, which
# stays on the chain after the module that holds it is gone.
# file: kernel/lglock.c
/^\tunregister_cpu_notifier(&lg->hotplug_nb);$/d
