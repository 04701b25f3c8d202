# Mutant: lg_local_lock_cpu() takes the caller's own lock instead of
# the given CPU's.
# file: include/linux/lglock.h
/^static inline void __lg_local_lock_cpu(/,/^}/s/arch_spin_lock(per_cpu_ptr(lg->lock, cpu))/arch_spin_lock(this_cpu_ptr(lg->lock))/
/^static inline void __lg_local_unlock_cpu(/,/^}/s/arch_spin_unlock(per_cpu_ptr(lg->lock, cpu))/arch_spin_unlock(this_cpu_ptr(lg->lock))/
