# br_read_lock() (lg_local_lock()) does not disable preemption: a reader
# can migrate between taking one CPU's lock and unlocking "its" CPU's,
# so it unlocks another CPU's lock and leaves its own held.
# Killed by: the suite on the debug config (PREEMPT, DEBUG_PREEMPT warns
# of this_cpu_ptr() in preemptible code; lockdep; a lockup).
# file: include/linux/lglock.h
# config: debug
/^static inline void __lg_local_lock(struct lglock \*lg) __acquires(lg)$/,/^}/s/^\tpreempt_disable();$/\tbarrier();/
/^static inline void __lg_local_unlock(struct lglock \*lg) __releases(lg)$/,/^}/s/^\tpreempt_enable();$/\tbarrier();/
