/*
 * soak: every load the series' locks see, at once, for a given time.
 *
 *   soak MINUTES [EXT2_IMAGE] [faults=PERCENT]
 *
 * Concurrently, until the time is up:
 *   - open/close storms on every CPU, writers and readers, on a tmpfs and
 *     on an ext2 on /dev/ram0 (copied from EXT2_IMAGE, default /ext2.img),
 *     each writer creating new files now and then (counted);
 *   - a remount ro/rw loop on each of the two, every result checked
 *     against the writers known to be open during the call;
 *   - mount/umount/bind/move/lazy-umount and shared/slave propagation
 *     under path walkers that cross 8 mounts and call getcwd();
 *   - pty open/close/hangup storms;
 *   - CPU offline/online cycling of every CPU but 0;
 *   - unshare(CLONE_NEWNS) in a loop.
 * Then it stops everything, syncs, remounts both filesystems read-only
 * (which must succeed), counts the files on each against the files
 * created, unmounts everything, and prints the ext2 image's non-zero
 * blocks (SOAK-IMG lines, base64) so that the host can fsck it.
 *
 * With faults=PERCENT (CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS), failslab
 * fails that percentage of the slab allocations of the open/close writers
 * and of the pty workers' opens (marked with /proc/self/make-it-fail: the
 * writers throughout, the pty workers around each open only, as rc1's
 * tty close and hangup BUG on a failed allocation; the other loads, the
 * remounters among them, run unmarked and keep every check),
 * the checkers' own caches spared.  Those workers then take ENOMEM and
 * ENFILE for clean failures, and a file whose create failed may exist:
 * no file may be lost, and at most those may be found beyond the count.
 * At the end, with kmemleak, the unreferenced objects ("LEAK op=soak").
 *
 * Prints "# ..." progress and a summary line
 *   SOAK ops: <kind>=<count> ...
 * and at the very end "SOAK result: PASS" or "SOAK result: FAIL (...)".
 * The per-call checks are the ones of vfstest (the load library vfsload.c).
 */
#include "vfsload.h"
#include <sys/sysmacros.h>
#include <termios.h>

/* everything counted, for the summary */
struct counts {
	volatile int stop;
	volatile long pty, hotplug, hotplug_fail, unshare, walks, mounts;
};

static struct pool *pools[2];
static struct counts *cs;

static void hotplug_cycler(void)
{
	int cpu, on;
	int n = 64;	/* cpuN/online exists for each hotpluggable CPU */

	while (!cs->stop) {
		for (cpu = 1; cpu < n && !cs->stop; cpu++) {
			if (!hotplug_possible(cpu))
				continue;
			for (on = 0; on <= 1; on++) {
				if (cpu_online(cpu, on))
					cs->hotplug_fail++;
				else
					cs->hotplug++;
				usleep(20000);
			}
		}
	}
	/* leave every CPU online */
	for (cpu = 1; cpu < n; cpu++)
		if (hotplug_possible(cpu))
			cpu_online(cpu, 1);
}

static void pty_loop(int idx, int cpu)
{
	while (!cs->stop && failures <= 5) {
		pty_worker(idx, cpu);
		cs->pty += 300;
	}
}

static void unshare_loop(void)
{
	while (!cs->stop) {
		pid_t p = fork();
		int st;

		if (p == 0) {
			if (unshare(CLONE_NEWNS))
				_exit(1);
			/*
			 * The copy's shared mounts are peers of the originals:
			 * make them private first, or the umount below would
			 * propagate to the original namespace.
			 */
			if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL))
				_exit(2);
			/* tear the copy down from the inside */
			umount2(path("c"), MNT_DETACH);
			_exit(0);
		}
		waitpid(p, &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unshare child");
		cs->unshare++;
		usleep(5000);
		if (failures > 5)
			return;
	}
}

/* base64 of one block, for the host's fsck */
static void dump_block(FILE *f, long no, const unsigned char *b, int len)
{
	static const char t[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char out[2048];
	int i, o = 0;

	for (i = 0; i + 2 < len; i += 3) {
		unsigned v = b[i] << 16 | b[i + 1] << 8 | b[i + 2];

		out[o++] = t[v >> 18];
		out[o++] = t[(v >> 12) & 63];
		out[o++] = t[(v >> 6) & 63];
		out[o++] = t[v & 63];
	}
	if (len - i == 1) {
		out[o++] = t[b[i] >> 2];
		out[o++] = t[(b[i] & 3) << 4];
		out[o++] = '=';
		out[o++] = '=';
	} else if (len - i == 2) {
		unsigned v = b[i] << 8 | b[i + 1];

		out[o++] = t[v >> 10];
		out[o++] = t[(v >> 4) & 63];
		out[o++] = t[(v & 15) << 2];
		out[o++] = '=';
	}
	out[o] = 0;
	fprintf(f, "SOAK-IMG %ld %s\n", no, out);
}

static void dump_image(const char *dev)
{
	unsigned char b[1024];
	struct termios raw;
	int fd = open(dev, O_RDONLY), port;
	long no = 0, nz = 0;
	int i;
	FILE *f;

	/*
	 * Not on the console: the 8250 driver's "too much work for irq4"
	 * landed in the middle of image lines there.  ttyS1 carries this
	 * program's own output (init.c); ttyS2 is no kernel console either,
	 * and the host writes it to a file of its own (rig/soak.sh).
	 */
	mknod("/dev/ttyS2", S_IFCHR | 0600, makedev(4, 66));
	port = open("/dev/ttyS2", O_WRONLY | O_NOCTTY);
	CHECK(fd >= 0 && port >= 0, "open %s and /dev/ttyS2", dev);
	if (fd < 0 || port < 0)
		return;
	if (tcgetattr(port, &raw) == 0) {	/* no CR before each LF */
		cfmakeraw(&raw);
		tcsetattr(port, TCSANOW, &raw);
	}
	f = fdopen(port, "w");
	fprintf(f, "SOAK-IMG begin 1024\n");
	while (read(fd, b, sizeof(b)) == sizeof(b)) {
		for (i = 0; i < (int)sizeof(b) && !b[i]; i++)
			;
		if (i < (int)sizeof(b)) {
			dump_block(f, no, b, sizeof(b));
			nz++;
		}
		no++;
	}
	fprintf(f, "SOAK-IMG end %ld %ld\n", no, nz);
	fclose(f);
	printf("# ext2 image: %ld blocks, %ld not zero, sent on ttyS2\n", no, nz);
	close(fd);
}

static pid_t spawn(void (*fn)(long), long arg, int cpu)
{
	pid_t p = fork();

	if (p == 0) {
		failures = 0;
		if (cpu >= 0)
			pin(cpu);
		fn(arg);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	return p;
}

static int nw;
static void marked(void)
{
	if (faulty && make_it_fail(1)) {
		printf("# FAIL: cannot mark a worker for fault injection\n");
		_exit(1);
	}
}

static void run_writer(long a)
{
	marked();
	pool_writer(pools[a / MAXW], a % MAXW);
}
static void run_remounter(long a) { pool_remounter(pools[a], nw, 0); }
static void run_walker(long a) { chain_walker(a, -1); }
static void run_mount_writer(long a) { (void)a; mount_writer(); }
/* (pty_worker marks itself around its opens) */
static void run_pty(long a) { pty_loop(a, -1); }

/* failslab at @percent for the marked tasks, the checkers spared */
static int faults_on(const char *percent)
{
	return failslab_flag_caches() > 0 &&
	       !put_file(DEBUGFS "failslab/task-filter", "Y") &&
	       !put_file(DEBUGFS "failslab/ignore-gfp-wait", "N") &&
	       !put_file(DEBUGFS "failslab/interval", "1") &&
	       !put_file(DEBUGFS "failslab/space", "0") &&
	       !put_file(DEBUGFS "failslab/verbose", "0") &&
	       !put_file(DEBUGFS "failslab/times", "-1") &&
	       !put_file(DEBUGFS "failslab/probability", percent) ? 0 : -1;
}
static void run_hotplug(long a) { (void)a; hotplug_cycler(); }
static void run_unshare(long a) { (void)a; unshare_loop(); }

int main(int argc, char **argv)
{
	const char *img = "/ext2.img", *percent = NULL;
	double minutes = argc > 1 ? atof(argv[1]) : 10;
	pid_t pids[256];
	int np = 0, i, st, bad = 0, fd, in;
	char buf[65536];
	ssize_t k;
	double end, next;
	long created[2] = { 0, 0 }, found[2], uncertain[2];
	int leaks = -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 2; i < argc; i++)
		if (!strncmp(argv[i], "faults=", 7))
			percent = argv[i] + 7;
		else
			img = argv[i];
	if (percent) {
		mkdir("/sys/kernel/debug", 0755);
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (!access(DEBUGFS "kmemleak", W_OK)) {
			/* scans on demand; what boot left is not the soak's */
			put_file(DEBUGFS "kmemleak", "scan=off");
			kmemleak_report("op=boot alloc=none");
		}
		if (faults_on(percent)) {
			printf("SOAK result: FAIL (no failslab in debugfs)\n");
			return 1;
		}
		faulty = 1;
	}
	read_cpus();
	nw = ncpus < MAXW ? ncpus : MAXW;
	setup_root();
	cs = shm(sizeof(*cs));
	ms = shm(sizeof(*ms));
	/* the remounters pause 1 ms between calls: the writers get to run */
	pools[0] = new_pool(path("t"), 1000);
	pools[1] = new_pool(path("e"), 1000);
	CHECK(mnt_tmpfs(pools[0]->dir) == 0, "mount tmpfs");

	/* the ext2 image onto /dev/ram0, mounted */
	in = open(img, O_RDONLY);
	fd = open("/dev/ram0", O_WRONLY);
	CHECK(in >= 0 && fd >= 0, "open %s and /dev/ram0", img);
	while (in >= 0 && fd >= 0 && (k = read(in, buf, sizeof(buf))) > 0)
		CHECK(write(fd, buf, k) == k, "copy image");
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	if (in >= 0)
		close(in);
	mkdir(pools[1]->dir, 0755);
	CHECK(mount("/dev/ram0", pools[1]->dir, "ext2", 0, NULL) == 0,
	      "mount ext2 /dev/ram0");
	CHECK(make_chain(8) == 0, "chain of 8 mounts");
	if (failures) {
		printf("SOAK result: FAIL (setup)\n");
		return 1;
	}
	note("soak: %.1f minutes on %d cpus%s%s%s", minutes, ncpus,
	     percent ? ", failslab at " : "", percent ? percent : "",
	     percent ? "% for the writers and pty opens" : "");

	for (i = 0; i < nw; i++) {
		pids[np++] = spawn(run_writer, 0 * MAXW + i, cpus[i]);
		pids[np++] = spawn(run_writer, 1 * MAXW + i, cpus[i]);
		pids[np++] = spawn(run_walker, i, cpus[i]);
		pids[np++] = spawn(run_pty, i, cpus[i]);
	}
	pids[np++] = spawn(run_remounter, 0, -1);
	pids[np++] = spawn(run_remounter, 1, -1);
	pids[np++] = spawn(run_mount_writer, 0, -1);
	pids[np++] = spawn(run_hotplug, 0, 0);
	pids[np++] = spawn(run_unshare, 0, -1);

	end = now() + minutes * 60;
	next = now() + 60;
	while (now() < end) {
		sleep(1);
		if (now() >= next) {
			long o = pool_sum(pools[0]->ops, nw) +
				 pool_sum(pools[1]->ops, nw);

			note("soak: %.0f s left; %ld opens, %ld remounts, %ld hotplug, %ld unshare",
			     end - now(), o,
			     pools[0]->remount_ok + pools[0]->remount_busy +
			     pools[1]->remount_ok + pools[1]->remount_busy,
			     cs->hotplug, cs->unshare);
			next += 60;
		}
	}
	cs->stop = 1;
	ms->stop = 1;
	pools[0]->stop = 1;
	pools[1]->stop = 1;
	for (i = 0; i < np; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			printf("# FAIL worker %d: status %d\n", i, st);
			bad++;
		}
	}

	/* final accounting, nothing failed on purpose any more */
	if (faulty)
		put_file(DEBUGFS "failslab/probability", "0");
	sync();
	for (i = 0; i < 2; i++) {
		created[i] = pool_sum(pools[i]->created, nw);
		uncertain[i] = pool_sum(pools[i]->uncertain, nw);
		CHECK(remount(pools[i]->dir, 1) == 0,
		      "final remount ro of %s", pools[i]->dir);
		found[i] = count_files(pools[i]->dir);
		CHECK(found[i] >= created[i] &&
		      found[i] <= created[i] + uncertain[i],
		      "%s: %ld files created (%ld more may be), %ld found",
		      pools[i]->dir, created[i], uncertain[i], found[i]);
	}
	check_mountinfo();
	drop_chain();
	CHECK(umount(pools[1]->dir) == 0, "umount ext2");
	CHECK(umount(pools[0]->dir) == 0, "umount tmpfs");
	CHECK(count_mounts_under(path("")) == 0 ||
	      count_mounts_under(path("")) == -1, "everything unmounted");
	{
		long o[2] = { 0, 0 }, rofs[2] = { 0, 0 }, walks = 0;

		for (i = 0; i < 2; i++) {
			o[i] = pool_sum(pools[i]->ops, nw);
			rofs[i] = pool_sum(pools[i]->erofs, nw);
		}
		for (i = 0; i < nw; i++)
			walks += ms->lookups[i];
		printf("SOAK ops: tmpfs_open=%ld tmpfs_erofs=%ld tmpfs_remount_ro=%ld tmpfs_remount_busy=%ld "
		       "ext2_open=%ld ext2_erofs=%ld ext2_remount_ro=%ld ext2_remount_busy=%ld "
		       "files_tmpfs=%ld/%ld files_ext2=%ld/%ld walks=%ld mount_cycles=%ld "
		       "pty=%ld hotplug=%ld hotplug_fail=%ld unshare=%ld\n",
		       o[0], rofs[0], pools[0]->remount_ok, pools[0]->remount_busy,
		       o[1], rofs[1], pools[1]->remount_ok, pools[1]->remount_busy,
		       found[0], created[0], found[1], created[1], walks,
		       ms->lookups[63], cs->pty, cs->hotplug, cs->hotplug_fail,
		       cs->unshare);
	}
	if (faulty) {
		leaks = kmemleak_report("op=soak alloc=failslab");
		printf("SOAK faults: failslab %s%% files_uncertain=%ld/%ld kmemleak=%d\n",
		       percent, uncertain[0], uncertain[1], leaks);
		if (leaks == -2)
			failures++;	/* kmemleak's report unreadable */
	}
	dump_image("/dev/ram0");
	teardown_root();
	if (bad || failures)
		printf("SOAK result: FAIL (%d workers, %d checks)\n", bad,
		       failures);
	else
		printf("SOAK result: PASS\n");
	return bad || failures;
}
