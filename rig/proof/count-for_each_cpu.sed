# make count's comparison: kernel/lglock.c with the mask walks of
# lg_lock_mask() and lg_unlock_mask() done with for_each_cpu(), as the
# cpumask API would have them.
/^static void lg_lock_mask(/,/^}/c\
static void lg_lock_mask(struct lglock *lg, const struct cpumask *mask)\
{\
	int cpu;\
\
	for_each_cpu(cpu, mask)\
		arch_spin_lock(per_cpu_ptr(lg->lock, cpu));\
}
/^static void lg_unlock_mask(/,/^}/c\
static void lg_unlock_mask(struct lglock *lg, const struct cpumask *mask)\
{\
	int cpu;\
\
	for_each_cpu(cpu, mask)\
		arch_spin_unlock(per_cpu_ptr(lg->lock, cpu));\
}
