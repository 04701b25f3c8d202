/*
 * ltprun: run LTP test binaries, one line of results each.
 *   ltprun [hotplug] [TEST...]
 * Runs the tests /ltp/tests lists (binaries of /ltp/testcases/bin, where
 * LTP installs them and its library looks for helpers), in its order,
 * each in a fresh tmpfs, /ltp/tmp/N, its working directory and TMPDIR,
 * with LTP's environment (LTPROOT=/ltp, PATH=/ltp/testcases/bin:/bin,
 * LTP_TIMEOUT_MUL=4: TCG is slow; KCONFIG_PATH=/ltp/kconfig, the kernel's
 * config; LTP_DEV=/dev/ram0, as 2.6.36's tmpfs cannot fallocate LTP's
 * device image), and kills it after 900 seconds.
 * LTP_DIR, when set, stands for /ltp and LTP_TEST_TIMEOUT for the 900:
 * make check runs canned tests so.  TESTs, when named, are run instead,
 * in that order and as often as named (a flaky test's distribution).
 * With "hotplug", a child takes the last CPU offline and online again and
 * again for the whole run, except during the tests /ltp/hotplug-pause
 * names (rig/ltp/hotplug-pause, each with its reason): the child is
 * stopped and every CPU online while they run.  For each test it prints
 *   LTP NAME exit=E passed=P failed=F broken=B skipped=S warnings=W
 * from the test's own summary (the tst_test library's "Summary:" block)
 * or, for tests of the old library, from its TPASS/TFAIL/TBROK/TCONF/
 * TWARN result lines; exit=timeout when it was killed.  The rig compares
 * these lines between base and patched (a "diff" scenario line; the
 * last line is "LTP end", so that a run cut short shows).  A test
 * that did not pass also gets its last output lines, behind "# ".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vfsload.h"

#define TAIL 12
#define TIMEOUT 900

static pid_t hp;	/* the hotplug child */
static int victim = -1;	/* the CPU it takes offline and online */

/* whether NAME is in the hotplug pause list, LIST */
static int paused(const char *list, const char *name)
{
	char line[512], first[256];
	int found = 0;
	FILE *f = fopen(list, "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = line[0] != '#' && sscanf(line, "%255s", first) == 1 &&
			!strcmp(first, name);
	if (f)
		fclose(f);
	return found;
}

/* stop the hotplug child (between two writes of its) and put the CPU online */
static void hotplug_pause(const char *name)
{
	int st;

	kill(hp, SIGSTOP);
	/* a child that died instead is reaped here: no signal goes to its pid */
	if (waitpid(hp, &st, WUNTRACED) != hp || !WIFSTOPPED(st)) {
		printf("# ltprun: the hotplug child is gone\n");
		hp = 0;
	}
	if (cpu_online(victim, 1) != 0 && errno != EINVAL)
		printf("# ltprun: cpu %d online: %s\n", victim, strerror(errno));
	printf("# ltprun: %s runs with the hotplug paused, cpu %d online (hotplug-pause)\n",
	       name, victim);
}

struct counts {
	long passed, failed, broken, skipped, warnings;
	int summary;	/* the tst_test library printed its summary */
};

/* one line of the test's output */
static void count(struct counts *c, const char *line)
{
	static const char *const keys[] = { "passed", "failed", "broken",
					    "skipped", "warnings" };
	long *vals[] = { &c->passed, &c->failed, &c->broken, &c->skipped,
			 &c->warnings };
	unsigned int i;
	long v;
	char key[16];

	if (!strcmp(line, "Summary:")) {
		c->summary = 1;
		c->passed = c->failed = c->broken = c->skipped = c->warnings = 0;
		return;
	}
	if (c->summary) {
		if (sscanf(line, "%15s %ld", key, &v) == 2)
			for (i = 0; i < 5; i++)
				if (!strcmp(key, keys[i]))
					*vals[i] = v;
		return;
	}
	/* the old library: "name    1  TPASS  :  text" */
	if (strstr(line, " TPASS "))
		c->passed++;
	else if (strstr(line, " TFAIL "))
		c->failed++;
	else if (strstr(line, " TBROK "))
		c->broken++;
	else if (strstr(line, " TCONF "))
		c->skipped++;
	else if (strstr(line, " TWARN "))
		c->warnings++;
}

static int run_one(const char *top, const char *dir, const char *name,
		   int timeout, int idx)
{
	char prog[512], tmp[300], buf[4096], line[1024], tail[TAIL][256];
	char path[300];
	struct counts c = { 0 };
	int pfd[2], st = 0, n, len = 0, ntail = 0, i, timed_out = 0, exited = 0;
	time_t end;
	pid_t pid, child;

	snprintf(prog, sizeof(prog), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/tmp", top);
	mkdir(tmp, 0755);
	snprintf(tmp, sizeof(tmp), "%s/tmp/%d", top, idx);
	mkdir(tmp, 0777);
	if (mount("ltp", tmp, "tmpfs", 0, "size=256m") != 0) {
		printf("LTP %s exit=setup passed=0 failed=0 broken=0 skipped=0 warnings=0\n", name);
		printf("# mount tmpfs %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	if (pipe(pfd) != 0)
		return 1;
	pid = child = fork();
	if (pid == 0) {
		setsid();
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		if (chdir(tmp) != 0)
			_exit(127);
		setenv("TMPDIR", tmp, 1);
		setenv("LTPROOT", top, 1);
		snprintf(path, sizeof(path), "%s:/bin", dir);
		setenv("PATH", path, 1);
		setenv("LTP_TIMEOUT_MUL", "4", 1);
		setenv("LTP_COLORIZE_OUTPUT", "0", 1);
		snprintf(path, sizeof(path), "%s/kconfig", top);
		setenv("KCONFIG_PATH", path, 1);
		/* the ramdisk: tmpfs here cannot hold LTP's device image */
		if (!access("/dev/ram0", F_OK))
			setenv("LTP_DEV", "/dev/ram0", 1);
		execl(prog, name, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	end = time(NULL) + timeout;
	for (;;) {
		n = read(pfd[0], buf, sizeof(buf));
		if (n > 0) {
			for (i = 0; i < n; i++) {
				if (buf[i] == '\n' || len == (int)sizeof(line) - 1) {
					line[len] = 0;
					count(&c, line);
					snprintf(tail[ntail % TAIL], sizeof(tail[0]), "%.255s", line);
					ntail++;
					len = 0;
				} else {
					line[len++] = buf[i];
				}
			}
			continue;
		}
		if (n == 0)
			break;	/* every writer closed it */
		/*
		 * The pipe is empty for now.  A test that has exited may
		 * have left children holding it; what it wrote itself is
		 * read by now (the loop reads until empty), so stop.
		 */
		if (exited)
			break;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			pid = 0;
			exited = 1;	/* one more pass empties the pipe */
			continue;
		}
		if (time(NULL) > end) {
			kill(-pid, SIGKILL);
			timed_out = 1;
			break;
		}
		usleep(20000);
	}
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	/* what the test left running must not overlap the next test */
	kill(-child, SIGKILL);
	/* the test's children may still hold the tmpfs */
	if (umount2(tmp, MNT_DETACH) != 0)
		printf("# umount %s: %s\n", tmp, strerror(errno));
	if (timed_out)
		printf("LTP %s exit=timeout", name);
	else if (WIFSIGNALED(st))
		printf("LTP %s exit=signal%d", name, WTERMSIG(st));
	else
		printf("LTP %s exit=%d", name, WEXITSTATUS(st));
	printf(" passed=%ld failed=%ld broken=%ld skipped=%ld warnings=%ld\n",
	       c.passed, c.failed, c.broken, c.skipped, c.warnings);
	if (timed_out || !WIFEXITED(st) || (WEXITSTATUS(st) & ~32) || c.failed || c.broken) {
		for (i = ntail > TAIL ? ntail - TAIL : 0; i < ntail; i++)
			printf("#   %s\n", tail[i % TAIL]);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *top = getenv("LTP_DIR") ? getenv("LTP_DIR") : "/ltp";
	int timeout = getenv("LTP_TEST_TIMEOUT") ? atoi(getenv("LTP_TEST_TIMEOUT")) : TIMEOUT;
	char name[256], bin[256], tests[256];
	char pause[256];
	int ran = 0, bad = 0, cycles = 0, first = 1, i;
	FILE *list;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(bin, sizeof(bin), "%s/testcases/bin", top);
	snprintf(tests, sizeof(tests), "%s/tests", top);
	snprintf(pause, sizeof(pause), "%s/hotplug-pause", top);
	list = fopen(tests, "r");
	if (!list) {
		printf("# ltprun: %s: %s\n", tests, strerror(errno));
		return 2;
	}
	if (argc > 1 && !strcmp(argv[1], "hotplug")) {
		first = 2;
		read_cpus();
		victim = ncpus > 1 ? cpus[ncpus - 1] : -1;
		if (victim < 0 || !hotplug_possible(victim)) {
			printf("# ltprun: no CPU to hotplug\n");
			return 2;
		}
		hp = fork();
		if (hp == 0) {
			for (;;) {
				if (cpu_online(victim, 0) == 0 &&
				    cpu_online(victim, 1) == 0 && ++cycles % 50 == 1)
					fprintf(stderr, "# ltprun: %d hotplug cycles\n", cycles);
				usleep(10000);
			}
		}
		printf("# ltprun: cpu %d goes offline and online for the whole run\n", victim);
	}
	for (i = first; ; i++) {
		/* the tests named, in that order, as often as named; or the list */
		if (argc > first && i < argc)
			snprintf(name, sizeof(name), "%s", argv[i]);
		else if (argc > first || fscanf(list, "%255s", name) != 1)
			break;
		if (hp > 0 && paused(pause, name)) {
			hotplug_pause(name);
			bad += run_one(top, bin, name, timeout, ran++);
			if (hp > 0)
				kill(hp, SIGCONT);
		} else {
			bad += run_one(top, bin, name, timeout, ran++);
		}
	}
	if (hp > 0) {
		kill(hp, SIGKILL);
		waitpid(hp, NULL, 0);
		cpu_online(victim, 1);
	}
	printf("# ltprun: %d tests, %d did not pass (see their lines)\n", ran, bad);
	printf("LTP end\n");
	return 0;
}
