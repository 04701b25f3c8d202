/*
 * lglock-online.pml: the "online" protocol of the series' lglocks
 * (kernel/lglock.c, include/linux/lglock.h), that is br_write_lock() and
 * br_read_lock() across CPU hotplug, for spin.
 *
 * What is modelled, and where it is in the kernel code:
 *
 *   lock[c]          the per-CPU arch_spinlock_t of CPU c (lg->lock);
 *                    0 when free, else the holder's id (WRITER or a
 *                    reader's id), so that an unlock can assert that its
 *                    caller holds the lock
 *   online_lock      lg->online_lock, a spinlock
 *   lg_online[c]     lg->online, the CPUs the writer locks
 *   cpu_online[c]    cpu_online_mask: CPU c runs tasks (readers may run there)
 *   pinned[c]        tasks on CPU c with preemption disabled: they cannot
 *                    migrate, and CPU c cannot go offline under them
 *   proctype reader  br_read_lock() = __lg_local_lock(): preempt_disable()
 *                    on some online CPU c (pinned[c]++ in the same step as
 *                    the test of cpu_online[c]: a task runs only on an
 *                    online CPU, and once preemption is off it stays there),
 *                    then arch_spin_lock(lock[c]), which spins with
 *                    preemption off; the read-side critical section;
 *                    __lg_local_unlock(): arch_spin_unlock, preempt_enable()
 *   proctype writer  br_write_lock() = __lg_global_lock_online():
 *                    spin_lock(online_lock), then arch_spin_lock of every
 *                    CPU of lg->online in CPU order, each bit read then its
 *                    lock taken (two steps); the write-side critical
 *                    section; br_write_unlock() =
 *                    __lg_global_unlock_online(): arch_spin_unlock of every
 *                    CPU of lg->online, read again, then
 *                    spin_unlock(online_lock)
 *   proctype hotplug CPU HCPU coming up and going down, NHOTPLUG times:
 *                    lg_cpu_callback(CPU_UP_PREPARE) (under online_lock,
 *                    set the bit), then either CPU_UP_CANCELED (clear it)
 *                    or: the CPU goes online (cpu_online[HCPU] = 1, readers
 *                    may now run on it); later it goes offline once no
 *                    task is pinned to it (cpu_online[HCPU] = 0), and
 *                    lg_cpu_callback(CPU_DEAD) clears the bit under
 *                    online_lock
 *
 * Initial state: what __lg_lock_init() leaves with HCPU offline:
 * lg->online = cpu_online_mask = every CPU but HCPU.
 *
 * Abstracted away:
 *   - lockdep, sparse annotations, the notifier chain and its registration
 *     (lg_lock_init/lg_lock_free), CPU_TASKS_FROZEN, for_each_lg_online_cpu's
 *     bit search (a plain loop over CPU numbers here);
 *   - memory ordering: every step is sequentially consistent (spinlocks are
 *     full acquire/release in the kernel, and all the shared data here is
 *     read and written under them or by the hotplug sequence);
 *   - stop_machine: the model lets HCPU go offline while a writer holds the
 *     lock (the kernel's take_cpu_down() cannot run while the writer's CPU
 *     has preemption off); the protocol is checked without relying on it;
 *   - the writer's own CPU: it runs on CPU 0, which never goes offline, so
 *     it never pins HCPU (more interleavings, not fewer);
 *   - readers are not limited to one per CPU at a time, and
 *     lg_local_lock_cpu() and lg_global_lock() are not modelled (the brlock
 *     uses neither);
 *   - time: holds are one step; counts are bounded (NREADS, NWRITES,
 *     NHOTPLUG) so that every process ends and the state space is finite.
 *
 * Properties (pan, compiled with -DSAFETY):
 *   1. mutual exclusion: no reader and the writer inside their critical
 *      sections at once (assertions on rd_in and wr_in);
 *   2. lock discipline: every arch_spin_unlock is by the lock's holder, and
 *      after __lg_global_unlock_online the writer holds no per-CPU lock
 *      (assertions);
 *   3. no deadlock: spin's invalid end states; every loop is bounded, so a
 *      state in which all processes cannot move and one has not reached its
 *      end is a deadlock.
 *
 * Mutants, each one macro (spin -a -DMACRO lglock-online.pml), which spin
 * must reject:
 *   JOIN_AT_ONLINE      the notifier sets the bit at CPU_ONLINE, after the
 *                       CPU runs tasks: a writer that locked before it can
 *                       miss the CPU while a reader there is inside (1)
 *   UNLOCK_REREAD_MASK  the writer locks and unlocks the CPUs of the live
 *                       cpu_online_mask, which hotplug changes without
 *                       online_lock: the unlock skips a CPU the lock took
 *                       (2), and a later locker of that CPU spins forever
 *                       (3: pan -A, which ignores assertions, finds it)
 */

/* fixed: reader's choice of CPU and init name CPUs 0, 1 and 2 */
#define NCPU		3	/* CPUs 0..2; 0 and 1 always online */
#define HCPU		2	/* the one that hotplugs */
#define NREADERS	2
#define NREADS		2	/* read-side sections per reader */
#define NWRITES		2	/* write-side sections */
#define NHOTPLUG	2	/* up/down (or up-canceled) cycles of HCPU */
#define WRITER		1	/* lock[] holder id; readers are 2.. */

#ifdef UNLOCK_REREAD_MASK
#define WMASK		cpu_online	/* mutant: the live mask */
#else
#define WMASK		lg_online	/* lg->online */
#endif

byte lock[NCPU];
bit online_lock;
bit lg_online[NCPU];
bit cpu_online[NCPU];
byte pinned[NCPU];
byte rd_in;		/* readers inside their critical sections */
bit wr_in;		/* the writer inside its critical section */

inline spin_lock(l)
{
	atomic { l == 0 -> l = 1 }
}

inline spin_unlock(l)
{
	assert(l == 1);
	l = 0
}

inline arch_spin_lock(c, me)
{
	atomic { lock[c] == 0 -> lock[c] = me }
}

inline arch_spin_unlock(c, me)
{
	atomic { assert(lock[c] == me); lock[c] = 0 }
}

/* lg_cpu_callback(): CPU_UP_PREPARE (or, in the mutant, CPU_ONLINE) */
inline notifier_join()
{
	spin_lock(online_lock);
	lg_online[HCPU] = 1;
	spin_unlock(online_lock)
}

/* lg_cpu_callback(): CPU_UP_CANCELED or CPU_DEAD */
inline notifier_leave()
{
	spin_lock(online_lock);
	lg_online[HCPU] = 0;
	spin_unlock(online_lock)
}

proctype reader(byte me)
{
	byte i, c;

	do
	:: i < NREADS ->
		/* br_read_lock(): preempt_disable() on the CPU it runs on */
		if
		:: atomic { cpu_online[0] -> c = 0; pinned[0]++ }
		:: atomic { cpu_online[1] -> c = 1; pinned[1]++ }
		:: atomic { cpu_online[2] -> c = 2; pinned[2]++ }
		fi;
		arch_spin_lock(c, me);
		/* read-side critical section */
		rd_in++;
		assert(!wr_in);
		rd_in--;
		/* br_read_unlock() */
		arch_spin_unlock(c, me);
		pinned[c]--;
		i++
	:: else -> break
	od
}

proctype writer()
{
	byte i, c;

	do
	:: i < NWRITES ->
		/* br_write_lock() = __lg_global_lock_online() */
		spin_lock(online_lock);
		c = 0;
		do
		:: c < NCPU ->
			if
			:: WMASK[c] -> arch_spin_lock(c, WRITER)
			:: else -> skip
			fi;
			c++
		:: else -> break
		od;
		/* write-side critical section */
		wr_in = 1;
		assert(rd_in == 0);
		wr_in = 0;
		/* br_write_unlock() = __lg_global_unlock_online() */
		c = 0;
		do
		:: c < NCPU ->
			if
			:: WMASK[c] -> arch_spin_unlock(c, WRITER)
			:: else -> skip
			fi;
			c++
		:: else -> break
		od;
		/* it released exactly what it took */
		atomic {
			c = 0;
			do
			:: c < NCPU -> assert(lock[c] != WRITER); c++
			:: else -> break
			od
		};
		spin_unlock(online_lock);
		i++
	:: else -> break
	od
}

proctype hotplug()
{
	byte i;

	do
	:: i < NHOTPLUG ->
		/* cpu_up(): CPU_UP_PREPARE, before HCPU can run anything */
#ifndef JOIN_AT_ONLINE
		notifier_join();
#endif
		if
		:: notifier_leave()		/* CPU_UP_CANCELED */
		:: cpu_online[HCPU] = 1;	/* HCPU runs tasks now */
#ifdef JOIN_AT_ONLINE
			notifier_join();	/* mutant: at CPU_ONLINE */
#endif
			/* cpu_down(): HCPU stops running tasks, which it
			 * can only do once no task there has preemption
			 * off (its readers are out) */
			atomic { pinned[HCPU] == 0 -> cpu_online[HCPU] = 0 };
			notifier_leave()	/* CPU_DEAD */
		fi;
		i++
	:: else -> break
	od
}

init
{
	byte r;

	atomic {
		cpu_online[0] = 1; lg_online[0] = 1;
		cpu_online[1] = 1; lg_online[1] = 1;
		run writer();
		run hotplug();
		r = 0;
		do
		:: r < NREADERS -> run reader(WRITER + 1 + r); r++
		:: else -> break
		od
	}
}
