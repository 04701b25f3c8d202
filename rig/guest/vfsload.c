/* vfsload: see vfsload.h */
#include "vfsload.h"
int failures;
int faulty;
char root[256] = "/tmp/vfstest";


void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

char *path(const char *fmt, ...)
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

int cpus[64], ncpus;

void read_cpus(void)
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

int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return sched_getcpu() == cpu ? 0 : -1;
}

int cpu_online(int cpu, int on)
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

int hotplug_possible(int cpu)
{
	char p[96];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return access(p, W_OK) == 0;
}

/* Fork one child per online CPU, pinned there, running fn(idx, cpu). */
int per_cpu(void (*fn)(int idx, int cpu))
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

int mnt_tmpfs(const char *where)
{
	mkdir(where, 0755);
	return mount("tmpfs", where, "tmpfs", 0, "size=64m");
}

int remount(const char *where, int ro)
{
	return mount("none", where, NULL, MS_REMOUNT | (ro ? MS_RDONLY : 0),
		     NULL);
}

int count_mounts_under(const char *pfx)
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
void check_mountinfo(void)
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

void setup_root(void)
{
	mkdir(root, 0755);
	/* our own tmpfs, so make check on a host never touches the host's */
	if (mnt_tmpfs(root))
		note("mount tmpfs at %s: %s", root, strerror(errno));
	mount("none", root, NULL, MS_PRIVATE, NULL);
}

void teardown_root(void)
{
	while (umount2(root, MNT_DETACH) == 0)
		;
}

/* ---- shared memory for workers ---- */

void *shm(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("# FAIL mmap of %zu shared bytes\n", len);
		exit(1);
	}
	return p;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A chain of n tmpfs mounts, each on a directory of the one before. */
char chain_top[512];

int make_chain(int n)
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

void drop_chain(void)
{
	CHECK(umount2(path("c"), MNT_DETACH) == 0, "detach chain");
}


struct pool *new_pool(const char *dir, int pause_us)
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
void pool_writer(struct pool *pl, int w)
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
			CHECK(fresh || write(fd, "soak\n", 5) == 5 ||
			      NOMEM(errno), "write %s", p);
			for (i = 0; i < 100; i++)
				__asm__ volatile("" ::: "memory");
			pl->holding[w] = 0;
			__sync_synchronize();
			close(fd);
		} else {
			int e = errno;

			/* read-only now, or (ext2) out of inodes */
			CHECK(e == EROFS || e == ENOSPC || NOMEM(e),
			      "writer open %s", p);
			/*
			 * O_CREAT may have created the file and then failed
			 * to open it for write, the superblock having gone
			 * read-only in between (or an allocation having
			 * failed): it counts as created.  Under faults the
			 * check itself may fail: the file may exist.
			 */
			if (fresh && access(p, F_OK) == 0)
				pl->created[w]++;
			else if (fresh && errno != ENOENT)
				pl->uncertain[w]++;
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
void pool_remounter(struct pool *pl, int nw, double until)
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
long pool_sum(volatile long *v, int nw)
{
	long n = 0;
	int i;

	for (i = 0; i < nw; i++)
		n += v[i];
	return n;
}

/* Files whose names start with 'f' in dir: the ones pool_writer created. */
int count_files(const char *dir)
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

/*
 * open() with this task marked for fault injection for that call only,
 * when faulty: rc1's own tty close and hangup paths BUG on a failed
 * allocation (tty_ldisc_reinit), so the pty loads fail their opens, where
 * the series allocates, as faultsweep's pty ops do.  The mark's file is
 * opened before marking (make_it_fail() would open it marked, and could
 * fail to unmark) and closed after unmarking.
 */
static int open_marked(const char *name, int flags)
{
	int mark, fd, err;

	if (!faulty)
		return open(name, flags);
	mark = open("/proc/self/make-it-fail", O_WRONLY);
	if (mark < 0 || write(mark, "1", 1) != 1) {
		CHECK(0, "mark for fault injection");
		if (mark >= 0)
			close(mark);
		errno = EIO;
		return -1;
	}
	fd = open(name, flags);
	err = errno;
	CHECK(write(mark, "0", 1) == 1, "unmark");
	close(mark);
	errno = err;
	return fd;
}

void pty_worker(int idx, int cpu)
{
	int i, m, s;
	char name[64];

	(void)idx;
	for (i = 0; i < 300; i++) {
		m = open_marked("/dev/ptmx", O_RDWR | O_NOCTTY);
		if (m < 0) {
			CHECK(NOMEM(errno), "cpu %d: open ptmx", cpu);
			return;
		}
		int unlock = 0;

		ioctl(m, 0x40045431 /* TIOCSPTLCK */, &unlock);
		if (ptsname_r(m, name, sizeof(name))) {
			CHECK(0, "ptsname");
			close(m);
			return;
		}
		s = open_marked(name, O_RDWR | O_NOCTTY);
		CHECK(s >= 0 || NOMEM(errno), "open slave %s", name);
		if (s < 0) {
			close(m);
			continue;
		}
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
				int cs = open_marked(name, O_RDWR);

				if (cs < 0)
					_exit(10 + errno);
				if (syscall(SYS_vhangup))
					_exit(100 + errno);
				_exit(0);
			}
			int st;

			waitpid(p, &st, 0);
			CHECK(WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
			      NOMEM(WEXITSTATUS(st) - 10) ||
			      NOMEM(WEXITSTATUS(st) - 100)),
			      "vhangup child status %d", st);
			close(s);
			close(m);
		}
	}
}

struct mstate *ms;

void chain_walker(int idx, int cpu)
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
int umount_retry(const char *p)
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

void mount_writer(void)
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

/* The kernel log since the last call (read and cleared), in klog. */
char klog[1 << 18];

const char *klog_take(void)
{
	int n = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, klog,
			sizeof(klog) - 1);

	klog[n > 0 ? n : 0] = '\0';
	return klog;
}

/* Write val to a (sysfs, debugfs, proc) file; 0 when it all went. */
int put_file(const char *p, const char *val)
{
	int fd = open(p, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * failslab, with its cache-filter on, fails only the slab caches flagged
 * here: all but those of the checkers themselves (kmemleak and debug
 * objects turn themselves off when their own allocation fails).  The
 * number of caches flagged, or -1.
 */
int failslab_flag_caches(void)
{
	static const char *const spared[] = {
		"kmemleak_object", "kmemleak_scan_area", "debug_objects_cache",
		NULL
	};
	char p[300];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)) != NULL) {
		const char *const *s;
		int spare = d->d_name[0] == '.';

		for (s = spared; *s; s++)
			spare |= !strcmp(d->d_name, *s);
		snprintf(p, sizeof(p), "/sys/kernel/slab/%s/failslab",
			 d->d_name);
		if (!spare && !put_file(p, "1"))
			n++;
	}
	closedir(dir);
	return n > 0 && !put_file(DEBUGFS "failslab/cache-filter", "Y") ?
		n : -1;
}

/* Mark (or unmark) this task for fault injection; children inherit it. */
int make_it_fail(int on)
{
	return put_file("/proc/self/make-it-fail", on ? "1" : "0");
}

/*
 * kmemleak's unreferenced objects now, one "LEAK <what> site=FUNCTION
 * size=BYTES" line each (the first frame of the allocation's stack that
 * is not the allocator), then forgotten ("clear").  Scans twice, as
 * kmemleak advises, after 6 s: it does not report objects younger than
 * 5 s.  The whole report is read, however long (a sweep of ptmx leaves
 * hundreds of objects, about 1 KiB of report each: a fixed 256 KiB buffer
 * once cut it off after ~246 objects, and the count and the sites were
 * those of the first ones only).  The number of objects, -1 without
 * kmemleak, -2 when it does not scan or its report cannot be read whole.
 */
int kmemleak_report(const char *what)
{
	static const char *const skip[] = {
		"kmemleak_", "create_object", "kmem_cache_", "__kmalloc",
		"kmalloc", "kzalloc", "trace_", "__alloc_pages", "alloc_pages",
		"__get_free_pages", NULL
	};
	char *buf = NULL, *more;
	const char *p, *q;
	int fd, n = 0;
	size_t size = 0, got = 0;
	ssize_t k = 0;

	if (access(DEBUGFS "kmemleak", W_OK))
		return -1;
	sleep(6);
	if (put_file(DEBUGFS "kmemleak", "scan") ||
	    put_file(DEBUGFS "kmemleak", "scan"))
		return -2;
	fd = open(DEBUGFS "kmemleak", O_RDONLY);
	if (fd < 0)
		return -2;
	for (;;) {
		if (size - got < 65536) {
			more = realloc(buf, size + (1 << 20));
			if (!more) {
				k = -1;
				break;
			}
			buf = more;
			size += 1 << 20;
		}
		k = read(fd, buf + got, size - got - 1);
		if (k <= 0)
			break;
		got += k;
	}
	close(fd);
	if (k < 0) {
		printf("# kmemleak: report unreadable after %zu bytes\n", got);
		free(buf);
		return -2;
	}
	buf[got] = '\0';
	for (p = buf; (p = strstr(p, "unreferenced object")) != NULL; p++) {
		const char *sz = strstr(p, "(size ");
		const char *end = strstr(p + 1, "unreferenced object");
		char site[64] = "?";

		/* "    [<ffffffff8110a2b4>] tty_open+0x61/0x4e3" */
		for (q = strstr(p, "backtrace:"); q && (!end || q < end) &&
		     (q = strstr(q, ">] ")) != NULL && (!end || q < end); ) {
			const char *const *s;
			int skipped = 0;

			q += 3;
			for (s = skip; *s; s++)
				skipped |= !strncmp(q, *s, strlen(*s));
			if (!skipped) {
				snprintf(site, sizeof(site), "%.*s",
					 (int)strcspn(q, "+\n "), q);
				break;
			}
		}
		printf("LEAK %s site=%s size=%ld\n", what, site,
		       sz ? strtol(sz + 6, NULL, 10) : -1L);
		n++;
	}
	put_file(DEBUGFS "kmemleak", "clear");
	free(buf);
	return n;
}

int tap_count, tap_failed;

void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tap_failed++;
}

int klog_complaints(const char *log, const char *const *words, const char *who)
{
	const char *const *w;
	const char *p;
	int n = 0;

	for (w = words; *w; w++) {
		p = strstr(log, *w);
		if (!p)
			continue;
		while (p > log && p[-1] != '\n')
			p--;
		printf("# %s kernel: %.*s\n", who, (int)strcspn(p, "\n"), p);
		n++;
	}
	return n;
}

long get_file(const char *path)
{
	char buf[32];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, got = 0;
	char more;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 &&
	       (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	/* a file that fills buf must end there */
	if (n >= 0 && (size_t)got == len - 1 && read(fd, &more, 1) != 0)
		n = -1;
	close(fd);
	buf[got] = '\0';
	return n < 0 ? -1 : got;
}
