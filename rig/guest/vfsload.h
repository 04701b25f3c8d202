/*
 * vfsload: the load library of the rig's guest programs (vfstest, soak,
 * faultsweep, modcycle).
 * Helpers (CHECK, note, path), CPUs (pin, hotplug), mounts, shared memory,
 * and the loads: a remount loop against writers ("pools"), pty storms,
 * path walkers across a chain of mounts, a mount/umount writer.
 */
#ifndef VFSLOAD_H
#define VFSLOAD_H
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#ifndef MNT_DETACH
#define MNT_DETACH 2
#endif
#ifndef MNT_EXPIRE
#define MNT_EXPIRE 4
#endif
#ifndef MS_SHARED
#define MS_SHARED (1 << 20)
#define MS_SLAVE (1 << 19)
#define MS_PRIVATE (1 << 18)
#endif

/* a failed check: counted in failures, printed as a "# FAIL" line */
#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("# FAIL %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf(" (errno %d %s)\n", errno, strerror(errno));	\
		failures++;						\
	}								\
} while (0)

/*
 * Remount ro/rw loop against writers, on one filesystem (a "pool").  Each
 * writer w publishes state[w] = 1 from before open() until after close(),
 * holding[w] = 1 from open()'s return until close(), and bumps opened[w]
 * after every successful open for write; now and then it creates a new
 * file, counted in created[w].  The remounter reads all of that before and
 * after each remount,ro call: a success while some writer held one and the
 * same file open for the whole call is a bug, and so is an EBUSY when no
 * writer was busy at any time during the call.  The soak runs these too.
 */
#define MAXW 64

struct pool {
	char dir[256];
	volatile int stop;
	int pause_us;			/* remounter's pause between calls */
	volatile int state[MAXW];	/* 1 from before open to after close */
	volatile int holding[MAXW];	/* 1 from open's return to close */
	volatile long opened[MAXW];	/* successful opens for write */
	volatile long created[MAXW];	/* new files created */
	volatile long ops[MAXW], erofs[MAXW];
	volatile long remount_ok, remount_busy;
	/* fresh files whose create failed (faulty) and may exist anyway */
	volatile long uncertain[MAXW];
};

struct mstate {
	volatile int stop;
	volatile long lookups[64], ok[64], enoent[64];
};

/*
 * Fault injection (soak under faults): with faulty set, the loads take
 * ENOMEM and ENFILE, the answers of a failed allocation, for clean
 * failures where the marked workers call the kernel.
 */
extern int faulty;
#define NOMEM(e) (faulty && ((e) == ENOMEM || (e) == ENFILE))
#define DEBUGFS "/sys/kernel/debug/"

extern int failures;
extern char root[256];
extern int cpus[64], ncpus;
extern char chain_top[512];
extern struct mstate *ms;

void note(const char *fmt, ...);
char *path(const char *fmt, ...);
void read_cpus(void);
int pin(int cpu);
int cpu_online(int cpu, int on);
int hotplug_possible(int cpu);
int per_cpu(void (*fn)(int idx, int cpu));
int mnt_tmpfs(const char *where);
int remount(const char *where, int ro);
int count_mounts_under(const char *pfx);
void check_mountinfo(void);
void setup_root(void);
void teardown_root(void);
void *shm(size_t len);
double now(void);
int make_chain(int n);
void drop_chain(void);
struct pool *new_pool(const char *dir, int pause_us);
void pool_writer(struct pool *pl, int w);
void pool_remounter(struct pool *pl, int nw, double until);
long pool_sum(volatile long *v, int nw);
int count_files(const char *dir);
void pty_worker(int idx, int cpu);
void chain_walker(int idx, int cpu);
int umount_retry(const char *p);
void mount_writer(void);
int put_file(const char *path, const char *val);
/*
 * A whole file, NUL-terminated, in buf: its length, or -1 when it cannot
 * be read or does not fit (len - 1 bytes at most).
 */
ssize_t slurp(const char *path, char *buf, size_t len);
/* the number at the start of a file, or -1 */
long get_file(const char *path);
extern char klog[1 << 18];
const char *klog_take(void);
/*
 * Each of @words found in @log: the first line holding it, printed as
 * "# @who kernel: LINE"; how many of the words were found.
 */
int klog_complaints(const char *log, const char *const *words, const char *who);
/* one TAP line "ok N ..." or "not ok N ...", counted */
extern int tap_count, tap_failed;
void tap(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int failslab_flag_caches(void);
int make_it_fail(int on);
int kmemleak_report(const char *what);

#endif
