/*
 * /init of the rig's initramfs: mount the basics, run the program the
 * kernel command line names, power off.
 *
 *   rig.run=/bin/X,ARG,...   the program and its arguments, comma-separated
 *   rig.hang=1               never power off (proves the rig's boot timeout)
 *
 * A kernel with the lglock torture test built in (CONFIG_LGLOCK_TORTURE_TEST=y)
 * runs it at boot, in kthreads, for lglock_torture.duration seconds, and
 * takes a CPU offline and back meanwhile: the program starts only after the
 * test's last line, so that it has every CPU and the test has its own time.
 *
 * Two channels: the kernel keeps ttyS0 (console=ttyS0) for its messages;
 * the program's stdin, stdout and stderr are ttyS1, raw (no CR added), so no
 * kernel message ever lands inside one of its lines.  QEMU writes each port
 * to a file of its own (rig/boot.sh).  Ports from ttyS2 on are the
 * scenario's (rig/scenarios/README).
 *
 * Built with musl-gcc -static; glibc's static binaries refuse pre-3.2 kernels.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static char cmdline[4096];

static const char *param(const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	char *p = cmdline;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p += klen;
	}
	return NULL;
}

/*
 * Wait for the built-in lglock torture test's "lglock-torture: PASS" or
 * "lglock-torture: FAIL" (rig/verdict.sh judges them), at most its duration
 * and five minutes more.  Nothing to wait for without
 * /sys/module/lglock_torture (not built in, or not in this kernel).
 */
static void wait_lglock_torture(void)
{
	static char log[1 << 16];
	char val[16] = "";
	long duration, i;
	int fd, n;

	fd = open("/sys/module/lglock_torture/parameters/duration", O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	duration = n > 0 ? atol(val) : 0;
	for (i = 0; i < (duration + 300) * 10; i++) {
		n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
		log[n > 0 ? n : 0] = '\0';
		if (strstr(log, "lglock-torture: PASS") ||
		    strstr(log, "lglock-torture: FAIL")) {
			printf("# rig: lglock-torture done (%ld s waited)\n",
			       i / 10);
			return;
		}
		usleep(100000);
	}
	printf("# rig: lglock-torture not done after %ld s\n", i / 10);
}

/* stdin, stdout and stderr on the guest-output port, raw */
static void output_channel(void)
{
	struct termios t;
	int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY);

	if (fd < 0)
		fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

int main(void)
{
	char run[1024], hang[8];
	char *argv[64], *tok;
	int fd, argc = 0, st;
	pid_t pid;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/dev/pts", 0755);
	mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=666");
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	output_channel();
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, cmdline, sizeof(cmdline) - 1) < 0)
			cmdline[0] = '\0';
		close(fd);
	}
	if (param("rig.run", run, sizeof(run)))
		for (tok = strtok(run, ","); tok && argc < 63;
		     tok = strtok(NULL, ","))
			argv[argc++] = tok;
	argv[argc] = NULL;
	/* a line of its own for whatever the UART's probe left on the port */
	printf("\n");
	wait_lglock_torture();
	printf("# rig: run %s, %ld cpus online\n", argc ? argv[0] : "nothing",
	       sysconf(_SC_NPROCESSORS_ONLN));
	if (argc) {
		pid = fork();
		if (pid == 0) {
			setsid();
			execv(argv[0], argv);
			printf("# rig: exec %s failed\n", argv[0]);
			_exit(127);
		}
		st = -1;
		if (pid > 0)
			waitpid(pid, &st, 0);
		printf("# rig: %s exit status %d\n", argv[0], st);
	}
	printf("# rig: done\n");
	fflush(stdout);
	tcdrain(1);
	sync();
	if (param("rig.hang", hang, sizeof(hang)))
		for (;;)
			pause();
	reboot(RB_POWER_OFF);
	return 0;
}
