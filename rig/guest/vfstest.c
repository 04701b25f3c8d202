/*
 * vfstest: the in-guest VFS behaviour suite.  Each test checks behaviour a
 * correct kernel has, base or patched, so the rig runs it on both.
 *
 *   vfstest --list      names of all tests, in order
 *   vfstest NAME        run one; exit 0 pass, 1 fail, 4 skip
 *
 * Diagnostics go to stdout as "# " lines.  Runs as root in the rig's guest;
 * `make check` runs the subset marked host-safe inside a private mount
 * namespace (vfstest --host-safe).
 */
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

static int failures;
static char root[256] = "/tmp/vfstest";

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("# FAIL %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf(" (errno %d %s)\n", errno, strerror(errno));	\
		failures++;						\
	}								\
} while (0)

static void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

static char *path(const char *fmt, ...)
{
	static char buf[8][700];
	static int i;
	char rel[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", root, rel);
	return buf[i];
}

/* ---- CPUs ---- */

static int cpus[64], ncpus;

static void read_cpus(void)
{
	cpu_set_t set;
	int i;

	ncpus = 0;
	CPU_ZERO(&set);
	/* every online CPU: widen our mask first, it may have been pinned */
	for (i = 0; i < 64; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
	sched_getaffinity(0, sizeof(set), &set);
	for (i = 0; i < 64; i++)
		if (CPU_ISSET(i, &set))
			cpus[ncpus++] = i;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return sched_getcpu() == cpu ? 0 : -1;
}

static int cpu_online(int cpu, int on)
{
	char p[96];
	int fd, r;

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(p, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return r;
}

static int hotplug_possible(int cpu)
{
	char p[96];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return access(p, W_OK) == 0;
}

/* Fork one child per online CPU, pinned there, running fn(idx, cpu). */
static int per_cpu(void (*fn)(int idx, int cpu))
{
	int i, bad = 0, st;

	for (i = 0; i < ncpus; i++) {
		if (fork() == 0) {
			failures = 0;
			if (pin(cpus[i]))
				_exit(2);
			fn(i, cpus[i]);
			fflush(stdout);
			_exit(failures ? 1 : 0);
		}
	}
	for (i = 0; i < ncpus; i++) {
		wait(&st);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	CHECK(bad == 0, "%d of %d per-cpu workers failed", bad, ncpus);
	return bad;
}

/* ---- mounts ---- */

static int mnt_tmpfs(const char *where)
{
	mkdir(where, 0755);
	return mount("tmpfs", where, "tmpfs", 0, "size=64m");
}

static int remount(const char *where, int ro)
{
	return mount("none", where, NULL, MS_REMOUNT | (ro ? MS_RDONLY : 0),
		     NULL);
}

static int count_mounts_under(const char *pfx)
{
	char line[1024], dev[256], mp[512];
	FILE *f = fopen("/proc/self/mounts", "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %511s", dev, mp) == 2 &&
		    !strncmp(mp, pfx, strlen(pfx)))
			n++;
	fclose(f);
	return n;
}

/*
 * /proc/self/mountinfo is consistent: each mount id once, each parent id
 * names a mount in the table (or the namespace root's parent).
 */
static void check_mountinfo(void)
{
	static int ids[8192], parents[8192];
	char line[2048];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int n = 0, i, j, orphans = 0, dups = 0;

	CHECK(f, "open mountinfo");
	if (!f)
		return;
	while (n < 8192 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %d", &ids[n], &parents[n]) == 2)
			n++;
	fclose(f);
	for (i = 0; i < n; i++) {
		int found = 0;

		for (j = 0; j < n; j++) {
			if (j != i && ids[j] == ids[i])
				dups++;
			if (ids[j] == parents[i])
				found = 1;
		}
		if (!found)
			orphans++;
	}
	CHECK(dups == 0, "%d duplicate mount ids in mountinfo", dups);
	/* only the namespace root has a parent outside the table */
	CHECK(orphans <= 1, "%d mounts whose parent is not in mountinfo",
	      orphans);
}

static void setup_root(void)
{
	mkdir(root, 0755);
	/* our own tmpfs, so make check on a host never touches the host's */
	if (mnt_tmpfs(root))
		note("mount tmpfs at %s: %s", root, strerror(errno));
	mount("none", root, NULL, MS_PRIVATE, NULL);
}

static void teardown_root(void)
{
	while (umount2(root, MNT_DETACH) == 0)
		;
}

/* ---- shared memory for workers ---- */

static void *shm(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("# FAIL mmap of %zu shared bytes\n", len);
		exit(1);
	}
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* =================== base suite =================== */

static void t_mount_tmpfs(void)
{
	char buf[16] = "";
	int fd;

	CHECK(mnt_tmpfs(path("m")) == 0, "mount tmpfs");
	fd = open(path("m/f"), O_CREAT | O_RDWR, 0644);
	CHECK(fd >= 0, "create");
	CHECK(write(fd, "hello", 5) == 5, "write");
	CHECK(pread(fd, buf, 5, 0) == 5 && !memcmp(buf, "hello", 5), "read");
	close(fd);
	CHECK(umount(path("m")) == 0, "umount");
	CHECK(access(path("m/f"), F_OK) < 0 && errno == ENOENT,
	      "file gone after umount");
}

static void occ_worker(int idx, int cpu)
{
	char p[512];
	int i, fd;

	snprintf(p, sizeof(p), "%s/m/f%d", root, idx);
	for (i = 0; i < 20000; i++) {
		fd = open(p, O_CREAT | ((i & 1) ? O_RDONLY : O_RDWR), 0644);
		if (fd < 0) {
			CHECK(0, "cpu %d: open", cpu);
			return;
		}
		CHECK(sched_getcpu() == cpu, "migrated off cpu %d", cpu);
		close(fd);
	}
}

/* open/close on every CPU, then remount ro succeeds: nothing left listed */
static void t_open_close_every_cpu(void)
{
	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	per_cpu(occ_worker);
	CHECK(remount(path("m"), 1) == 0, "remount ro after storm");
	CHECK(remount(path("m"), 0) == 0, "remount rw");
	CHECK(umount(path("m")) == 0, "umount");
}

static void t_remount_ro_busy(void)
{
	int fd, rd;

	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	fd = open(path("m/w"), O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "open for write");
	rd = open(path("m/r"), O_CREAT | O_RDONLY, 0644);
	CHECK(rd >= 0, "open for read");
	CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
	      "remount ro with a writer must fail EBUSY");
	close(fd);
	CHECK(remount(path("m"), 1) == 0,
	      "remount ro with only a reader open");
	CHECK(open(path("m/w"), O_WRONLY) < 0 && errno == EROFS,
	      "open for write on ro");
	CHECK(remount(path("m"), 0) == 0, "remount rw");
	close(rd);
	/* an unlinked file still open blocks it too */
	fd = open(path("m/u"), O_CREAT | O_RDONLY, 0644);
	unlink(path("m/u"));
	CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
	      "remount ro with an unlinked open file must fail EBUSY");
	close(fd);
	CHECK(remount(path("m"), 1) == 0, "remount ro after last close");
	CHECK(umount(path("m")) == 0, "umount");
}

static void t_bind_stat(void)
{
	struct stat a, b;
	int fd;

	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	mkdir(path("m/src"), 0755);
	mkdir(path("bind"), 0755);
	fd = open(path("m/src/f"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	CHECK(mount(path("m/src"), path("bind"), NULL, MS_BIND, NULL) == 0,
	      "bind");
	CHECK(stat(path("m/src/f"), &a) == 0, "stat src");
	CHECK(stat(path("bind/f"), &b) == 0, "stat across bind");
	CHECK(a.st_dev == b.st_dev && a.st_ino == b.st_ino, "same inode");
	CHECK(umount(path("m")) == 0, "umount the bind's source mount");
	CHECK(stat(path("bind/f"), &b) == 0 && b.st_ino == a.st_ino,
	      "bind still reaches the file");
	CHECK(umount(path("bind")) == 0, "umount bind");
}

/* A chain of n tmpfs mounts, each on a directory of the one before. */
static char chain_top[512];

static int make_chain(int n)
{
	char p[512];
	int i;

	snprintf(p, sizeof(p), "%s/c", root);
	for (i = 0; i < n; i++) {
		if (mnt_tmpfs(p))
			return -1;
		strcat(p, "/d");
	}
	mkdir(p, 0755);
	strcpy(chain_top, p);
	strcat(p, "/file");
	close(open(p, O_CREAT | O_WRONLY, 0644));
	return 0;
}

static void drop_chain(void)
{
	CHECK(umount2(path("c"), MNT_DETACH) == 0, "detach chain");
}

static void t_getcwd_mount(void)
{
	char cwd[1024], old[1024];

	CHECK(make_chain(8) == 0, "chain of 8 mounts");
	getcwd(old, sizeof(old));
	CHECK(chdir(chain_top) == 0, "chdir into chain");
	CHECK(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, chain_top),
	      "getcwd '%s' != '%s'", cwd, chain_top);
	chdir(old);
	drop_chain();
}

/* =================== files (issue: files_lock goes) =================== */

static int need_cpus(int n)
{
	if (ncpus < n) {
		note("needs %d cpus, have %d", n, ncpus);
		exit(4);
	}
	return 0;
}

static void t_remount_migrate(void)
{
	int fd;

	need_cpus(2);
	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	CHECK(pin(cpus[0]) == 0, "pin cpu %d", cpus[0]);
	fd = open(path("m/w"), O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "open for write on cpu %d", cpus[0]);
	CHECK(pin(cpus[1]) == 0, "migrate to cpu %d", cpus[1]);
	CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
	      "remount ro from another cpu must see the writer");
	close(fd);
	CHECK(remount(path("m"), 1) == 0, "remount ro after migrated close");
	CHECK(umount(path("m")) == 0, "umount");
}

static void t_remount_offline(void)
{
	int fd, victim;

	need_cpus(2);
	victim = cpus[ncpus - 1];
	if (!hotplug_possible(victim)) {
		note("cpu %d cannot be taken offline", victim);
		exit(4);
	}
	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	CHECK(pin(victim) == 0, "pin cpu %d", victim);
	fd = open(path("m/w"), O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "open for write on cpu %d", victim);
	CHECK(pin(cpus[0]) == 0, "pin cpu %d", cpus[0]);
	CHECK(cpu_online(victim, 0) == 0, "offline cpu %d", victim);
	CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
	      "writer listed on an offline cpu must block remount ro");
	close(fd);
	CHECK(remount(path("m"), 1) == 0,
	      "remount ro after closing, from cpu %d, the file of offline cpu %d",
	      cpus[0], victim);
	CHECK(cpu_online(victim, 1) == 0, "online cpu %d", victim);
	CHECK(remount(path("m"), 0) == 0, "remount rw");
	CHECK(umount(path("m")) == 0, "umount");
}

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
};

static struct pool *new_pool(const char *dir, int pause_us)
{
	struct pool *pl = shm(sizeof(*pl));

	snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
	pl->pause_us = pause_us;
	return pl;
}

/*
 * Mostly the same file, written each time; a new file every 64th time,
 * left empty, so that no soak, however long, fills the filesystem: rc1's
 * tmpfs, once full, ends up a block over its limit and then refuses every
 * remount with EINVAL (measured on the base kernel too).
 */
static void pool_writer(struct pool *pl, int w)
{
	char p[400];
	int fd, i, fresh;

	while (!pl->stop) {
		fresh = (pl->ops[w] & 63) == 0;
		if (fresh)
			snprintf(p, sizeof(p), "%s/f%d.%ld", pl->dir, w,
				 pl->created[w]);
		else
			snprintf(p, sizeof(p), "%s/w%d", pl->dir, w);
		pl->state[w] = 1;
		__sync_synchronize();
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 && errno == EEXIST)
			fd = open(p, O_WRONLY);
		if (fd >= 0) {
			if (fresh)
				pl->created[w]++;
			pl->opened[w]++;
			pl->holding[w] = 1;
			__sync_synchronize();
			CHECK(fresh || write(fd, "soak\n", 5) == 5,
			      "write %s", p);
			for (i = 0; i < 100; i++)
				__asm__ volatile("" ::: "memory");
			pl->holding[w] = 0;
			__sync_synchronize();
			close(fd);
		} else {
			/* read-only now, or (ext2) out of inodes */
			CHECK(errno == EROFS || errno == ENOSPC,
			      "writer open %s", p);
			/*
			 * O_CREAT may have created the file and then failed
			 * to open it for write, the superblock having gone
			 * read-only in between: it counts as created.
			 */
			if (fresh && access(p, F_OK) == 0)
				pl->created[w]++;
			pl->erofs[w]++;
		}
		__sync_synchronize();
		pl->state[w] = 0;
		pl->ops[w]++;
		/* readers too: they never block a remount */
		fd = open(p, O_RDONLY);
		if (fd >= 0)
			close(fd);
		if ((pl->ops[w] & 15) == 0)
			usleep(200);
		if (failures > 5)
			return;
	}
}

/*
 * Remount ro/rw in a loop until pl->stop, or until the time "until" if it
 * is not 0; each result against the writers' states.
 */
static void pool_remounter(struct pool *pl, int nw, double until)
{
	int i;

	while (!pl->stop && (!until || now() < until)) {
		int bs[MAXW], bh[MAXW], held = 0, any = 0, r, e;
		long bo[MAXW];

		for (i = 0; i < nw; i++) {
			bs[i] = pl->state[i];
			bh[i] = pl->holding[i];
			bo[i] = pl->opened[i];
		}
		__sync_synchronize();
		r = remount(pl->dir, 1);
		e = errno;
		__sync_synchronize();
		for (i = 0; i < nw; i++) {
			if (bs[i] || pl->state[i] || bo[i] != pl->opened[i])
				any = 1;
			/* one and the same open file for write, all along */
			if (bh[i] && pl->holding[i] && bo[i] == pl->opened[i])
				held++;
		}
		if (r == 0) {
			pl->remount_ok++;
			CHECK(!held, "remount ro of %s succeeded while %d writers held files open",
			      pl->dir, held);
			usleep(300);
			CHECK(remount(pl->dir, 0) == 0, "remount rw %s", pl->dir);
		} else {
			CHECK(e == EBUSY, "remount ro %s: errno %d", pl->dir, e);
			CHECK(any, "EBUSY on %s with no writer busy", pl->dir);
			pl->remount_busy++;
		}
		if (pl->pause_us)
			usleep(pl->pause_us);
		if (failures > 5)
			return;
	}
}

/* the sum of a per-writer counter over nw writers */
static long pool_sum(volatile long *v, int nw)
{
	long n = 0;
	int i;

	for (i = 0; i < nw; i++)
		n += v[i];
	return n;
}

/* Files whose names start with 'f' in dir: the ones pool_writer created. */
static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] == 'f')
			n++;
	closedir(d);
	return n;
}

static void t_remount_loop_writers(void)
{
	struct pool *pl;
	int nw, i, st, found;
	long created;
	pid_t pids[MAXW];

	need_cpus(2);
	pl = new_pool(path("m"), 0);
	CHECK(mnt_tmpfs(pl->dir) == 0, "mount");
	nw = ncpus - 1 < MAXW ? ncpus - 1 : MAXW;
	for (i = 0; i < nw; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			failures = 0;
			pin(cpus[i + 1]);
			pool_writer(pl, i);
			_exit(failures ? 1 : 0);
		}
	}
	pin(cpus[0]);
	pool_remounter(pl, nw, now() + 8);
	pl->stop = 1;
	for (i = 0; i < nw; i++) {
		waitpid(pids[i], &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d", i);
	}
	note("%ld remount ro ok, %ld EBUSY; writers %ld ops, %ld EROFS",
	     pl->remount_ok, pl->remount_busy, pool_sum(pl->ops, nw),
	     pool_sum(pl->erofs, nw));
	CHECK(pl->remount_ok > 0, "no remount ro succeeded in 8 s");
	CHECK(remount(pl->dir, 1) == 0, "final remount ro with no writers");
	created = pool_sum(pl->created, nw);
	found = count_files(pl->dir);
	CHECK(found == created, "%ld files created, %d found", created, found);
	CHECK(umount(pl->dir) == 0, "umount");
}

/*
 * The precise case of the loop above: a writer that is known to hold its
 * file open across the whole remount call must make it fail.
 */
static void t_remount_held_writers(void)
{
	int i, fd[64];

	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	for (i = 0; i < ncpus; i++) {
		pin(cpus[i]);
		fd[i] = open(path("m/h%d", i), O_CREAT | O_WRONLY, 0644);
		CHECK(fd[i] >= 0, "open on cpu %d", cpus[i]);
	}
	for (i = 0; i < ncpus; i++) {
		pin(cpus[(i + 1) % ncpus]);
		CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
		      "remount ro with %d writers still open", ncpus - i);
		close(fd[i]);
	}
	CHECK(remount(path("m"), 1) == 0, "remount ro after all closed");
	CHECK(umount(path("m")) == 0, "umount");
}

static void pty_worker(int idx, int cpu)
{
	int i, m, s;
	char name[64];

	(void)idx;
	for (i = 0; i < 300; i++) {
		m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
		if (m < 0) {
			CHECK(0, "cpu %d: open ptmx", cpu);
			return;
		}
		int unlock = 0;

		ioctl(m, 0x40045431 /* TIOCSPTLCK */, &unlock);
		if (ptsname_r(m, name, sizeof(name))) {
			CHECK(0, "ptsname");
			close(m);
			return;
		}
		s = open(name, O_RDWR | O_NOCTTY);
		CHECK(s >= 0, "open slave %s", name);
		if (i % 3 == 0) {
			/* hang up: close the master with the slave open */
			close(m);
			char c;

			CHECK(read(s, &c, 1) <= 0, "read after hangup");
			close(s);
		} else if (i % 3 == 1) {
			CHECK(write(m, "x\n", 2) == 2, "write master");
			close(s);
			close(m);
		} else {
			/* slave as controlling tty, then vhangup() */
			pid_t p = fork();

			if (p == 0) {
				setsid();
				/* the hangup signals us, the session leader */
				signal(SIGHUP, SIG_IGN);
				int cs = open(name, O_RDWR);

				if (cs < 0)
					_exit(10 + errno);
				if (syscall(SYS_vhangup))
					_exit(100 + errno);
				_exit(0);
			}
			int st;

			waitpid(p, &st, 0);
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "vhangup child status %d", st);
			close(s);
			close(m);
		}
	}
}

static void t_pty_storm(void)
{
	if (access("/dev/ptmx", R_OK | W_OK)) {
		note("no /dev/ptmx");
		exit(4);
	}
	per_cpu(pty_worker);
}

/* =================== mounts (issue: vfsmount_lock brlock) ============ */

struct mstate {
	volatile int stop;
	volatile long lookups[64], ok[64], enoent[64];
};
static struct mstate *ms;

static void chain_walker(int idx, int cpu)
{
	char p[600], cwd[1024];
	struct stat st;

	(void)cpu;
	snprintf(p, sizeof(p), "%s/file", chain_top);
	while (!ms->stop) {
		ms->lookups[idx]++;
		if (stat(p, &st) == 0)
			ms->ok[idx]++;
		else
			CHECK(0, "stat across chain");
		int fd = open(p, O_RDONLY);

		CHECK(fd >= 0, "open across chain");
		if (fd >= 0)
			close(fd);
		if (chdir(chain_top) == 0) {
			CHECK(getcwd(cwd, sizeof(cwd)) &&
			      !strcmp(cwd, chain_top), "getcwd in chain");
			chdir("/");
		}
		/* the churned side mounts may or may not be there */
		if (stat(path("c/side/s/x"), &st) && errno != ENOENT)
			CHECK(0, "side lookup");
		if (stat(path("c/peer/s/x"), &st) && errno != ENOENT)
			CHECK(0, "peer lookup");
		if (failures > 5)
			return;
	}
}

/* umount that waits out walkers' transient references (EBUSY) */
static int umount_retry(const char *p)
{
	int i;

	for (i = 0; i < 2000; i++) {
		if (umount(p) == 0)
			return 0;
		if (errno != EBUSY)
			return -1;
		usleep(500);
	}
	return -1;
}

static void mount_writer(void)
{
	int i;
	char side[700], peer[700];

	strcpy(side, path("c/side"));
	strcpy(peer, path("c/peer"));

	mkdir(side, 0755);
	mkdir(peer, 0755);
	mkdir(path("c/mvsrc"), 0755);
	mkdir(path("c/mvdst"), 0755);
	for (i = 0; !ms->stop; i++) {
		CHECK(mnt_tmpfs(side) == 0, "mount side");
		CHECK(mount("none", side, NULL, MS_SHARED, NULL) == 0,
		      "make shared");
		mkdir(path("c/side/s"), 0755);
		/* peer is a bind of shared side, then its slave */
		CHECK(mount(side, peer, NULL, MS_BIND, NULL) == 0, "bind");
		CHECK(mount("none", peer, NULL, MS_SLAVE, NULL) == 0,
		      "make slave");
		/* propagates from side to its slave */
		CHECK(mnt_tmpfs(path("c/side/s")) == 0, "mount under shared");
		close(open(path("c/side/s/x"), O_CREAT | O_WRONLY, 0644));
		CHECK(access(path("c/peer/s/x"), F_OK) == 0,
		      "mount propagated to slave");
		CHECK(mnt_tmpfs(path("c/mvsrc")) == 0, "mount to move");
		CHECK(mount(path("c/mvsrc"), path("c/mvdst"), NULL, MS_MOVE,
			    NULL) == 0, "move");
		if (i & 1) {
			CHECK(umount2(side, MNT_DETACH) == 0, "lazy umount");
			CHECK(umount2(peer, MNT_DETACH) == 0, "lazy umount");
			CHECK(umount2(path("c/mvdst"), MNT_DETACH) == 0,
			      "lazy umount");
		} else {
			CHECK(umount_retry(path("c/peer/s")) == 0, "umount slave copy");
			CHECK(umount_retry(path("c/side/s")) == 0, "umount");
			CHECK(umount_retry(peer) == 0, "umount peer");
			CHECK(umount_retry(side) == 0, "umount side");
			CHECK(umount_retry(path("c/mvdst")) == 0, "umount moved");
		}
		if (failures > 5)
			return;
	}
	ms->lookups[63] = i;
}

static void t_mount_walkers(void)
{
	int i, st;
	pid_t pids[64], w;
	long total = 0;

	ms = shm(sizeof(*ms));
	CHECK(make_chain(8) == 0, "chain of 8 mounts");
	for (i = 0; i < ncpus; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			failures = 0;
			pin(cpus[i]);
			chain_walker(i, cpus[i]);
			_exit(failures ? 1 : 0);
		}
	}
	w = fork();
	if (w == 0) {
		failures = 0;
		pin(cpus[0]);
		mount_writer();
		_exit(failures ? 1 : 0);
	}
	sleep(8);
	ms->stop = 1;
	for (i = 0; i < ncpus; i++) {
		waitpid(pids[i], &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "walker %d", i);
		total += ms->lookups[i];
	}
	waitpid(w, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "mount writer");
	note("%ld walks by %d walkers, %ld mount cycles", total, ncpus,
	     ms->lookups[63]);
	check_mountinfo();
	drop_chain();
	CHECK(count_mounts_under(path("c")) == 0, "everything unmounted");
}

static void t_unshare_copy(void)
{
	int i, st, n;
	pid_t churn, cp;

	ms = shm(sizeof(*ms));
	CHECK(mnt_tmpfs(path("u")) == 0, "mount");
	for (i = 0; i < 100; i++)
		CHECK(mnt_tmpfs(path("u/%d", i)) == 0, "mount %d", i);
	churn = fork();
	if (churn == 0) {
		failures = 0;
		pin(cpus[0]);
		mkdir(path("u/churn"), 0755);
		while (!ms->stop) {
			CHECK(mnt_tmpfs(path("u/churn")) == 0, "churn mount");
			CHECK(umount(path("u/churn")) == 0, "churn umount");
		}
		_exit(failures ? 1 : 0);
	}
	for (i = 0; i < 40; i++) {
		cp = fork();
		if (cp == 0) {
			pin(cpus[ncpus - 1]);
			if (unshare(CLONE_NEWNS))
				_exit(2);
			n = count_mounts_under(path("u/"));
			_exit(n >= 100 ? 0 : 3);
		}
		waitpid(cp, &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "unshare copy %d: status %d", i, st);
	}
	ms->stop = 1;
	waitpid(churn, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "churn");
	CHECK(umount2(path("u"), MNT_DETACH) == 0, "detach");
	CHECK(count_mounts_under(path("u")) == 0, "all gone");
}

static void t_umount_busy(void)
{
	int fd, pfd[2], st;
	char buf[8];
	pid_t p;

	CHECK(mnt_tmpfs(path("b")) == 0, "mount");
	fd = open(path("b/f"), O_CREAT | O_RDWR, 0644);
	CHECK(write(fd, "data", 4) == 4, "write");
	CHECK(umount(path("b")) < 0 && errno == EBUSY, "busy umount EBUSY");
	pipe(pfd);
	p = fork();
	if (p == 0) {
		/* the busy user: cwd inside, keeps working after detach */
		close(pfd[1]);
		chdir(path("b"));
		read(pfd[0], buf, 1);
		int f2 = open("f", O_RDONLY);

		_exit(f2 >= 0 && read(f2, buf, 4) == 4 &&
		      !memcmp(buf, "data", 4) ? 0 : 1);
	}
	close(pfd[0]);
	usleep(100000);
	CHECK(umount2(path("b"), MNT_DETACH) == 0, "lazy umount of busy mount");
	CHECK(count_mounts_under(path("b")) == 0, "gone from mounts");
	CHECK(pwrite(fd, "more", 4, 4) == 4, "old fd still writes");
	write(pfd[1], "g", 1);
	waitpid(p, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "busy user worked after detach");
	close(fd);
	/* MNT_EXPIRE: first call marks (EAGAIN), second expires */
	CHECK(mnt_tmpfs(path("e")) == 0, "mount");
	CHECK(umount2(path("e"), MNT_EXPIRE) < 0 && errno == EAGAIN,
	      "first expire EAGAIN");
	CHECK(umount2(path("e"), MNT_EXPIRE) == 0, "second expire unmounts");
	CHECK(mnt_tmpfs(path("e")) == 0, "mount");
	fd = open(path("e/f"), O_CREAT | O_RDWR, 0644);
	CHECK(umount2(path("e"), MNT_EXPIRE) < 0 && errno == EBUSY,
	      "expire on busy EBUSY");
	close(fd);
	CHECK(umount(path("e")) == 0, "umount");
}

/* =================== the kernel's own lglock self-test ============ */

/* CONFIG_LGLOCK_SELFTEST prints one line at boot; absent = skip. */
static void t_lglock_selftest(void)
{
	static char buf[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	char *p;

	CHECK(n >= 0, "klogctl");
	if (n < 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "lglock-selftest: ");
	if (!p) {
		note("no lglock-selftest line (option off or not in this kernel)");
		exit(4);
	}
	*strchrnul(p, '\n') = '\0';
	note("%s", p);
	CHECK(!strncmp(p, "lglock-selftest: PASS", 21), "self-test failed");
	CHECK(!strstr(p + 1, "lglock-selftest: FAIL"), "self-test failed");
}

/* =================== the table =================== */

struct test {
	const char *name;
	void (*fn)(void);
	int host_safe;	/* runs under make check in a private mount ns */
};

static const struct test tests[] = {
	{ "lglock_selftest", t_lglock_selftest, 0 },
	{ "mount_tmpfs", t_mount_tmpfs, 1 },
	{ "open_close_every_cpu", t_open_close_every_cpu, 1 },
	{ "remount_ro_busy", t_remount_ro_busy, 1 },
	{ "bind_stat", t_bind_stat, 1 },
	{ "getcwd_mount", t_getcwd_mount, 1 },
	{ "remount_migrate", t_remount_migrate, 1 },
	{ "remount_held_writers", t_remount_held_writers, 1 },
	{ "remount_loop_writers", t_remount_loop_writers, 1 },
	{ "remount_offline", t_remount_offline, 0 },
	{ "pty_storm", t_pty_storm, 0 },
	{ "mount_walkers", t_mount_walkers, 1 },
	{ "unshare_copy", t_unshare_copy, 1 },
	{ "umount_busy", t_umount_busy, 1 },
};

#define NTESTS (int)(sizeof(tests) / sizeof(tests[0]))

int main(int argc, char **argv)
{
	int i, host = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NTESTS; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--host-safe")) {
		host = 1;
		if (argc == 3)
			snprintf(root, sizeof(root), "%s", argv[2]);
	} else if (argc != 2) {
		fprintf(stderr, "usage: vfstest --list | NAME | --host-safe [DIR]\n");
		return 2;
	}
	read_cpus();
	if (host) {
		/* make check: each host-safe test in order, TAP, own tmpfs */
		int n = 0, bad = 0, st;

		for (i = 0; i < NTESTS; i++)
			n += tests[i].host_safe;
		printf("TAP version 13\n1..%d\n", n);
		n = 0;
		for (i = 0; i < NTESTS; i++) {
			if (!tests[i].host_safe)
				continue;
			n++;
			if (fork() == 0) {
				setup_root();
				tests[i].fn();
				teardown_root();
				_exit(failures ? 1 : 0);
			}
			wait(&st);
			if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
				printf("ok %d %s # SKIP\n", n, tests[i].name);
			else if (WIFEXITED(st) && !WEXITSTATUS(st))
				printf("ok %d %s\n", n, tests[i].name);
			else {
				printf("not ok %d %s\n", n, tests[i].name);
				bad++;
			}
		}
		return bad ? 1 : 0;
	}
	for (i = 0; i < NTESTS; i++) {
		if (strcmp(argv[1], tests[i].name))
			continue;
		setup_root();
		tests[i].fn();
		teardown_root();
		return failures ? 1 : 0;
	}
	fprintf(stderr, "vfstest: no test '%s'\n", argv[1]);
	return 2;
}
