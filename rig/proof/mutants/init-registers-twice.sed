# Mutant: lg_lock_init() registers the hotplug notifier on every call, so
# a second call puts the same notifier_block on the chain twice (in the
# kernel, a chain that loops).
# file: kernel/lglock.c
s/^\tif (cmpxchg(&lg->hotplug_nb.notifier_call, NULL, lg_cpu_callback))$/\tlg->hotplug_nb.notifier_call = lg_cpu_callback;\n\tif (0)/
