# Mutant: the fallback of an uninitialised lg_global_lock_online() is
# taken without a warning, so the missing lg_lock_init() goes unnoticed.
# file: kernel/lglock.c
s/WARN_ON_ONCE(!lg->hotplug_nb.notifier_call)/!lg->hotplug_nb.notifier_call/
