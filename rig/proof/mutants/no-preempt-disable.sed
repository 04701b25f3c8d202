# Mutant: lg_local_lock() leaves preemption on (the SMP version).
# file: include/linux/lglock.h
/^#ifdef CONFIG_SMP$/,/^#else/{/^static inline void __lg_local_lock(/,/^}/{/^\tpreempt_disable();$/d}}
/^#ifdef CONFIG_SMP$/,/^#else/{/^static inline void __lg_local_unlock(/,/^}/{/^\tpreempt_enable();$/d}}
