/*
 * ttyfail: fail each allocation of a tty open in turn, with another opener
 * holding the tty, and check that the other opener does not notice.
 *
 *   ttyfail [SERIAL_DEV]      (default /dev/ttyS2: a port nothing else uses)
 *
 * For each target (a serial port, a pts slave, /dev/ptmx) a first opener
 * holds the tty; then, run after run, a child marks itself with
 * /proc/self/make-it-fail and opens the target once more, while failslab
 * (task-filter=Y probability=100 interval=1 times=1 ignore-gfp-wait=N)
 * fails the first allocation that does not fit the budget 'space'.  The
 * budget grows by 8 bytes a run from 4096 (getname() takes 4096 first),
 * so each allocation on the open path fails in turn, until a run opens
 * with nothing failed.  After every run: the open succeeded or failed
 * with a clean errno, the first opener still writes (and, on a pty, its
 * master reads what it wrote and sees no hangup), and the kernel printed
 * no tty count or port count complaint.  Prints TAP.
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
#define SPACE0	4096
#define STEP	8
#define MAXRUNS	1024

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
	while ((p = strstr(p, "] ")) != NULL) {
		const char *sym = p + 2;
		size_t n = strcspn(sym, "+\n ");
		int skipped = 0;

		p = sym;
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

/* One run: a marked child opens the target; its errno, or 0. */
static int run_once(const char *path, int space, int *injected)
{
	char val[16];
	int st, mark;
	pid_t pid;

	snprintf(val, sizeof(val), "%d", space);
	if (put("space", val) || put("times", "1"))
		return -1000;
	klog_take();
	pid = fork();
	if (pid == 0) {
		int fd, err = 0;

		mark = open("/proc/self/make-it-fail", O_WRONLY);
		if (mark < 0 || write(mark, "1", 1) != 1)
			_exit(200);
		fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			err = errno;
		/* close and exit unmarked: only the open is under test */
		if (write(mark, "0", 1) != 1)
			_exit(201);
		if (fd >= 0)
			close(fd);
		_exit(err);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1001;
	*injected = get("times") == 0;
	return WEXITSTATUS(st);
}

static void sweep(struct target *t)
{
	int space, runs = 0, failures = 0, bad_errno = 0, holder_bad = 0;
	int complaints_seen = 0, done = 0;
	char sites[1024] = "", errnos[256] = "";

	for (space = SPACE0; runs < MAXRUNS; space += STEP, runs++) {
		int injected = 0, err;
		char site[64], item[96];

		err = run_once(t->path, space, &injected);
		if (err <= -1000 || err >= 200) {
			printf("# %s: run machinery failed (%d)\n", t->name, err);
			bad_errno++;
			break;
		}
		klog_take();
		complaints_seen += complain(klog, t->name, space);
		if (!holder_ok(t)) {
			printf("# %s space=%d: the first opener is broken\n",
			       t->name, space);
			holder_bad++;
		}
		if (!injected) {
			if (err == 0) {
				done = 1;
				break;
			}
			printf("# %s space=%d: open failed with %s, nothing injected\n",
			       t->name, space, strerror(err));
			bad_errno++;
			continue;
		}
		failures++;
		failed_site(klog, site, sizeof(site));
		/* ENOMEM, or success when the failure was absorbed */
		if (err != 0 && err != ENOMEM) {
			printf("# %s space=%d: open failed with %s at %s\n",
			       t->name, space, strerror(err), site);
			bad_errno++;
		}
		snprintf(item, sizeof(item), " %s:%s", site,
			 err ? "ENOMEM" : "ok");
		if (!strstr(sites, item) &&
		    strlen(sites) + strlen(item) < sizeof(sites))
			strcat(sites, item);
		snprintf(item, sizeof(item), " %s", err ? strerror(err) : "0");
		if (!strstr(errnos, item) &&
		    strlen(errnos) + strlen(item) < sizeof(errnos))
			strcat(errnos, item);
	}
	printf("# %s: %d runs, %d allocations failed, site:result%s\n",
	       t->name, runs + done, failures, sites);
	tap(done && failures > 0,
	    "%s: every allocation of the open failed in turn (%d), then a run with none",
	    t->name, failures);
	tap(!bad_errno, "%s: each failed open returned a clean errno:%s",
	    t->name, errnos[0] ? errnos : " none");
	tap(!holder_bad, "%s: the first opener still writes%s", t->name,
	    t->master >= 0 ? ", its master reads and sees no hangup" : "");
	tap(!complaints_seen, "%s: no tty count, port count or other kernel complaint",
	    t->name);
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
	int second, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(serial.path, sizeof(serial.path), "%s",
		 argc > 1 ? argv[1] : "/dev/ttyS2");
	printf("TAP version 13\n1..15\n");

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
	ptmx.holder = pts.holder;
	ptmx.master = pts.master;
	snprintf(ptmx.path, sizeof(ptmx.path), "/dev/ptmx");
	sweep(&ptmx);
	put("times", "0");
	printf("# ttyfail: %d of %d failed\n", nfail, ntest);
	return nfail ? 1 : 0;
}
