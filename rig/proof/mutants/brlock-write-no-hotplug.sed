# Mutant: br_write_lock() locks the CPUs in cpu_online_mask without
# lg->online_lock, so nothing holds off a CPU coming online during the
# write section (a reader on it runs beside the writer), and
# br_write_unlock() releases the CPUs online at unlock time, not the set
# the lock took.
# file: include/linux/lglock.h
s/^#define br_write_lock(name)[[:space:]].*/#define br_write_lock(name)\t\tbr_write_lock_nohp(\&name##_lglock)/
s/^#define br_write_unlock(name)[[:space:]].*/#define br_write_unlock(name)\t\tbr_write_unlock_nohp(\&name##_lglock)/
/^#endif \/\* __LINUX_LGLOCK_H \*\/$/i\
static inline void br_write_lock_nohp(struct lglock *lg)\
{\
	int cpu;\
\
	preempt_disable();\
	lg_acquire_exclusive(lg, _RET_IP_);\
	for_each_online_cpu(cpu)\
		arch_spin_lock(per_cpu_ptr(lg->lock, cpu));\
}\
\
static inline void br_write_unlock_nohp(struct lglock *lg)\
{\
	int cpu;\
\
	for_each_online_cpu(cpu)\
		arch_spin_unlock(per_cpu_ptr(lg->lock, cpu));\
	lg_release(lg, _RET_IP_);\
	preempt_enable();\
}
