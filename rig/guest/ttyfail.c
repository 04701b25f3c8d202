/*
 * ttyfail: fail each allocation of a tty open in turn, with another opener
 * holding the tty, and check that the other opener does not notice.
 *
 *   ttyfail [SERIAL_DEV [ptmx]]   (default /dev/ttyS2: a port nothing else
 *                                   uses; "ptmx": sweep /dev/ptmx too)
 *
 * The /dev/ptmx sweep is opt-in: on rc1 (base and patched alike) a failed
 * d_alloc_name() in devpts_pty_new() is taken for success, d_add(NULL)
 * oopses with the devpts root's i_mutex held, and the guest hangs.
 *
 * For each target (a serial port, a pts slave, /dev/ptmx) a first opener
 * holds the tty; then, run after run, a child marks itself with
 * /proc/self/make-it-fail and opens the target once more, while failslab
 * (task-filter=Y probability=100 interval=1 times=1 ignore-gfp-wait=N)
 * fails the first allocation that does not fit the budget 'space'.  The
 * budget is searched (see sweep()) so that each allocation on the open
 * path fails in turn, until a run opens with nothing failed.  After every
 * run: the open succeeded or failed with a clean errno (ENOMEM, or ENFILE
 * where the file itself cannot be allocated, as rc1 reports it), the
 * first opener still writes (and, on a pty, its master reads what it
 * wrote and sees no hangup), and the kernel printed no tty count or port
 * count complaint.  Prints TAP, and one line
 * per target with each failed site and what the open returned.
 *
 * Needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define FS	"/sys/kernel/debug/failslab/"
#define STEP	8
#define MAXRUNS	2000

static int ntest;
static int nfail;

static void tap(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		nfail++;
}

static int put(const char *file, const char *val)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), FS "%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static long get(const char *file)
{
	char path[128], buf[32];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), FS "%s", file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The kernel log since the last call (read and cleared). */
static char klog[1 << 18];

static const char *klog_take(void)
{
	int n = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, klog,
			sizeof(klog) - 1);

	klog[n > 0 ? n : 0] = '\0';
	return klog;
}

/* Lines of the kernel log that say the tty layer lost count. */
static const char *const complaints[] = {
	"tty->count", "bad serial port count", "BUG", "WARNING:", "Oops",
	"list_add corruption", "list_del corruption", "INFO: possible",
	"inconsistent lock state", NULL
};

static int complain(const char *log, const char *target, int space)
{
	const char *const *c;
	const char *p;
	int n = 0;

	for (c = complaints; *c; c++) {
		p = strstr(log, *c);
		if (!p)
			continue;
		while (p > log && p[-1] != '\n')
			p--;
		printf("# %s space=%d kernel: %.*s\n", target, space,
		       (int)strcspn(p, "\n"), p);
		n++;
	}
	return n;
}

/*
 * The function whose allocation failslab failed: the first frame of the
 * injected failure's stack that is not the allocator or fault injection.
 */
static void failed_site(const char *log, char *site, size_t len)
{
	static const char *const skip[] = {
		"dump_stack", "should_fail", "should_failslab", "fail_dump",
		"kmem_cache_alloc", "__kmalloc", "kmalloc", "__slab_alloc",
		"slab_alloc", "kzalloc", "kmem_cache_zalloc", "kmalloc_node",
		"__kmalloc_node", "kmem_cache_alloc_node", "kmalloc_order",
		"trace_", NULL
	};
	const char *p = strstr(log, "FAULT_INJECTION: forcing a failure");
	const char *const *s;

	snprintf(site, len, "?");
	if (!p)
		return;
	/* " [<ffffffff8110a2b4>] tty_open+0x61/0x4e3", or "] ? sym" */
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

/* Write a few bytes through fd; 0 when all of them went. */
static int writes(int fd)
{
	const char msg[] = "ttyfail\n";
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

struct target {
	const char *name;
	char path[64];
	int holder;		/* the first opener */
	int master;		/* its pty master, or -1 */
};

/* The holder still works: it writes, and its master reads it unhung. */
static int holder_ok(struct target *t)
{
	char buf[64];
	struct pollfd pfd;
	int n;

	if (writes(t->holder))
		return 0;
	if (t->master < 0)
		return 1;
	pfd.fd = t->master;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 1000) != 1 || (pfd.revents & POLLHUP))
		return 0;
	n = read(t->master, buf, sizeof(buf));
	return n > 0;
}

/* What one run saw. */
struct run {
	int err;		/* the open's errno, or 0 */
	int injected;		/* failslab failed an allocation */
	long consumed;		/* budget spent before the failed one */
	char site[64];		/* the function that asked for it */
};

/* The tally of one target's sweep. */
struct tally {
	int runs, failures, bad_errno, holder_bad, complaints, broken;
	char sites[1024], errnos[256];
};

static void add_word(char *list, size_t len, const char *word)
{
	if (!strstr(list, word) && strlen(list) + strlen(word) < len)
		strcat(list, word);
}

/*
 * One run: a marked child opens the target with @budget; then check the
 * errno, the first opener and the kernel log.
 */
static void run_once(struct target *t, long budget, struct run *r,
		     struct tally *y)
{
	char val[24], item[96];
	int st, mark;
	long left;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	y->runs++;
	snprintf(val, sizeof(val), "%ld", budget);
	if (put("space", val) || put("times", "1")) {
		y->broken++;
		return;
	}
	klog_take();
	pid = fork();
	if (pid == 0) {
		int fd, err = 0;

		mark = open("/proc/self/make-it-fail", O_WRONLY);
		if (mark < 0 || write(mark, "1", 1) != 1)
			_exit(200);
		fd = open(t->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			err = errno;
		/* close and exit unmarked: only the open is under test */
		if (write(mark, "0", 1) != 1)
			_exit(201);
		if (fd >= 0)
			close(fd);
		_exit(err);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) >= 200) {
		y->broken++;
		return;
	}
	r->err = WEXITSTATUS(st);
	r->injected = get("times") == 0;
	left = get("space");
	r->consumed = budget - left;
	klog_take();
	y->complaints += complain(klog, t->name, budget);
	if (!holder_ok(t)) {
		printf("# %s space=%ld: the first opener is broken\n",
		       t->name, budget);
		y->holder_bad++;
	}
	if (!r->injected) {
		if (r->err) {
			printf("# %s space=%ld: open failed with %s, nothing injected\n",
			       t->name, budget, strerror(r->err));
			y->bad_errno++;
		}
		return;
	}
	failed_site(klog, r->site, sizeof(r->site));
	/* ENOMEM or ENFILE, or success when the failure was absorbed */
	if (r->err && r->err != ENOMEM && r->err != ENFILE) {
		printf("# %s space=%ld: open failed with %s at %s\n",
		       t->name, budget, strerror(r->err), r->site);
		y->bad_errno++;
	}
	snprintf(item, sizeof(item), " %s", r->err ? strerror(r->err) : "0");
	add_word(y->errnos, sizeof(y->errnos), item);
}

/*
 * Fail each allocation of the open in turn.  An allocation is known by
 * the budget spent before it (consumed).  From a budget at which it fails,
 * gallop upward until it passes, then bisect for the smallest budget at
 * which it passes: there the next allocation gets a budget of one byte,
 * and fails, so that no allocation is skipped.
 */
static void sweep(struct target *t)
{
	struct tally y;
	struct run r, q;
	long lo = 0, hi, step;

	memset(&y, 0, sizeof(y));
	run_once(t, lo, &r, &y);
	while (r.injected && !y.broken && y.runs < MAXRUNS) {
		char item[96];

		y.failures++;
		snprintf(item, sizeof(item), " %s:%s", r.site,
			 r.err == ENOMEM ? "ENOMEM" : r.err == ENFILE ?
			 "ENFILE" : r.err ? "other" : "ok");
		add_word(y.sites, sizeof(y.sites), item);
		for (step = STEP;; step *= 2) {
			hi = lo + step;
			run_once(t, hi, &q, &y);
			if (y.broken || !q.injected || q.consumed > r.consumed)
				break;
			lo = hi;
		}
		while (!y.broken && hi - lo > 1) {
			long mid = lo + (hi - lo) / 2;

			run_once(t, mid, &q, &y);
			if (!q.injected || q.consumed > r.consumed)
				hi = mid;
			else
				lo = mid;
		}
		lo = hi;
		run_once(t, lo, &r, &y);
	}
	printf("# %s: %d runs, %d allocations failed in turn, site:result%s\n",
	       t->name, y.runs, y.failures, y.sites);
	tap(!y.broken && !r.injected && !r.err && y.failures > 0,
	    "%s: each allocation of the open failed in turn (%d), then it opened",
	    t->name, y.failures);
	tap(!y.bad_errno, "%s: each failed open returned a clean errno:%s",
	    t->name, y.errnos[0] ? y.errnos : " none");
	tap(!y.holder_bad, "%s: the first opener still writes%s", t->name,
	    t->master >= 0 ? ", its master reads and sees no hangup" : "");
	tap(!y.complaints,
	    "%s: no tty count, port count or other kernel complaint", t->name);
}

/* The four lines sweep() would print, failed: the target did not open. */
static void not_swept(struct target *t)
{
	int i;

	for (i = 0; i < 4; i++)
		tap(0, "%s: not swept, its first opener did not open", t->name);
}

static int open_pty(struct target *t)
{
	int n, unlock = 0;

	t->master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (t->master < 0)
		return -1;
	if (ioctl(t->master, TIOCSPTLCK, &unlock) ||
	    ioctl(t->master, TIOCGPTN, &n))
		return -1;
	snprintf(t->path, sizeof(t->path), "/dev/pts/%d", n);
	t->holder = open(t->path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (t->holder < 0)
		return -1;
	/* raw: what the slave writes reaches the master as it is */
	{
		struct termios tio;

		if (tcgetattr(t->holder, &tio) == 0) {
			cfmakeraw(&tio);
			tcsetattr(t->holder, TCSANOW, &tio);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct target serial = { .name = "serial", .master = -1 };
	struct target pts = { .name = "pts", .holder = -1, .master = -1 };
	struct target ptmx = { .name = "ptmx", .master = -1 };
	int second, ok, with_ptmx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(serial.path, sizeof(serial.path), "%s",
		 argc > 1 ? argv[1] : "/dev/ttyS2");
	with_ptmx = argc > 2 && !strcmp(argv[2], "ptmx");
	printf("TAP version 13\n1..%d\n", with_ptmx ? 15 : 11);

	mkdir("/sys/kernel/debug", 0755);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mkdir("/dev/pts", 0755);
	mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666");
	ok = !put("task-filter", "Y") && !put("probability", "100") &&
	     !put("interval", "1") && !put("ignore-gfp-wait", "N") &&
	     !put("verbose", "2") && !put("times", "0");
	tap(ok, "failslab configured (task-filter, probability 100, interval 1)");
	if (!ok) {
		printf("Bail out! no " FS " (CONFIG_FAILSLAB, DEBUG_FS)\n");
		return 1;
	}

	/* A serial port with two openers, as /init's console has. */
	serial.holder = open(serial.path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	second = open(serial.path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	tap(serial.holder >= 0 && second >= 0 && holder_ok(&serial),
	    "serial: %s opened twice and writes", serial.path);
	if (serial.holder >= 0 && second >= 0)
		sweep(&serial);
	else
		not_swept(&serial);

	tap(open_pty(&pts) == 0 && holder_ok(&pts),
	    "pts: a slave open with its master, writes reach the master");
	if (pts.holder >= 0)
		sweep(&pts);
	else
		not_swept(&pts);

	/* /dev/ptmx: every open makes a new pair; the holder is the pts one */
	if (with_ptmx) {
		ptmx.holder = pts.holder;
		ptmx.master = pts.master;
		snprintf(ptmx.path, sizeof(ptmx.path), "/dev/ptmx");
		sweep(&ptmx);
	}
	put("times", "0");
	printf("# ttyfail: %d of %d failed\n", nfail, ntest);
	return nfail ? 1 : 0;
}
