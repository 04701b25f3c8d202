/*
 * faultsweep: fail each allocation of an operation in turn, on purpose, and
 * check that nothing else notices.
 *
 *   faultsweep [failslab] [fail_page_alloc] [OP...]
 *
 * OPs (default, or "all": every one but the module): open (+close) of a
 * file on a fresh tmpfs, tmpfs (mount+umount), bindtree (a recursive bind
 * of 8 mounts + its umount), remount (ro and back, files open), unshare
 * (CLONE_NEWNS), the open (not the close) of ptmx, of a pts slave or of a
 * serial port that another descriptor holds, and of /dev/tty; and
 * module=PATH.KO (init_module + delete_module of lglock_torture, the
 * lglock torture module, whose load starts a run that the unload ends).
 * Allocators: failslab, then fail_page_alloc (default: both).  The serial
 * port is /dev/ttyS2 (a -serial of its own).  ptmx needs rig/compat's
 * devpts basefix: rc1 oopses when devpts_pty_new()'s d_alloc_name() fails.
 *
 * For each operation and allocator a sweep runs the operation again and
 * again in a child that marks itself with /proc/self/make-it-fail, with
 * the fault attribute at task-filter=Y probability=100 interval=1 times=1
 * (failslab: ignore-gfp-wait=N; fail_page_alloc: ignore-gfp-wait=N,
 * min-order=0, highmem spared so that user page faults cannot fail).  The
 * attribute fails the first allocation that does not fit its budget
 * 'space'; the budget is searched (sweep()) so that each allocation of the
 * operation fails in turn, until a run completes with nothing failed.
 * After each run:
 *  - the operation succeeded or failed with ENOMEM (ENFILE where the file
 *    itself cannot be allocated, as this kernel says it);
 *  - what other descriptors see is as before: /proc/self/mountinfo, the
 *    first opener of a tty (it writes; a pty's master reads it, unhung), a
 *    remount,ro refused while a writer is open, the fresh filesystem of an
 *    open umounts (no file left behind);
 *  - the kernel log has no oops, BUG, WARNING, lockdep, list-debug, slab
 *    or debug-objects report, and no tty count complaint.
 * After each sweep, with CONFIG_DEBUG_KMEMLEAK: a kmemleak scan, whose
 * unreferenced objects are counted and named by allocation site, then
 * cleared.  The slab caches of the checkers themselves (kmemleak's and
 * debug objects') are spared through failslab's cache-filter: a failure
 * there would turn the checker off.
 *
 * Output: TAP (4 lines a sweep), "# ..." details, and one machine line a
 * sweep for rig/report-kernel-test.sh:
 *   SWEEP op=OP alloc=ALLOC runs=N failed=N errnos=E,.. reports=N
 *         others=N leaks=N sites=SITE:RESULT,..
 *   LEAK op=OP alloc=ALLOC site=FUNCTION size=BYTES
 * Needs CONFIG_FAULT_INJECTION_DEBUG_FS and FAILSLAB / FAIL_PAGE_ALLOC.
 */
#include "vfsload.h"
#include <poll.h>
#include <termios.h>

#define DBG	DEBUGFS
#define LEAKS	DBG "kmemleak"
#define STEP	8
#define MAXRUNS	6000

static const char *attr;	/* "failslab" or "fail_page_alloc" */

static int put(const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), DBG "%s/%s", attr, file);
	return put_file(path, val);
}

static long get(const char *file)
{
	char path[128];

	snprintf(path, sizeof(path), DBG "%s/%s", attr, file);
	return get_file(path);
}

static const char *const complaints[] = {
#include "kernel-reports.h"
	/* and what only a sweep of failing allocations must not see */
	"tty->count", "bad serial port count", "Out of memory", NULL
};

static int complain(const char *log, const char *what, long space)
{
	char who[96];

	snprintf(who, sizeof(who), "%.40s %.16s space=%ld", what, attr, space);
	return klog_complaints(log, complaints, who);
}

/*
 * The first frame of a stack ("[<ffffffff8110a2b4>] tty_open+0x61/0x4e3")
 * after @from that is not the allocator, fault injection or kmemleak.
 */
static void first_caller(const char *from, char *site, size_t len)
{
	static const char *const skip[] = {
		"dump_stack", "should_fail", "fail_dump", "kmem_cache_",
		"__kmalloc", "kmalloc", "__slab_alloc", "slab_alloc",
		"kzalloc", "trace_", "kmemleak_", "create_object",
		"alloc_pages", "__alloc_pages", "__get_free_pages",
		"get_zeroed_page", "alloc_slab_page", "allocate_slab",
		"new_slab", "__get_free_page", "alloc_page", NULL
	};
	const char *p = from;
	const char *const *s;

	snprintf(site, len, "?");
	while ((p = strstr(p, "[<")) != NULL && (p = strstr(p, ">] ")) != NULL) {
		const char *sym = p + 3;
		size_t n = strcspn(sym, "+\n ");
		int skipped = 0;

		p = sym;
		if (sym[0] == '?')	/* not a frame of this call chain */
			continue;
		for (s = skip; *s; s++)
			if (!strncmp(sym, *s, strlen(*s)))
				skipped = 1;
		if (skipped || n == 0)
			continue;
		snprintf(site, len, "%.*s", (int)n, sym);
		return;
	}
}

/* ---- the operations ---- */

struct tty_pair {
	char path[64];
	int holder;		/* the first opener */
	int master;		/* its pty master, or -1 */
};

static struct tty_pair serial = { "/dev/ttyS2", -1, -1 };
static struct tty_pair pts = { "", -1, -1 };
static struct tty_pair ctty = { "", -1, -1 };
static char module_path[128];

/* Write a few bytes through fd; 0 when all of them went. */
static int writes(int fd)
{
	const char msg[] = "faultsweep\n";
	int tries;

	for (tries = 0; tries < 50; tries++) {
		ssize_t n = write(fd, msg, sizeof(msg) - 1);

		if (n == (ssize_t)sizeof(msg) - 1)
			return 0;
		if (n < 0 && errno != EAGAIN)
			return -1;
		usleep(10000);
	}
	return -1;
}

/* The first opener still works: it writes, its master reads it unhung. */
static int holder_ok(struct tty_pair *t)
{
	char buf[64];
	struct pollfd pfd;

	if (t->holder < 0 || writes(t->holder))
		return 0;
	if (t->master < 0)
		return 1;
	pfd.fd = t->master;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 1000) != 1 || (pfd.revents & POLLHUP))
		return 0;
	return read(t->master, buf, sizeof(buf)) > 0;
}

static int open_pty(struct tty_pair *t)
{
	struct termios tio;
	int n, unlock = 0;

	t->master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (t->master < 0 || ioctl(t->master, TIOCSPTLCK, &unlock) ||
	    ioctl(t->master, TIOCGPTN, &n))
		return -1;
	snprintf(t->path, sizeof(t->path), "/dev/pts/%d", n);
	t->holder = open(t->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (t->holder < 0)
		return -1;
	/* raw: what the slave writes reaches the master as it is */
	if (tcgetattr(t->holder, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(t->holder, TCSANOW, &tio);
	}
	return holder_ok(t) ? 0 : -1;
}

static int mnt(const char *dir)
{
	mkdir(dir, 0755);
	return mount("tmpfs", dir, "tmpfs", 0, "size=1m");
}

/* Take every mount off @dir (unmarked, after a run). */
static void unmount_all(const char *dir)
{
	while (umount2(dir, MNT_DETACH) == 0)
		;
}

static int err_of(int ret)
{
	return ret < 0 ? errno : 0;
}

/* open: a regular file on a filesystem where nothing was open yet */
static int open_pre(void)
{
	return mnt("/mnt/fo") || mknod("/mnt/fo/f", S_IFREG | 0644, 0);
}

static int open_run(void)
{
	int fd = open("/mnt/fo/f", O_RDWR);

	if (fd < 0)
		return errno;
	return err_of(close(fd));
}

/* the filesystem goes: no file of a failed open stays behind on it */
static int open_post(void)
{
	return umount("/mnt/fo");
}

static int tmpfs_setup(void)
{
	return mkdir("/mnt/ft", 0755) && errno != EEXIST ? -1 : 0;
}

static int tmpfs_run(void)
{
	if (mount("tmpfs", "/mnt/ft", "tmpfs", 0, "size=1m"))
		return errno;
	return err_of(umount("/mnt/ft"));
}

static void tmpfs_undo(void)
{
	unmount_all("/mnt/ft");
}

/* A tree of 8 mounts under /mnt/bt, bound recursively at /mnt/bb. */
static int bindtree_setup(void)
{
	static const char *const dirs[] = {
		"/mnt/bt", "/mnt/bt/a", "/mnt/bt/a/x", "/mnt/bt/a/y",
		"/mnt/bt/b", "/mnt/bt/b/x", "/mnt/bt/c", "/mnt/bt/c/x", NULL
	};
	const char *const *d;

	for (d = dirs; *d; d++)
		if (mnt(*d))
			return -1;
	return mkdir("/mnt/bb", 0755) && errno != EEXIST ? -1 : 0;
}

static int bindtree_run(void)
{
	if (mount("/mnt/bt", "/mnt/bb", NULL, MS_BIND | MS_REC, NULL))
		return errno;
	return err_of(umount2("/mnt/bb", MNT_DETACH));
}

static void bindtree_undo(void)
{
	unmount_all("/mnt/bb");
}

/* remount,ro and back, with files open for reading on it */
static int rm_reader = -1;

static int remount_setup(void)
{
	int fd;

	if (mnt("/mnt/fr"))
		return -1;
	fd = open("/mnt/fr/a", O_RDWR | O_CREAT, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
		return -1;
	rm_reader = open("/mnt/fr/a", O_RDONLY);
	return rm_reader < 0 ? -1 : 0;
}

static int remount_run(void)
{
	if (mount(NULL, "/mnt/fr", NULL, MS_REMOUNT | MS_RDONLY, NULL))
		return errno;
	return err_of(mount(NULL, "/mnt/fr", NULL, MS_REMOUNT, NULL));
}

static void remount_undo(void)
{
	mount(NULL, "/mnt/fr", NULL, MS_REMOUNT, NULL);
}

/* the reader reads, and a writer still keeps remount,ro away */
static int remount_check(void)
{
	char c;
	int w, busy;

	if (pread(rm_reader, &c, 1, 0) != 1)
		return -1;
	w = open("/mnt/fr/b", O_WRONLY | O_CREAT, 0644);
	if (w < 0)
		return -1;
	busy = mount(NULL, "/mnt/fr", NULL, MS_REMOUNT | MS_RDONLY, NULL)
		&& errno == EBUSY;
	close(w);
	if (!busy)
		mount(NULL, "/mnt/fr", NULL, MS_REMOUNT, NULL);
	return busy ? 0 : -1;
}

static int unshare_run(void)
{
	return err_of(unshare(CLONE_NEWNS));
}

/*
 * A tty's open, marked; its close comes after the mark (tty_close()), as
 * only the open is under test: rc1's hangup on the last close of a pty
 * cannot fail (tty_ldisc_reinit() BUG()s when its allocation does).
 */
static int tty_fd = -1;

static int tty_open(const char *path)
{
	tty_fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	return tty_fd < 0 ? errno : 0;
}

static void tty_close(void)
{
	if (tty_fd >= 0)
		close(tty_fd);
	tty_fd = -1;
}

static int serial_setup(void)
{
	/* two openers, as a console has */
	serial.holder = open(serial.path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (open(serial.path, O_RDWR | O_NOCTTY | O_NONBLOCK) < 0)
		return -1;
	return holder_ok(&serial) ? 0 : -1;
}

static int serial_run(void)
{
	return tty_open(serial.path);
}

static int serial_check(void)
{
	return holder_ok(&serial) ? 0 : -1;
}

static int pts_setup(void)
{
	return pts.holder >= 0 ? 0 : open_pty(&pts);
}

static int pts_run(void)
{
	return tty_open(pts.path);
}

static int pts_check(void)
{
	return holder_ok(&pts) ? 0 : -1;
}

static int ptmx_run(void)
{
	return tty_open("/dev/ptmx");
}

static int ctty_setup(void)
{
	return open_pty(&ctty);
}

/* before the mark: a session of its own with the pts as its tty */
static int ctty_pre_child(void)
{
	if (setsid() < 0)
		return -1;
	return open(ctty.path, O_RDWR | O_NONBLOCK) < 0 ? -1 : 0;
}

static int ctty_run(void)
{
	return tty_open("/dev/tty");
}

static int ctty_check(void)
{
	return holder_ok(&ctty) ? 0 : -1;
}

static char modbuf[1 << 20];
static ssize_t modlen;

static int module_setup(void)
{
	modlen = slurp(module_path, modbuf, sizeof(modbuf));
	return modlen > 0 ? 0 : -1;
}

static int module_run(void)
{
	if (syscall(SYS_init_module, modbuf, (unsigned long)modlen, ""))
		return errno;
	return err_of(syscall(SYS_delete_module, "lglock_torture", O_NONBLOCK));
}

static void module_undo(void)
{
	syscall(SYS_delete_module, "lglock_torture", O_NONBLOCK);
}

struct op {
	const char *name;
	const char *ok_errnos;		/* besides ENOMEM: " ENFILE" */
	int (*setup)(void);		/* parent, once */
	int (*pre)(void);		/* parent, before each run */
	int (*pre_child)(void);		/* child, before the mark */
	int (*run)(void);		/* child, marked: 0 or an errno */
	void (*undo)(void);		/* child, unmarked: put things back */
	int (*post)(void);		/* parent, after each run */
	int (*check)(void);		/* parent: others see no change */
	int by_default;
};

static struct op ops[] = {
	{ "open", " ENFILE", .pre = open_pre, .run = open_run,
	  .post = open_post, .by_default = 1 },
	{ "tmpfs", "", .setup = tmpfs_setup, .run = tmpfs_run,
	  .undo = tmpfs_undo, .by_default = 1 },
	{ "bindtree", "", .setup = bindtree_setup, .run = bindtree_run,
	  .undo = bindtree_undo, .by_default = 1 },
	{ "remount", "", .setup = remount_setup, .run = remount_run,
	  .undo = remount_undo, .check = remount_check, .by_default = 1 },
	{ "unshare", "", .run = unshare_run, .by_default = 1 },
	{ "ptmx", " ENFILE", .setup = pts_setup, .run = ptmx_run,
	  .undo = tty_close, .check = pts_check, .by_default = 1 },
	{ "pts", " ENFILE", .setup = pts_setup, .run = pts_run,
	  .undo = tty_close, .check = pts_check, .by_default = 1 },
	{ "serial", " ENFILE", .setup = serial_setup, .run = serial_run,
	  .undo = tty_close, .check = serial_check, .by_default = 1 },
	{ "devtty", " ENFILE", .setup = ctty_setup, .pre_child = ctty_pre_child,
	  .run = ctty_run, .undo = tty_close, .check = ctty_check,
	  .by_default = 1 },
	{ "module", "", .setup = module_setup, .run = module_run,
	  .undo = module_undo },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* ---- the sweep ---- */

static char mounts_before[1 << 16], mounts_now[1 << 16];

/* What one run saw. */
struct run {
	int err;		/* the operation's errno, or 0 */
	int injected;		/* an allocation was failed */
	long consumed;		/* budget spent before the failed one */
	char site[64];		/* the function that asked for it */
};

/* The tally of one sweep. */
struct tally {
	int runs, failures, bad_errno, others, reports, broken;
	char sites[2048], errnos[256];
};

static void add_word(char *list, size_t len, const char *word)
{
	if (!strstr(list, word) && strlen(list) + strlen(word) + 1 < len)
		strcat(list, word);
}

static const char *errname(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "ok";
	case ENOMEM: return "ENOMEM";
	case ENFILE: return "ENFILE";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/* The stack of this run's injected failure, if any, in the log. */
static const char *injection(const char *log)
{
	return strstr(log, "FAULT_INJECTION: forcing a failure");
}

/* Touch a stretch of stack so that the marked part takes no page fault. */
static void prefault(void)
{
	volatile char pad[64 << 10];
	size_t i;

	for (i = 0; i < sizeof(pad); i += 4096)
		pad[i] = 0;
}

static void run_once(struct op *op, long budget, struct run *r,
		     struct tally *y)
{
	char val[24];
	int st;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	y->runs++;
	if (op->pre && op->pre()) {
		printf("# %s: could not prepare a run\n", op->name);
		y->broken++;
		return;
	}
	snprintf(val, sizeof(val), "%ld", budget);
	if (put("space", val) || put("times", "1")) {
		y->broken++;
		return;
	}
	klog_take();
	pid = fork();
	if (pid == 0) {
		int mark, err;

		if (op->pre_child && op->pre_child())
			_exit(202);
		prefault();
		mark = open("/proc/self/make-it-fail", O_WRONLY);
		if (mark < 0 || write(mark, "1", 1) != 1)
			_exit(200);
		err = op->run();
		if (write(mark, "0", 1) != 1)
			_exit(201);
		if (op->undo)
			op->undo();
		_exit(err);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) >= 200) {
		printf("# %s %s space=%ld: the child did not finish (%#x)\n",
		       op->name, attr, budget, st);
		y->broken++;
		put("times", "0");
		return;
	}
	put("times", "0");
	r->err = WEXITSTATUS(st);
	klog_take();
	r->injected = injection(klog) != NULL;
	r->consumed = budget - get("space");
	if (op->post && op->post()) {
		printf("# %s %s space=%ld: the run left something behind (%s)\n",
		       op->name, attr, budget, strerror(errno));
		y->others++;
		y->broken++;	/* the next runs would not start clean */
	}
	if (op->check && op->check()) {
		printf("# %s %s space=%ld: another opener sees a change\n",
		       op->name, attr, budget);
		y->others++;
	}
	if (slurp("/proc/self/mountinfo", mounts_now, sizeof(mounts_now)) < 0 ||
	    strcmp(mounts_now, mounts_before)) {
		printf("# %s %s space=%ld: the mount tree changed\n",
		       op->name, attr, budget);
		y->others++;
		memcpy(mounts_before, mounts_now, sizeof(mounts_now));
	}
	y->reports += complain(klog, op->name, budget);
	if (!r->injected) {
		if (r->err) {
			printf("# %s %s space=%ld: failed with %s, nothing injected\n",
			       op->name, attr, budget, errname(r->err));
			y->bad_errno++;
		}
		return;
	}
	first_caller(injection(klog), r->site, sizeof(r->site));
	if (r->err && r->err != ENOMEM &&
	    !strstr(op->ok_errnos, errname(r->err))) {
		printf("# %s %s space=%ld: failed with %s at %s\n",
		       op->name, attr, budget, errname(r->err), r->site);
		y->bad_errno++;
	}
	snprintf(val, sizeof(val), ",%s", errname(r->err));
	add_word(y->errnos, sizeof(y->errnos), val);
}

/*
 * Fail each allocation of the operation in turn.  An allocation is known
 * by the budget spent before it (consumed).  From a budget at which it
 * fails, gallop upward until it passes, then bisect for the smallest
 * budget at which it passes: there the next allocation gets a budget of
 * one unit, and fails, so that no allocation is skipped.
 */
static void sweep(struct op *op)
{
	struct tally y;
	struct run r, q;
	long lo = 0, hi, step;
	char what[64];
	int nleaks;

	memset(&y, 0, sizeof(y));
	snprintf(what, sizeof(what), "op=%s alloc=%s", op->name, attr);
	run_once(op, lo, &r, &y);
	while (r.injected && !y.broken && y.runs < MAXRUNS) {
		char item[96];

		y.failures++;
		snprintf(item, sizeof(item), ",%s:%s", r.site, errname(r.err));
		add_word(y.sites, sizeof(y.sites), item);
		for (step = STEP;; step *= 2) {
			hi = lo + step;
			run_once(op, hi, &q, &y);
			if (y.broken || !q.injected || q.consumed > r.consumed)
				break;
			lo = hi;
		}
		while (!y.broken && hi - lo > 1) {
			long mid = lo + (hi - lo) / 2;

			run_once(op, mid, &q, &y);
			if (!q.injected || q.consumed > r.consumed)
				hi = mid;
			else
				lo = mid;
		}
		lo = hi;
		run_once(op, lo, &r, &y);
	}
	nleaks = kmemleak_report(what);
	printf("SWEEP %s runs=%d failed=%d errnos=%s reports=%d others=%d leaks=%d sites=%s\n",
	       what, y.runs, y.failures, y.errnos[0] ? y.errnos + 1 : "-",
	       y.reports, y.others, nleaks, y.sites[0] ? y.sites + 1 : "-");
	tap(!y.broken && !r.injected && !r.err,
	    "%s %s: %d allocations failed in turn, then it completed",
	    op->name, attr, y.failures);
	tap(!y.bad_errno, "%s %s: every failure returned ENOMEM%s or success",
	    op->name, attr, op->ok_errnos);
	tap(!y.others, "%s %s: other descriptors and the mount tree saw no change",
	    op->name, attr);
	tap(!y.reports && nleaks != -2, "%s %s: no kernel report%s", op->name,
	    attr, nleaks == -2 ? " (but kmemleak's report was unreadable)" : "");
}

static int configure(void)
{
	int ok = !put("task-filter", "Y") && !put("probability", "100") &&
		 !put("interval", "1") && !put("ignore-gfp-wait", "N") &&
		 !put("verbose", "2") && !put("times", "0");

	if (!strcmp(attr, "fail_page_alloc"))
		return ok && !put("min-order", "0") &&
		       !put("ignore-gfp-highmem", "Y");
	return ok;
}

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "failslab", "fail_page_alloc" };
	int want_attr[2] = { 0, 0 }, want[NOPS], nwant = 0, had_leaks;
	unsigned int a, i;
	int j, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(want, 0, sizeof(want));
	for (j = 1; j < argc; j++) {
		for (a = 0; a < 2; a++)
			if (!strcmp(argv[j], attrs[a]))
				want_attr[a] = 1;
		if (!strncmp(argv[j], "module=", 7))
			snprintf(module_path, sizeof(module_path), "%s",
				 argv[j] + 7);
		for (i = 0; i < NOPS; i++)
			if (!strcmp(argv[j], ops[i].name) ||
			    (!strncmp(argv[j], "module=", 7) &&
			     !strcmp(ops[i].name, "module")) ||
			    (!strcmp(argv[j], "all") && ops[i].by_default))
				want[i] = 1;
	}
	for (i = 0; i < NOPS; i++)
		nwant += want[i];
	if (!nwant)
		for (i = 0; i < NOPS; i++)
			nwant += want[i] = ops[i].by_default;
	if (!want_attr[0] && !want_attr[1])
		want_attr[0] = want_attr[1] = 1;

	printf("TAP version 13\n1..%d\n",
	       2 + nwant + nwant * 4 * (want_attr[0] + want_attr[1]));
	mkdir("/sys/kernel/debug", 0755);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mkdir("/dev/pts", 0755);
	mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666");
	mkdir("/mnt", 0755);

	attr = "failslab";
	n = failslab_flag_caches();
	tap(n > 0, "failslab fails the slab caches but kmemleak's and debug objects' (%d caches)",
	    n);
	had_leaks = !access(LEAKS, W_OK);
	if (had_leaks) {
		/* scans on demand only; what boot left is not ours */
		put_file(LEAKS, "scan=off");
		n = kmemleak_report("op=boot alloc=none");
		printf("# kmemleak: %d objects unreferenced after boot, cleared\n",
		       n);
	}
	for (i = 0; i < NOPS; i++) {
		if (!want[i])
			continue;
		n = !ops[i].setup || !ops[i].setup();
		tap(n, "%s: set up", ops[i].name);
		want[i] = n ? 1 : -1;
	}
	if (slurp("/proc/self/mountinfo", mounts_before,
		  sizeof(mounts_before)) < 0) {
		printf("Bail out! no /proc/self/mountinfo\n");
		return 1;
	}
	for (a = 0; a < 2; a++) {
		if (!want_attr[a])
			continue;
		attr = attrs[a];
		if (!configure()) {
			printf("Bail out! no " DBG "%s\n", attr);
			return 1;
		}
		for (i = 0; i < NOPS; i++)
			if (want[i] > 0)
				sweep(&ops[i]);
			else if (want[i] < 0)
				for (j = 0; j < 4; j++)
					tap(0, "%s %s: not swept, its setup failed",
					    ops[i].name, attr);
	}
	/* an injected failure in kmemleak's own path would have stopped it */
	tap(!had_leaks || !put_file(LEAKS, "scan"),
	    "kmemleak %s at the end", had_leaks ? "still scans" : "not built in:");
	printf("# faultsweep: %d of %d failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}
