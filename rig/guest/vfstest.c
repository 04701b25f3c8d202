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
#include "vfsload.h"

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
