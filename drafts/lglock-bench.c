/*
 * lglock-bench: what the VFS paths that use lglocks cost and how they
 * scale, measured from userspace, the way will-it-scale reports it.
 *
 *   lglock-bench [-t seconds] [-T max-tasks] [test...]
 *
 * Tests (default: all but remount_ro):
 *   open_close_private  each task opens and closes its own tmpfs file
 *   open_close_shared   every task opens and closes the same file
 *   stat_mounts         stat() of a file under 8 stacked mounts
 *   getcwd_mounts       getcwd() inside those 8 stacked mounts
 *   mount_umount        one task mounts and unmounts a tmpfs
 *   remount_ro          remount,ro + remount,rw of a tmpfs with 0, 1k, 10k
 *                       and 100k files open read-only on it
 *
 * Tasks are processes (threads would share one fd table) pinned one per
 * CPU, warmed up, then counted over a fixed interval.  Output is CSV:
 *   BENCH,test,tasks,ops_per_sec,ops_per_sec_per_task,linear
 * where linear is tasks x the 1-task rate.  remount_ro prints
 *   BENCH,remount_ro,<open files>,remounts_per_sec,usec_per_remount,-
 * Needs root, and a kernel that can mount tmpfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DIR_ROOT	"/tmp/lglock-bench"
#define CHAIN_DEPTH	8
#define MAX_TASKS	64

static double seconds = 2.0;
static int max_tasks = MAX_TASKS;
static int cpus[MAX_TASKS], ncpus;
static char chain_top[512];

struct shared {
	volatile int go, stop;
	volatile long count[MAX_TASKS][16];	/* one cache line each */
};
static struct shared *sh;

static void die(const char *what)
{
	fprintf(stderr, "lglock-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void read_cpus(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	for (i = 0; i < CPU_SETSIZE && ncpus < MAX_TASKS; i++)
		if (CPU_ISSET(i, &set))
			cpus[ncpus++] = i;
}

static void mount_tmpfs(const char *where)
{
	mkdir(where, 0755);
	if (mount("tmpfs", where, "tmpfs", 0, NULL))
		die(where);
}

static void setup(void)
{
	char p[512];
	int i;

	mount_tmpfs(DIR_ROOT);
	snprintf(p, sizeof(p), "%s/chain", DIR_ROOT);
	for (i = 0; i < CHAIN_DEPTH; i++) {
		mount_tmpfs(p);
		strcat(p, "/d");
	}
	mkdir(p, 0755);
	strcpy(chain_top, p);
	strcat(p, "/file");
	close(open(p, O_CREAT | O_WRONLY, 0644));
	snprintf(p, sizeof(p), "%s/shared", DIR_ROOT);
	close(open(p, O_CREAT | O_WRONLY, 0644));
}

/* ---- the operations; one call is one counted op ---- */

static char task_file[MAX_TASKS][256];

static void op_open_close_private(int t)
{
	int fd = open(task_file[t], O_RDONLY);

	if (fd < 0)
		die("open");
	close(fd);
}

static void op_open_close_shared(int t)
{
	int fd = open(DIR_ROOT "/shared", O_RDONLY);

	(void)t;
	if (fd < 0)
		die("open");
	close(fd);
}

static void op_stat_mounts(int t)
{
	static char p[600];
	struct stat st;

	(void)t;
	if (!p[0])
		snprintf(p, sizeof(p), "%s/file", chain_top);
	if (stat(p, &st))
		die("stat");
}

static void op_getcwd_mounts(int t)
{
	char buf[1024];

	(void)t;
	if (!getcwd(buf, sizeof(buf)))
		die("getcwd");
}

static void op_mount_umount(int t)
{
	(void)t;
	if (mount("tmpfs", DIR_ROOT "/mnt", "tmpfs", 0, NULL))
		die("mount");
	if (umount(DIR_ROOT "/mnt"))
		die("umount");
}

struct test {
	const char *name;
	void (*op)(int task);
	int single;	/* one task only */
};

static const struct test tests[] = {
	{ "open_close_private", op_open_close_private, 0 },
	{ "open_close_shared", op_open_close_shared, 0 },
	{ "stat_mounts", op_stat_mounts, 0 },
	{ "getcwd_mounts", op_getcwd_mounts, 0 },
	{ "mount_umount", op_mount_umount, 1 },
};

/* Run op on n tasks pinned to the first n CPUs; return total ops/s. */
static double run(const struct test *t, int n)
{
	pid_t pids[MAX_TASKS];
	long before[MAX_TASKS], total = 0;
	double start, end;
	int i, st;

	memset(sh, 0, sizeof(*sh));
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0) {
			pin(cpus[i]);
			snprintf(task_file[i], sizeof(task_file[i]),
				 "%s/task%d", DIR_ROOT, i);
			close(open(task_file[i], O_CREAT | O_WRONLY, 0644));
			if (t->op == op_getcwd_mounts && chdir(chain_top))
				die("chdir");
			while (!sh->go)
				;
			while (!sh->stop) {
				t->op(i);
				sh->count[i][0]++;
			}
			_exit(0);
		}
	}
	sh->go = 1;
	/* warm up for a fifth of the interval, then count */
	usleep((useconds_t)(seconds * 200000));
	for (i = 0; i < n; i++)
		before[i] = sh->count[i][0];
	start = now();
	usleep((useconds_t)(seconds * 1000000));
	for (i = 0; i < n; i++)
		total += sh->count[i][0] - before[i];
	end = now();
	sh->stop = 1;
	for (i = 0; i < n; i++)
		waitpid(pids[i], &st, 0);
	return total / (end - start);
}

static void bench(const struct test *t)
{
	double one = 0, r;
	int n, top = t->single ? 1 : (ncpus < max_tasks ? ncpus : max_tasks);

	for (n = 1; n <= top; n++) {
		r = run(t, n);
		if (n == 1)
			one = r;
		printf("BENCH,%s,%d,%.0f,%.0f,%.0f\n", t->name, n, r, r / n,
		       one * n);
		fflush(stdout);
	}
}

/*
 * remount_ro: files open read-only are spread over all CPUs (one holder
 * process per CPU opens its share), then remount,ro and remount,rw are
 * timed.  Each remount,ro walks every file on the superblock.
 */
static void remount_ro(void)
{
	static const int counts[] = { 0, 1000, 10000, 100000 };
	const char *mnt = DIR_ROOT "/ro";
	unsigned int k;
	int i, j, st;

	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		int nfiles = counts[k], share = nfiles / ncpus, rounds = 0;
		pid_t pids[MAX_TASKS];
		double start, end;

		mount_tmpfs(mnt);
		close(open(DIR_ROOT "/ro/f", O_CREAT | O_WRONLY, 0644));
		memset(sh, 0, sizeof(*sh));
		for (i = 0; i < ncpus; i++) {
			pids[i] = fork();
			if (pids[i] == 0) {
				struct rlimit rl = { share + 64, share + 64 };

				pin(cpus[i]);
				if (setrlimit(RLIMIT_NOFILE, &rl))
					die("setrlimit");
				for (j = 0; j < share; j++)
					if (open(DIR_ROOT "/ro/f", O_RDONLY) < 0)
						die("open");
				__sync_fetch_and_add(&sh->go, 1);
				while (!sh->stop)
					pause();
				_exit(0);
			}
		}
		while (sh->go < ncpus)
			usleep(1000);
		start = now();
		do {
			if (mount("none", mnt, NULL, MS_REMOUNT | MS_RDONLY,
				  NULL))
				die("remount,ro");
			if (mount("none", mnt, NULL, MS_REMOUNT, NULL))
				die("remount,rw");
			rounds++;
		} while (now() - start < seconds);
		end = now();
		sh->stop = 1;
		for (i = 0; i < ncpus; i++) {
			kill(pids[i], SIGTERM);
			waitpid(pids[i], &st, 0);
		}
		if (umount(mnt))
			die("umount");
		printf("BENCH,remount_ro,%d,%.1f,%.1f,-\n", share * ncpus,
		       rounds / (end - start), (end - start) * 1e6 / rounds);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	int i, j, c, any = 0;

	while ((c = getopt(argc, argv, "t:T:")) != -1) {
		if (c == 't')
			seconds = atof(optarg);
		else if (c == 'T')
			max_tasks = atoi(optarg);
		else {
			fprintf(stderr, "usage: lglock-bench [-t s] [-T n] [test...]\n");
			return 2;
		}
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	read_cpus();
	setup();
	mkdir(DIR_ROOT "/mnt", 0755);
	printf("BENCH,test,tasks,ops_per_sec,ops_per_sec_per_task,linear\n");
	for (i = 0; i < (int)(sizeof(tests) / sizeof(tests[0])); i++) {
		int want = optind == argc;

		for (j = optind; j < argc; j++)
			if (!strcmp(argv[j], tests[i].name) ||
			    !strcmp(argv[j], "all"))
				want = 1;
		if (want) {
			bench(&tests[i]);
			any = 1;
		}
	}
	for (j = optind; j < argc; j++)
		if (!strcmp(argv[j], "remount_ro") || !strcmp(argv[j], "all")) {
			remount_ro();
			any = 1;
		}
	return any ? 0 : 2;
}
