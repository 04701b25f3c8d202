/*
 * vfstest: the in-guest VFS behaviour suite.  Each test checks behaviour a
 * correct kernel has, base or patched, so the rig runs it on both.
 *
 *   vfstest --list      names of the default tests, in order (tap runs these)
 *   vfstest --list-all  names of all tests, the ones run only by name too
 *   vfstest NAME[:KEY=VALUE...]
 *                       run one, with its arguments if any (arg_str());
 *                       exit 0 pass, 1 fail, 4 skip
 *
 * Diagnostics go to stdout as "# " lines.  Runs as root in the rig's guest;
 * `make check` runs the subset marked host-safe inside a private mount
 * namespace (vfstest --host-safe).
 */
#include "vfsload.h"
#include <pthread.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

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

/*
 * fd is the one file that keeps m busy: remount,ro fails with EBUSY while
 * it is open and works once it is closed; then m goes.
 */
static void busy_until_closed(int fd, const char *how)
{
	CHECK(remount(path("m"), 1) < 0 && errno == EBUSY,
	      "remount ro %s must fail EBUSY", how);
	close(fd);
	CHECK(remount(path("m"), 1) == 0, "remount ro %s, after its close", how);
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
	busy_until_closed(fd, "with an unlinked open file");
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
	busy_until_closed(fd, "from another cpu, with the migrated writer");
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
 * The emergency remount (sysrq u) forces every block-device filesystem
 * read-only: mark_files_ro() takes FMODE_WRITE from each file open for
 * writing, on every CPU's list.  A writer pinned to each CPU keeps
 * writing to its own file on an ext2 on /dev/ram0 (the initramfs's
 * /ext2.img); each must get EBADF once the remount has run.  The guest's
 * root is an initramfs, which no emergency remount touches.  Run by name
 * only, on a kernel without lockdep: rc1's emergency remount flushes the
 * events workqueue from a work item of its own (invalidate_bdev(),
 * lru_add_drain_all()), which lockdep reports as recursive locking, on
 * base as on patched.
 */
static void t_emergency_ro(void)
{
	char buf[4096];
	int i, st, img, dev, bad = 0;
	ssize_t n;
	pid_t pids[64];

	need_cpus(2);
	img = open("/ext2.img", O_RDONLY);
	dev = open("/dev/ram0", O_WRONLY);
	if (img < 0 || dev < 0) {
		note("no /ext2.img or /dev/ram0");
		exit(4);
	}
	while ((n = read(img, buf, sizeof(buf))) > 0)
		CHECK(write(dev, buf, n) == n, "copy the image to /dev/ram0");
	close(img);
	close(dev);
	mkdir(path("e"), 0755);
	if (mount("/dev/ram0", path("e"), "ext2", 0, NULL) != 0) {
		note("mount ext2: %s", strerror(errno));
		exit(errno == ENODEV ? 4 : 1);
	}
	ms = shm(sizeof(*ms));
	for (i = 0; i < ncpus; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			int fd;
			double until = now() + 20;

			pin(cpus[i]);
			fd = open(path("e/w%d", i), O_CREAT | O_WRONLY, 0644);
			if (fd < 0)
				_exit(2);
			__sync_fetch_and_add(&ms->lookups[i], 1);
			while (now() < until) {
				if (pwrite(fd, "x", 1, 0) < 0)
					_exit(errno == EBADF ? 0 : 3);
				usleep(1000);
			}
			_exit(1);	/* still writable */
		}
	}
	for (i = 0; i < ncpus; i++)
		while (!ms->lookups[i])
			usleep(1000);
	CHECK(put_file("/proc/sysrq-trigger", "u") == 0, "sysrq u");
	for (i = 0; i < ncpus; i++) {
		waitpid(pids[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			note("writer on cpu %d: exit %d (1: still writable)",
			     cpus[i], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
			bad++;
		}
	}
	CHECK(bad == 0, "%d of %d writers kept FMODE_WRITE after sysrq u", bad, ncpus);
	CHECK(umount(path("e")) == 0, "umount the ext2");
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

static void t_pty_storm(void)
{
	if (access("/dev/ptmx", R_OK | W_OK)) {
		note("no /dev/ptmx");
		exit(4);
	}
	per_cpu(pty_worker);
}

/* =================== mounts (issue: vfsmount_lock brlock) ============ */

/*
 * Walkers across a chain of 8 mounts on every CPU (the brlock's readers)
 * and a mount writer on the first, while during() runs; then their
 * results, the mount table, and the chain undone.
 */
static void walkers_and_writer(void (*during)(void))
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
	during();
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

static void eight_seconds(void)
{
	sleep(8);
}

static void t_mount_walkers(void)
{
	walkers_and_writer(eight_seconds);
}

/*
 * The brlock across CPU hotplug: the walkers and the writer above while
 * a CPU goes offline and online again and again for 8 seconds.  A CPU
 * that comes up during a write section must wait for its end; one that
 * did not would let a reader in beside the writer, and an unlock over
 * the CPUs online at unlock time would release a lock the writer never
 * took.
 */
static int hp_victim;

static void hotplug_cycles(void)
{
	double until = now() + 8;
	int cycles = 0;

	pin(cpus[0]);
	while (now() < until) {
		CHECK(cpu_online(hp_victim, 0) == 0, "offline cpu %d", hp_victim);
		CHECK(cpu_online(hp_victim, 1) == 0, "online cpu %d", hp_victim);
		cycles++;
	}
	note("%d hotplug cycles of cpu %d", cycles, hp_victim);
	CHECK(cycles > 0, "no hotplug cycle");
}

static void t_hotplug_walkers(void)
{
	need_cpus(2);
	hp_victim = cpus[ncpus - 1];
	if (!hotplug_possible(hp_victim)) {
		note("cpu %d cannot be taken offline", hp_victim);
		exit(4);
	}
	walkers_and_writer(hotplug_cycles);
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

/* =================== test arguments =================== */

/*
 * A test named as "NAME:KEY=VALUE:KEY=VALUE" (tap passes a scenario's
 * words as they are) gets its arguments here: the value of key, or dflt.
 */
static const char *targs = "";

static const char *arg_str(const char *key, const char *dflt)
{
	static char val[8][64];
	static int slot;
	size_t klen = strlen(key);
	const char *p;

	for (p = targs; *p; p += strcspn(p, ":"), p += *p == ':') {
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		slot = (slot + 1) % 8;
		snprintf(val[slot], sizeof(val[0]), "%.*s",
			 (int)strcspn(p + klen + 1, ":"), p + klen + 1);
		return val[slot];
	}
	return dflt;
}

static long arg_long(const char *key, long dflt)
{
	const char *v = arg_str(key, NULL);

	return v ? strtol(v, NULL, 10) : dflt;
}

/* "ok" for 0, else the errno's name (or "E<number>") */
static const char *errname(int r, int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EBUSY, "EBUSY" }, { EINVAL, "EINVAL" }, { EPERM, "EPERM" },
		{ EACCES, "EACCES" }, { ENOENT, "ENOENT" }, { EROFS, "EROFS" },
		{ ENXIO, "ENXIO" }, { EIO, "EIO" }, { ENODEV, "ENODEV" },
		{ ENOSYS, "ENOSYS" }, { ENOMEM, "ENOMEM" },
	};
	static char buf[16];
	size_t i;

	if (r == 0)
		return "ok";
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* =================== tty files and remount,ro (the tty patch) ======== */

#define DEVPTS_MAGIC 0x1cd1

static int is_devpts(const char *p)
{
	struct statfs s;

	return statfs(p, &s) == 0 && s.f_type == DEVPTS_MAGIC;
}

/*
 * A character node (major, minor) made on a fresh tmpfs at m, opened,
 * unlinked while open, then remount,ro of that tmpfs with the file still
 * open: "ok" or the errno's name; NULL when the node does not open here.
 */
static const char *remount_open_node(const char *name, int major, int minor)
{
	const char *res;
	int fd, r, e;

	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	CHECK(mknod(path("m/%s", name), S_IFCHR | 0666,
		    makedev(major, minor)) == 0, "mknod %s", name);
	fd = open(path("m/%s", name), O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		note("%s (%d, %d) does not open here: %s", name, major, minor,
		     strerror(errno));
		CHECK(umount(path("m")) == 0, "umount");
		return NULL;
	}
	CHECK(unlink(path("m/%s", name)) == 0, "unlink %s", name);
	r = remount(path("m"), 1);
	e = errno;
	res = errname(r, e);
	if (r == 0)
		CHECK(remount(path("m"), 0) == 0, "remount rw");
	close(fd);
	CHECK(umount(path("m")) == 0, "umount");
	note("%s (%d, %d) open and unlinked: remount,ro %s", name, major, minor,
	     res);
	return res;
}

/*
 * A pts slave held open after its master is closed (devpts takes the
 * slave's node away then), and remount,ro of that devpts: "ok" or the
 * errno's name.  A devpts instance of its own (newinstance) where the
 * kernel has them; without DEVPTS_MULTIPLE_INSTANCES, the mount is the
 * one devpts of the system, /dev/pts's too, made rw again at once.
 */
static const char *remount_devpts_orphan(void)
{
	struct stat a, b;
	const char *ptmx = "/dev/ptmx", *res = "?";
	int m, s, n = -1, unlock = 0, r, e, own;

	mkdir(path("pts"), 0755);
	CHECK(mount("devpts", path("pts"), "devpts", 0, "newinstance") == 0,
	      "mount devpts");
	own = stat(path("pts"), &a) == 0 && stat("/dev/pts", &b) == 0 &&
	      a.st_dev != b.st_dev;
	note("devpts: %s", own ? "an instance of its own (newinstance)" :
	     "the system's one instance (no DEVPTS_MULTIPLE_INSTANCES)");
	if (own)
		ptmx = path("pts/ptmx");
	m = open(ptmx, O_RDWR | O_NOCTTY);
	CHECK(m >= 0, "open %s", ptmx);
	if (m < 0)
		goto out;
	CHECK(ioctl(m, TIOCSPTLCK, &unlock) == 0, "unlock pty");
	CHECK(ioctl(m, TIOCGPTN, &n) == 0, "pty number");
	s = open(path("pts/%d", n), O_RDWR | O_NOCTTY | O_NONBLOCK);
	CHECK(s >= 0, "open pts slave %d", n);
	close(m);
	if (s < 0)
		goto out;
	r = remount(path("pts"), 1);
	e = errno;
	res = errname(r, e);
	if (r == 0)
		CHECK(remount(path("pts"), 0) == 0, "devpts rw again");
	close(s);
	note("pts %d open, its master closed: devpts remount,ro %s", n, res);
out:
	CHECK(umount(path("pts")) == 0, "umount devpts");
	return res;
}

/*
 * The one change in behaviour of the series' tty patch, beside two cases
 * that do not change: (a) a tty node on a tmpfs, open and unlinked, and
 * remount,ro of the tmpfs: rc1 remounts (tty files were on no
 * superblock's list), the patched kernel says EBUSY; (b) the same with a
 * /dev/null node: EBUSY on both; (c) devpts with a pts slave open, its
 * master closed: remounts on both, as the tty patch's changelog says.
 * One "TTYRO CASE RESULT" line each.  Arguments: expect=ok|EBUSY, what
 * (a) must give (without it, either); devpts=, what (c) must give (ok).
 */
static void t_tty_remount(void)
{
	static const struct { const char *name; int major, minor; } ttys[] = {
		{ "ptmx", 5, 2 }, { "tty0", 4, 0 }, { "ttyS0", 4, 64 },
	};
	const char *expect = arg_str("expect", NULL), *a = NULL, *b, *c;
	const char *dexp = arg_str("devpts", "ok");
	size_t i;

	if (!is_devpts("/dev/pts")) {
		mkdir("/dev/pts", 0755);
		CHECK(mount("devpts", "/dev/pts", "devpts", 0, NULL) == 0,
		      "mount devpts at /dev/pts");
	}
	for (i = 0; !a && i < sizeof(ttys) / sizeof(ttys[0]); i++)
		a = remount_open_node(ttys[i].name, ttys[i].major,
				      ttys[i].minor);
	printf("TTYRO tmpfs-tty-node %s\n", a ? a : "no-tty");
	b = remount_open_node("null", 1, 3);
	printf("TTYRO tmpfs-null-node %s\n", b ? b : "no-null");
	c = remount_devpts_orphan();
	printf("TTYRO devpts-orphan-slave %s\n", c);
	CHECK(a, "no tty node opens");
	if (a && expect)
		CHECK(!strcmp(a, expect), "tty node: remount,ro %s, expected %s",
		      a, expect);
	else if (a)
		CHECK(!strcmp(a, "ok") || !strcmp(a, "EBUSY"),
		      "tty node: remount,ro %s, neither ok nor EBUSY", a);
	CHECK(b && !strcmp(b, "EBUSY"), "null node: remount,ro %s, not EBUSY",
	      b ? b : "(no node)");
	CHECK(!strcmp(c, dexp), "devpts: remount,ro %s, expected %s", c, dexp);
}

/* =================== acct pins a mount: its last mntput ============ */

struct acct_state {
	volatile int stop;
	volatile long rounds, kinds[4], odd, checked;
	volatile long stats[64], forks[64];
};

static struct acct_state *as;
static char acct_dir[600];

/* a child that exits at once: its exit writes an accounting record */
static void fork_exit(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	CHECK(p > 0 || errno == EAGAIN, "fork");
	if (p > 0)
		waitpid(p, NULL, 0);
}

static void acct_walker(int idx, int cpu)
{
	char f[700], top[700];
	struct stat st;

	snprintf(f, sizeof(f), "%s/acct", acct_dir);
	snprintf(top, sizeof(top), "%s/file", chain_top);
	while (!as->stop) {
		/* the tmpfs is there, or between a lazy umount and its next mount */
		CHECK(stat(f, &st) == 0 || errno == ENOENT, "cpu %d: stat %s",
		      cpu, f);
		CHECK(stat(acct_dir, &st) == 0, "cpu %d: stat %s", cpu,
		      acct_dir);
		CHECK(stat(top, &st) == 0, "cpu %d: stat across the chain", cpu);
		if ((++as->stats[idx] & 15) == 0) {
			fork_exit();
			as->forks[idx]++;
		}
		if (failures > 5)
			return;
	}
}

/*
 * One round, kind 0-3, on CPU cpu: a fresh tmpfs at acct_dir, accounting
 * on to a file there, the tmpfs lazily unmounted with accounting on,
 * children exiting (records), accounting off.  What holds the mount after
 * the lazy umount, so what makes its last mntput (turning acct's pin back
 * into a reference and closing the accounting file) and where:
 *  0  nothing but the walkers' transient references: release_mounts() or
 *     a walker, with accounting on
 *  1  a child with its cwd there, on the next CPU, exiting before
 *     acct(NULL): its exit writes a record, then drops the mount
 *  2  the same child exiting after acct(NULL): no pin left by then
 *  3  a descriptor of the accounting file, read-only: the records are
 *     checked, then it is closed after acct(NULL)
 * 1 when accounting went on, 0 when not, -1 on ENOSYS.
 */
static int acct_round(int kind, int cpu, int next)
{
	char file[700], c;
	int fd = -1, hp[2] = { -1, -1 }, i, r, e = 0;
	pid_t holder = -1;
	struct stat st;

	CHECK(pin(cpu) == 0, "switcher to cpu %d", cpu);
	if (mnt_tmpfs(acct_dir)) {
		CHECK(0, "mount %s", acct_dir);
		return 0;
	}
	snprintf(file, sizeof(file), "%s/acct", acct_dir);
	close(open(file, O_CREAT | O_WRONLY, 0644));
	if ((kind == 1 || kind == 2) && pipe(hp) == 0) {
		holder = fork();
		if (holder == 0) {
			close(hp[1]);
			pin(next);
			if (chdir(acct_dir))
				_exit(1);
			read(hp[0], &c, 1);
			_exit(0);
		}
		close(hp[0]);
	}
	if (kind == 3)
		CHECK((fd = open(file, O_RDONLY)) >= 0, "open %s", file);
	r = acct(file);
	if (r) {
		e = errno;
		if (e != ENOSYS && as->odd++ < 5)
			note("acct(%s) on cpu %d: %s", file, cpu, strerror(e));
	} else {
		for (i = 0; i < 2; i++)
			fork_exit();
	}
	CHECK(umount2(acct_dir, MNT_DETACH) == 0, "lazy umount of %s",
	      acct_dir);
	if (r == 0)
		for (i = 0; i < 2; i++)
			fork_exit();
	if (holder > 0 && kind == 1) {
		close(hp[1]);
		waitpid(holder, NULL, 0);
	}
	CHECK(acct(NULL) == 0 || errno == ENOSYS, "accounting off");
	if (holder > 0 && kind == 2) {
		close(hp[1]);
		waitpid(holder, NULL, 0);
	}
	if (fd >= 0 && r == 0) {
		unsigned char v = 0;

		/* struct acct and acct_v3 are 64 bytes; byte 1 the version */
		CHECK(fstat(fd, &st) == 0 && st.st_size >= 4 * 64 &&
		      st.st_size % 64 == 0, "accounting file of %lld bytes",
		      (long long)st.st_size);
		CHECK(pread(fd, &v, 1, 1) == 1 && ((v & 0x7f) == 2 ||
		      (v & 0x7f) == 3), "accounting record version %d", v);
		as->checked++;
	}
	if (fd >= 0)
		close(fd);
	if (r && e == ENOSYS)
		return -1;
	return r == 0;
}

/*
 * Process accounting pins the mount of its file (mnt_pin) in place of the
 * file's reference; the last mntput of a lazily unmounted mount must turn
 * the pins back into references and close the file before the mount
 * goes.  One switcher turns accounting on and off (acct() is one file per
 * pid namespace), its CPU a different one each round, while a walker on
 * every CPU stats paths under the mount point and across a chain of
 * mounts below it, and forks children that exit (records).  A kernel that
 * frees the mount with the file still open: a BUG in
 * shrink_dcache_for_umount() or slub_debug's poison, on the console, which
 * the rig judges.  Arguments: secs= (15), min= rounds (10).
 */
static void t_acct_mntput(void)
{
	double until = now() + arg_long("secs", 15);
	long min = arg_long("min", 10), stats = 0, forks = 0;
	int i, st, round, r;
	pid_t pids[64];

	if (acct(NULL) && errno == ENOSYS) {
		CHECK(0, "kernel lacks BSD process accounting (acct: ENOSYS)");
		return;
	}
	as = shm(sizeof(*as));
	CHECK(make_chain(4) == 0, "chain of 4 mounts");
	snprintf(acct_dir, sizeof(acct_dir), "%s/acct", chain_top);
	mkdir(acct_dir, 0755);
	for (i = 0; i < ncpus; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			failures = 0;
			pin(cpus[i]);
			acct_walker(i, cpus[i]);
			_exit(failures ? 1 : 0);
		}
	}
	for (round = 0; now() < until && failures <= 5; round++) {
		r = acct_round(round % 4, cpus[round % ncpus],
			       cpus[(round + 1) % ncpus]);
		if (r < 0) {
			CHECK(0, "kernel lacks BSD process accounting (acct: ENOSYS)");
			break;
		}
		if (r) {
			as->rounds++;
			as->kinds[round % 4]++;
		}
	}
	as->stop = 1;
	for (i = 0; i < ncpus; i++) {
		waitpid(pids[i], &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "walker %d", i);
		stats += as->stats[i];
		forks += as->forks[i];
	}
	acct(NULL);
	note("%ld rounds with accounting on (by kind %ld %ld %ld %ld), %ld files checked, %ld acct() failures; walkers: %ld stat rounds, %ld children",
	     as->rounds, as->kinds[0], as->kinds[1], as->kinds[2],
	     as->kinds[3], as->checked, as->odd, stats, forks);
	CHECK(as->rounds >= min, "%ld rounds, fewer than %ld", as->rounds, min);
	drop_chain();
}

/* =================== close on another CPU (per-CPU lists) ============ */

/*
 * An opener thread on one CPU hands its descriptors (one fd table:
 * threads) through a pipe to a closer thread on another, so every file is
 * taken off its superblock's list on a CPU other than the one that put it
 * there; a third task on the opener's CPU opens and closes on the same
 * tmpfs, and a remounter tries remount,ro on the closer's CPU all along.
 * Every other file the opener opens is for write; those are numbered: a
 * remount that succeeds while one of them was open from before the call to
 * after it is a bug, and so is EBUSY when no write open was under way.
 */
struct coc {
	volatile int stop, done, inflight;
	volatile int opening, third;	/* 1 around an open for write */
	volatile long wopened, wclosing, wclosed;	/* numbered writes */
	volatile long opens, closes, erofs, third_ops;
	volatile long remount_ok, remount_busy;
	int pfd[2];
};

struct coc_msg {
	int fd;
	long seq;
};

static struct coc *co;

static void *coc_opener(void *arg)
{
	struct coc_msg msg;
	long i, seq = 0;
	int w;

	(void)arg;
	CHECK(pin(cpus[0]) == 0, "opener to cpu %d", cpus[0]);
	for (i = 0; !co->stop && failures <= 5; i++) {
		while (co->inflight > 64 && !co->stop)
			sched_yield();
		w = i & 1;
		if (w) {
			co->opening = 1;
			__sync_synchronize();
		}
		msg.fd = open(path("m/f%ld", i % 16), w ? O_WRONLY : O_RDONLY);
		if (msg.fd < 0) {
			CHECK(w && errno == EROFS, "opener: open f%ld", i % 16);
			co->erofs++;
			co->opening = 0;
			continue;
		}
		msg.seq = w ? ++seq : 0;
		if (w) {
			co->wopened = seq;
			__sync_synchronize();
			co->opening = 0;
		}
		__sync_fetch_and_add(&co->inflight, 1);
		co->opens++;
		CHECK(write(co->pfd[1], &msg, sizeof(msg)) == sizeof(msg),
		      "hand over fd %d", msg.fd);
		if ((i & 255) == 0)
			CHECK(sched_getcpu() == cpus[0], "opener migrated");
	}
	msg.fd = -1;
	msg.seq = 0;
	CHECK(write(co->pfd[1], &msg, sizeof(msg)) == sizeof(msg), "last");
	return NULL;
}

static void *coc_closer(void *arg)
{
	struct coc_msg msg;
	size_t got;
	ssize_t k;

	(void)arg;
	CHECK(pin(cpus[1]) == 0, "closer to cpu %d", cpus[1]);
	for (;;) {
		for (got = 0; got < sizeof(msg); got += k) {
			k = read(co->pfd[0], (char *)&msg + got,
				 sizeof(msg) - got);
			if (k <= 0) {
				CHECK(0, "closer: read");
				return NULL;
			}
		}
		if (msg.fd < 0)
			return NULL;
		if (msg.seq) {
			co->wclosing = msg.seq;
			__sync_synchronize();
		}
		CHECK(close(msg.fd) == 0, "close fd %d from cpu %d", msg.fd,
		      cpus[1]);
		__sync_synchronize();
		if (msg.seq)
			co->wclosed = msg.seq;
		__sync_fetch_and_sub(&co->inflight, 1);
		co->closes++;
	}
}

static void coc_third(void)
{
	int fd;

	while (!co->done && failures <= 5) {
		co->third = 1;
		__sync_synchronize();
		fd = open(path("m/g"), O_CREAT | O_RDWR, 0644);
		if (fd >= 0) {
			CHECK(write(fd, "x", 1) == 1, "third: write");
			close(fd);
		} else {
			CHECK(errno == EROFS, "third: open for write");
		}
		__sync_synchronize();
		co->third = 0;
		fd = open(path("m/f0"), O_RDONLY);
		CHECK(fd >= 0, "third: open for read");
		if (fd >= 0)
			close(fd);
		co->third_ops++;
	}
}

static void coc_remounter(void)
{
	while (!co->done && failures <= 5) {
		long o1, c1, o2, k2;
		int busy1, busy2, r, e;

		busy1 = co->opening || co->third;
		o1 = co->wopened;
		c1 = co->wclosed;
		long t1 = co->third_ops;

		__sync_synchronize();
		r = remount(path("m"), 1);
		e = errno;
		__sync_synchronize();
		k2 = co->wclosing;
		o2 = co->wopened;
		busy2 = co->opening || co->third || co->third_ops != t1;
		if (r == 0) {
			co->remount_ok++;
			CHECK(k2 >= o1,
			      "remount,ro succeeded with write file %ld open all along",
			      o1);
			usleep(300);
			CHECK(remount(path("m"), 0) == 0, "remount rw");
		} else {
			CHECK(e == EBUSY, "remount,ro: errno %d", e);
			CHECK(busy1 || busy2 || o1 > c1 || o2 != o1,
			      "EBUSY with no file open for write");
			co->remount_busy++;
		}
		usleep(1000);
	}
}

static void t_close_other_cpu(void)
{
	double until = now() + arg_long("secs", 6);
	pthread_t op, cl;
	pid_t third, rem;
	int i, st;

	need_cpus(2);
	co = shm(sizeof(*co));
	CHECK(mnt_tmpfs(path("m")) == 0, "mount");
	for (i = 0; i < 16; i++)
		close(open(path("m/f%d", i), O_CREAT | O_WRONLY, 0644));
	CHECK(pipe(co->pfd) == 0, "pipe");
	third = fork();
	if (third == 0) {
		failures = 0;
		pin(cpus[0]);
		coc_third();
		_exit(failures ? 1 : 0);
	}
	rem = fork();
	if (rem == 0) {
		failures = 0;
		pin(cpus[1]);
		coc_remounter();
		_exit(failures ? 1 : 0);
	}
	CHECK(pthread_create(&cl, NULL, coc_closer, NULL) == 0, "closer");
	CHECK(pthread_create(&op, NULL, coc_opener, NULL) == 0, "opener");
	while (now() < until)
		usleep(100000);
	co->stop = 1;
	pthread_join(op, NULL);
	pthread_join(cl, NULL);
	co->done = 1;
	waitpid(third, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "third worker");
	waitpid(rem, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "remounter");
	note("%ld opened on cpu %d, %ld closed on cpu %d (%ld EROFS); third worker %ld rounds; remount,ro %ld ok, %ld EBUSY",
	     co->opens, cpus[0], co->closes, cpus[1], co->erofs,
	     co->third_ops, co->remount_ok, co->remount_busy);
	CHECK(co->opens == co->closes, "%ld opened, %ld closed", co->opens,
	      co->closes);
	CHECK(co->opens > 0, "nothing opened");
	close(co->pfd[0]);
	close(co->pfd[1]);
	CHECK(remount(path("m"), 1) == 0, "remount,ro with everything closed");
	CHECK(umount(path("m")) == 0, "umount");
}

/*
 * A non-lazy umount against path walks into the mount from other CPUs.
 * umount's check that the mount is not busy and its detach of the mount
 * are one write section of vfsmount_lock; a walk finds the mount and
 * takes its reference inside a read section, so it comes either before
 * the check (and the umount says EBUSY) or after the detach (and does not
 * find the mount).  Each mount of the tmpfs is numbered (its file "gen");
 * a walker opens the mount point, reads the number, holds the files a
 * moment, then looks whether umount() has since returned 0 for that very
 * mount: it has held a file of it all along, so that umount was wrong.
 */
struct umount_race {
	volatile int stop;
	volatile long gone;		/* the last mount umount() removed */
	volatile long opens[64], umounts, busy;
};
static struct umount_race *ur;

static void ur_spin(double secs)
{
	double t = now() + secs;

	while (now() < t)
		;
}

static void ur_walker(int idx)
{
	char buf[32];
	long gen, n = 0;
	int fd, g;

	while (!ur->stop && failures <= 5) {
		fd = open(path("u"), O_RDONLY | O_DIRECTORY);
		CHECK(fd >= 0, "walker %d: open the mount point", idx);
		g = fd < 0 ? -1 : openat(fd, "gen", O_RDONLY);
		if (g >= 0) {
			memset(buf, 0, sizeof(buf));
			gen = read(g, buf, sizeof(buf) - 1) > 0 ? atol(buf) : 0;
			close(g);
			ur_spin(0.00005);
			CHECK(!gen || ur->gone != gen,
			      "walker %d held a file of mount %ld while umount() removed it",
			      idx, gen);
			ur->opens[idx]++;
		}
		if (fd >= 0)
			close(fd);
		ur_spin(0.00001 * (++n % 16));
	}
}

static void t_umount_race(void)
{
	double until = now() + arg_long("secs", 6);
	long gen = 0, total = 0;
	pid_t pids[64];
	int i, st, r, fd, n;
	char num[24];

	need_cpus(2);
	ur = shm(sizeof(*ur));
	mkdir(path("u"), 0755);
	pin(cpus[0]);
	for (i = 1; i < ncpus && i < 64; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			failures = 0;
			pin(cpus[i]);
			ur_walker(i);
			_exit(failures ? 1 : 0);
		}
	}
	while (now() < until && failures <= 5) {
		CHECK(mnt_tmpfs(path("u")) == 0, "mount %ld", gen + 1);
		gen++;
		/* the number, whole: written aside, renamed into place */
		fd = open(path("u/gen.new"), O_CREAT | O_WRONLY, 0644);
		n = snprintf(num, sizeof(num), "%ld", gen);
		CHECK(fd >= 0 && write(fd, num, n) == n, "gen file");
		close(fd);
		CHECK(rename(path("u/gen.new"), path("u/gen")) == 0, "gen file");
		while ((r = umount(path("u"))) < 0 && errno == EBUSY &&
		       now() < until + 5)
			ur->busy++;
		CHECK(r == 0, "umount of mount %ld", gen);
		if (r == 0) {
			ur->gone = gen;
			__sync_synchronize();
			ur->umounts++;
		}
	}
	ur->stop = 1;
	for (i = 1; i < ncpus && i < 64; i++) {
		waitpid(pids[i], &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "walker %d", i);
		total += ur->opens[i];
	}
	note("%ld mounts umounted (%ld EBUSY first), %ld files held by %d walkers",
	     ur->umounts, ur->busy, total, ncpus - 1);
	CHECK(ur->umounts > 0 && total > 0, "nothing raced");
	while (umount(path("u")) == 0)
		;
}

/* =================== struct file's size (the filp slab) ============ */

/*
 * object_size and slab_size of the filp cache (SLUB's sysfs): one line
 * "SIZE filp object_size=N slab_size=M".  object_size is sizeof(struct
 * file) when filp is a cache of its own: boot with slub_nomerge, else
 * /sys/kernel/slab/filp is an alias (a symlink) of a mergeable cache,
 * whose object_size is the largest of the caches merged into it.
 */
static void t_filp_size(void)
{
	const char *d = "/sys/kernel/slab/filp";
	long obj = get_file("/sys/kernel/slab/filp/object_size");
	long slab = get_file("/sys/kernel/slab/filp/slab_size");
	char lnk[256];
	ssize_t n;

	n = readlink(d, lnk, sizeof(lnk) - 1);
	if (n > 0) {
		lnk[n] = '\0';
		note("%s is an alias of %s (a mergeable cache: boot with slub_nomerge for sizeof(struct file))",
		     d, lnk);
	}
	CHECK(obj > 0 && slab > 0, "read %s/object_size and slab_size", d);
	if (obj > 0 && slab > 0)
		printf("SIZE filp object_size=%ld slab_size=%ld\n", obj, slab);
	note("filp: %ld objects a slab, order %ld, %ld aliases",
	     get_file("/sys/kernel/slab/filp/objs_per_slab"),
	     get_file("/sys/kernel/slab/filp/order"),
	     get_file("/sys/kernel/slab/filp/aliases"));
}

/* =================== the kernel's lglock torture test ============ */

/*
 * CONFIG_LGLOCK_TORTURE_TEST=y runs at boot, and /init waits for its last
 * line before the program starts: every run that started passed.  No run
 * (the option off or a module, or not in this kernel) = skip.
 */
static void t_lglock_torture(void)
{
	static char buf[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	int starts = 0, passes = 0;
	char *line, *next;

	CHECK(n >= 0, "klogctl");
	if (n < 0)
		return;
	buf[n] = '\0';
	if (!strstr(buf, "lglock-torture: start:")) {
		note("no lglock-torture run (option off or a module, or not in this kernel)");
		exit(4);
	}
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line = strstr(line, "lglock-torture: ");
		if (!line)
			continue;
		note("%s", line);
		starts += !strncmp(line, "lglock-torture: start:", 22);
		passes += !strcmp(line, "lglock-torture: PASS");
		CHECK(strcmp(line, "lglock-torture: FAIL"), "the torture test failed");
	}
	CHECK(starts == passes, "%d runs started, %d passed", starts, passes);
}

/* =================== the table =================== */

struct test {
	const char *name;
	void (*fn)(void);
	int host_safe;	/* runs under make check in a private mount ns */
	int by_name;	/* not in --list: runs only when named (own boot) */
};

static const struct test tests[] = {
	{ "lglock_torture", t_lglock_torture, 0 },
	{ "mount_tmpfs", t_mount_tmpfs, 1 },
	{ "open_close_every_cpu", t_open_close_every_cpu, 1 },
	{ "remount_ro_busy", t_remount_ro_busy, 1 },
	{ "bind_stat", t_bind_stat, 1 },
	{ "getcwd_mount", t_getcwd_mount, 1 },
	{ "remount_migrate", t_remount_migrate, 1 },
	{ "remount_held_writers", t_remount_held_writers, 1 },
	{ "remount_loop_writers", t_remount_loop_writers, 1 },
	{ "remount_offline", t_remount_offline, 0 },
	{ "emergency_ro", t_emergency_ro, 0, 1 },
	{ "pty_storm", t_pty_storm, 0 },
	{ "mount_walkers", t_mount_walkers, 1 },
	{ "hotplug_walkers", t_hotplug_walkers, 0 },
	{ "unshare_copy", t_unshare_copy, 1 },
	{ "umount_busy", t_umount_busy, 1 },
	{ "umount_race", t_umount_race, 1 },
	{ "tty_remount", t_tty_remount, 0, 1 },
	{ "close_other_cpu", t_close_other_cpu, 1 },
	{ "filp_size", t_filp_size, 0 },
	{ "acct_mntput", t_acct_mntput, 0, 1 },
};

#define NTESTS (int)(sizeof(tests) / sizeof(tests[0]))

int main(int argc, char **argv)
{
	int i, host = 0, all;
	size_t len;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && (!strcmp(argv[1], "--list") ||
			  !strcmp(argv[1], "--list-all"))) {
		all = !strcmp(argv[1], "--list-all");
		for (i = 0; i < NTESTS; i++)
			if (all || !tests[i].by_name)
				printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--host-safe")) {
		host = 1;
		if (argc == 3)
			snprintf(root, sizeof(root), "%s", argv[2]);
	} else if (argc != 2) {
		fprintf(stderr, "usage: vfstest --list | --list-all | NAME[:KEY=VALUE...] | --host-safe [DIR]\n");
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
	/* NAME:ARGS: the test's arguments after the first colon */
	len = strcspn(argv[1], ":");
	if (argv[1][len])
		targs = argv[1] + len + 1;
	for (i = 0; i < NTESTS; i++) {
		if (strlen(tests[i].name) != len ||
		    strncmp(argv[1], tests[i].name, len))
			continue;
		setup_root();
		tests[i].fn();
		teardown_root();
		return failures ? 1 : 0;
	}
	fprintf(stderr, "vfstest: no test '%s'\n", argv[1]);
	return 2;
}
