/*
 * /init of the rig's initramfs: mount the basics, run the job named on the
 * kernel command line, print TAP on the console, power off.
 *
 *   rig.job=suite     run every test of /bin/vfstest (TAP, one line each)
 *   rig.job=bench     run /bin/lglock-bench with rig.args (CSV on console)
 *   rig.job=battery   run /bin/battery (differential syscall battery)
 *   rig.job=soak      run /bin/soak with rig.args
 *   rig.only=a,b      with suite: only these tests
 *   rig.hang=1        never power off (proves the rig's boot timeout)
 *
 * Built with musl-gcc -static; glibc's static binaries refuse pre-3.2 kernels.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Run argv with its output on the console; return its wait status. */
static int run(char *const argv[], int timeout_s)
{
	pid_t pid = fork();
	int status, waited = 0;

	if (pid == 0) {
		setsid();
		execv(argv[0], argv);
		printf("# exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (waited >= timeout_s * 10) {
			printf("# %s: timeout after %ds, killing\n", argv[0],
			       timeout_s);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(100000);
		waited++;
	}
}

static void suite(const char *only)
{
	char names[128][64];
	int n = 0, i, fail = 0;
	FILE *f = NULL;
	int pfd[2];

	/* no shell in the initramfs: pipe + fork + exec, not popen() */
	if (pipe(pfd) == 0) {
		if (fork() == 0) {
			dup2(pfd[1], 1);
			close(pfd[0]);
			execl("/bin/vfstest", "vfstest", "--list", (char *)NULL);
			_exit(127);
		}
		close(pfd[1]);
		f = fdopen(pfd[0], "r");
	}
	if (!f) {
		printf("Bail out! cannot list tests\n");
		return;
	}
	while (n < 128 && fscanf(f, "%63s", names[n]) == 1) {
		if (only) {
			char pat[80];

			snprintf(pat, sizeof(pat), ",%s,", names[n]);
			char o[512];

			snprintf(o, sizeof(o), ",%s,", only);
			if (!strstr(o, pat))
				continue;
		}
		n++;
	}
	fclose(f);
	wait(NULL);
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		char *argv[] = { "/bin/vfstest", names[i], NULL };
		struct timespec a, b;
		int st;

		clock_gettime(CLOCK_MONOTONIC, &a);
		st = run(argv, 600);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 4)
			printf("ok %d %s # SKIP\n", i + 1, names[i]);
		else if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			printf("ok %d %s # %.1fs\n", i + 1, names[i],
			       (b.tv_sec - a.tv_sec) +
			       (b.tv_nsec - a.tv_nsec) / 1e9);
		else {
			printf("not ok %d %s # status %d\n", i + 1, names[i], st);
			fail++;
		}
		fflush(stdout);
	}
	printf("# totals: pass:%d fail:%d\n", n - fail, fail);
}

static void args_job(const char *prog)
{
	char args[1024] = "";
	char *argv[64];
	int argc = 0;
	char *tok;

	param("rig.args", args, sizeof(args));
	argv[argc++] = (char *)prog;
	for (tok = strtok(args, ","); tok && argc < 63; tok = strtok(NULL, ","))
		argv[argc++] = tok;
	argv[argc] = NULL;
	int st = run(argv, 24 * 3600);

	printf("# rig: %s exit status %d\n", prog, st);
}

int main(void)
{
	char job[64] = "suite", only[512], hang[8];
	int fd;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/dev/pts", 0755);
	mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=666");
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		read(fd, cmdline, sizeof(cmdline) - 1);
		close(fd);
	}
	param("rig.job", job, sizeof(job));
	printf("# rig: job %s, %ld cpus online\n", job,
	       sysconf(_SC_NPROCESSORS_ONLN));
	if (!strcmp(job, "suite"))
		suite(param("rig.only", only, sizeof(only)));
	else if (!strcmp(job, "bench"))
		args_job("/bin/lglock-bench");
	else if (!strcmp(job, "battery"))
		args_job("/bin/battery");
	else if (!strcmp(job, "soak"))
		args_job("/bin/soak");
	else
		printf("Bail out! unknown rig.job=%s\n", job);
	printf("# rig: done\n");
	fflush(stdout);
	sync();
	if (param("rig.hang", hang, sizeof(hang)))
		for (;;)
			pause();
	reboot(RB_POWER_OFF);
	return 0;
}
