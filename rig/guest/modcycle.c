/*
 * modcycle: load and unload lglock_torture (the series' lglock torture
 * test, CONFIG_LGLOCK_TORTURE_TEST=m: kernel/lglock-torture.ko of the
 * build, which rig/guest.sh packs at /) again and again across CPU
 * hotplug.
 *
 *   modcycle [MODULE.ko [CYCLES]]   (default /lglock-torture.ko, 20 cycles)
 *
 * The module defines an lglock and a brlock; each load registers their
 * CPU hotplug notifiers and lockdep classes and starts a run in kthreads:
 * its checks, then every operation from many kthreads until the run's
 * duration is over or the module is unloaded, whichever comes first; the
 * run's last line is "lglock-torture: PASS" or "lglock-torture: FAIL".
 * Each unload must leave nothing behind.  A module cannot bring a CPU
 * online (cpu_up() is not exported), so the CPU hotplug is done here.  The
 * cycles take turns at four ways:
 *
 *   all-online       load with duration=2 and every CPU online, wait for
 *                    the run's last line, unload, then take a CPU offline
 *                    and back;
 *   offline          take a CPU offline, load with duration=2, wait for
 *                    the last line, unload, bring the CPU back;
 *   unload-offline   load with duration=600, try a second load (EEXIST),
 *                    wait for the run's stress phase, take a CPU offline
 *                    under its kthreads, unload while it is offline (which
 *                    ends the run), bring it back;
 *   online-loaded    take a CPU offline, load with duration=600, wait for
 *                    the stress phase, bring the CPU back and take it down
 *                    and up once more under the running kthreads, unload.
 *
 * Each cycle passes when every load and unload returned 0, the run printed
 * one "lglock-torture: PASS" line, /proc/modules listed the module while
 * it was loaded and not after, every hotplug write took effect, and the
 * kernel log (read and cleared with klogctl) has no BUG, WARNING, Oops,
 * lockdep report or "lglock-torture: FAIL".  At the end: lglock_torture is
 * not in /proc/modules and every CPU is online (whatever failed).  Prints
 * TAP, and the run's lines when a cycle fails.
 *
 * Needs CONFIG_MODULES, CONFIG_MODULE_UNLOAD, CONFIG_HOTPLUG_CPU and two
 * CPUs or more (with one, the cycles run without hotplug).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "vfsload.h"

#define MODNAME		"lglock_torture"
#define MODFILE		"/lglock-torture.ko"
/* what begins each line the module prints */
#define LOGNAME		"lglock-torture: "
#define MAXCPUS		64
/* a run that ends by itself, and one that the unload ends */
#define FG_PARAMS	"duration=2"
#define BG_PARAMS	"duration=600"
/* the longest wait for a line of the run (slow under TCG and lockdep) */
#define WAIT_SECONDS	600


/* What the kernel says when something is wrong (rig/kernel-reports). */
static const char *const complaints[] = {
#include "kernel-reports.h"
	"=====", NULL		/* and the banner of any lockdep report */
};

static int complain(const char *log, const char *when)
{
	char who[64];

	snprintf(who, sizeof(who), "%.60s:", when);
	return klog_complaints(log, complaints, who);
}

/* How often the run printed its PASS line. */
static int passes(const char *log)
{
	const char *p = log;
	int n = 0;

	while ((p = strstr(p, LOGNAME "PASS")) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* The run's lines that begin with @what (all: ""), as "# " lines. */
static void show(const char *log, const char *what, const char *when)
{
	const char *p = log;
	char key[64];

	snprintf(key, sizeof(key), LOGNAME "%s", what);
	while ((p = strstr(p, key)) != NULL) {
		printf("# %s: %.*s\n", when, (int)strcspn(p, "\n"), p);
		p++;
	}
}

/*
 * Wait until the kernel log (since the last klog_take(), read without
 * clearing it) has a line of the run that begins with @a or with @b; 0
 * then, -1 after WAIT_SECONDS.
 */
static int wait_line(const char *a, const char *b)
{
	char key_a[64], key_b[64];
	int i, n;

	snprintf(key_a, sizeof(key_a), LOGNAME "%s", a);
	snprintf(key_b, sizeof(key_b), LOGNAME "%s", b);
	for (i = 0; i < WAIT_SECONDS * 10; i++) {
		n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog,
			    sizeof(klog) - 1);
		klog[n > 0 ? n : 0] = '\0';
		if (strstr(klog, key_a) || strstr(klog, key_b))
			return 0;
		usleep(100000);
	}
	return -1;
}

static char *online_path(int cpu, char *p, size_t len)
{
	snprintf(p, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
	return p;
}

/* Set CPU @cpu online (1) or offline (0); 0 when it is so afterwards. */
static int cpu_set(int cpu, int on)
{
	char p[64];

	online_path(cpu, p, sizeof(p));
	if (get_file(p) == on)
		return 0;
	if (put_file(p, on ? "1" : "0") || get_file(p) != on) {
		printf("# cpu%d: could not set online=%d: %s\n", cpu, on,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* The CPUs that can go offline (cpuN/online exists), in hot[]. */
static int hot[MAXCPUS];
static int nhot;

static void find_hotpluggable(void)
{
	char p[64];
	int cpu;

	for (cpu = 1; cpu < MAXCPUS; cpu++)
		if (access(online_path(cpu, p, sizeof(p)), W_OK) == 0)
			hot[nhot++] = cpu;
}

/* Every hotpluggable CPU online; 0 when they all are. */
static int all_online(void)
{
	int i, bad = 0;

	for (i = 0; i < nhot; i++)
		if (cpu_set(hot[i], 1))
			bad++;
	return bad ? -1 : 0;
}

static char image[1 << 20];
static ssize_t image_len;

static int load(const char *params)
{
	return syscall(SYS_init_module, image, (unsigned long)image_len,
		       params) ? errno : 0;
}

static int unload(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) ? errno : 0;
}

/* Whether /proc/modules lists the module. */
static int listed(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, MODNAME " ", strlen(MODNAME) + 1))
			found = 1;
	fclose(f);
	return found;
}

/* What went wrong in one cycle, as "# " lines; the count. */
static int bad;

static void expect(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void expect(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	bad++;
}

/* 0 when the module loaded */
static int do_load(const char *params, const char *when)
{
	int err = load(params);

	expect(!err, "%s: init_module(\"%s\"): %s", when, params,
	       strerror(err));
	expect(listed() == 1, "%s: not in /proc/modules after the load", when);
	return err;
}

/* After a load that returned @err: wait for the run's line @what (or FAIL). */
static void do_wait(int err, const char *what, const char *when)
{
	if (!err)
		expect(!wait_line(what, "FAIL"),
		       "%s: no \"" LOGNAME "%s\" line in %d s", when, what,
		       WAIT_SECONDS);
}

static void do_unload(const char *when)
{
	int err = unload();

	expect(!err, "%s: delete_module: %s", when, strerror(err));
	expect(listed() == 0, "%s: still in /proc/modules after the unload",
	       when);
}

static void do_cpu(int cpu, int on, const char *when)
{
	if (cpu > 0)
		expect(!cpu_set(cpu, on), "%s: cpu%d online=%d failed", when,
		       cpu, on);
}

enum { ALL_ONLINE, OFFLINE, UNLOAD_OFFLINE, ONLINE_LOADED, NWAYS };

static const char *const way_names[] = {
	"all-online", "offline", "unload-offline", "online-loaded"
};

static const char *const way_says[] = {
	"load and unload, then a cpu offline and online",
	"load and unload with a cpu offline",
	"load (kthreads running on), a cpu offline, unload",
	"load with a cpu offline, the cpu online, offline, online, unload",
};

/* One cycle; 0 when it passed. */
static int cycle(int i, int way)
{
	char when[64];
	const char *log;
	int cpu = nhot ? hot[i % nhot] : -1, err, n;

	snprintf(when, sizeof(when), "cycle %d %s cpu%d", i + 1,
		 way_names[way], cpu);
	bad = 0;
	/* what the kernel said since the last cycle counts here */
	if (complain(klog_take(), when))
		bad++;
	switch (way) {
	case ALL_ONLINE:
		do_wait(do_load(FG_PARAMS, when), "PASS", when);
		do_unload(when);
		do_cpu(cpu, 0, when);
		do_cpu(cpu, 1, when);
		break;
	case OFFLINE:
		do_cpu(cpu, 0, when);
		do_wait(do_load(FG_PARAMS, when), "PASS", when);
		do_unload(when);
		do_cpu(cpu, 1, when);
		break;
	case UNLOAD_OFFLINE:
		err = do_load(BG_PARAMS, when);
		expect(load(BG_PARAMS) == EEXIST,
		       "%s: a second load is not EEXIST", when);
		/* the CPU goes offline under the kthreads of the stress */
		do_wait(err, "stress: ", when);
		do_cpu(cpu, 0, when);
		usleep(200000);
		do_unload(when);
		do_cpu(cpu, 1, when);
		break;
	case ONLINE_LOADED:
		do_cpu(cpu, 0, when);
		do_wait(do_load(BG_PARAMS, when), "stress: ", when);
		do_cpu(cpu, 1, when);
		usleep(200000);
		do_cpu(cpu, 0, when);
		do_cpu(cpu, 1, when);
		usleep(200000);
		do_unload(when);
		break;
	}
	log = klog_take();
	n = passes(log);
	expect(n == 1, "%s: %d \"" LOGNAME "PASS\" lines, not 1", when, n);
	if (complain(log, when))
		bad++;
	/* what the run said: its brlock line, or all of it when a cycle fails */
	show(log, bad ? "" : "stress-brlock: ", when);
	tap(!bad, "%s: %s%s; the module's run passes, the kernel is quiet",
	    when, way_says[way], cpu > 0 ? "" : " (no cpu can go offline)");
	return bad;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : MODFILE;
	int cycles = argc > 2 ? atoi(argv[2]) : 20;
	int i, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (cycles < 1)
		cycles = 1;
	printf("TAP version 13\n1..%d\n", cycles + 4);
	find_hotpluggable();
	printf("# %ld cpus online, %d can go offline\n",
	       sysconf(_SC_NPROCESSORS_ONLN), nhot);
	klog_take();

	image_len = slurp(path, image, sizeof(image));
	ok = image_len > 0;
	tap(ok, "read %s (%zd bytes)", path, image_len);
	if (!ok) {
		printf("Bail out! no module image %s\n", path);
		return 1;
	}
	if (listed() == 1) {
		printf("# %s is loaded already: unloading it first\n", MODNAME);
		unload();
	}
	for (i = 0; i < cycles; i++) {
		cycle(i, i % NWAYS);
		/* a failed cycle may leave it loaded or a CPU offline */
		if (listed() == 1)
			unload();
		all_online();
	}

	tap(listed() == 0, "%s is not in /proc/modules at the end", MODNAME);
	ok = all_online() == 0;
	tap(ok, "every cpu online at the end (%ld online)",
	    sysconf(_SC_NPROCESSORS_ONLN));
	tap(!complain(klog_take(), "end"),
	    "kernel quiet after the last cycle");
	printf("# modcycle: %d of %d failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}
