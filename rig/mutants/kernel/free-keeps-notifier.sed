# lg_lock_free() leaves the lock's CPU notifier registered: after the
# module that defined the lock is unloaded, the next CPU hotplug calls
# into freed module memory.
# Killed by: the module cycle (modcycle: the lglock torture module loaded
# and unloaded across CPU hotplug, distro-lockdep).
# file: kernel/lglock.c
# config: distro-lockdep
# boot: 4 tap /bin/modcycle,/lglock-torture.ko,20
/^void __lg_lock_free(/,/^}/s/^\tunregister_cpu_notifier(&lg->hotplug_nb);$/\t\/* notifier left registered *\//
