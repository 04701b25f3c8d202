/*
 * tap: run the tests of a test program as TAP.
 *
 *   tap PROG [SPEC...]
 *
 * Without SPECs, PROG --list names the tests (its default list) and each
 * runs as "PROG NAME"; with SPECs, each SPEC runs as "PROG SPEC", in the
 * order given, whether --list names it or not (a test left out of the
 * default list, or one with arguments: vfstest takes "NAME:KEY=VALUE:...").
 * Each runs in a session of its own, at most 600 s.  Exit status 0 is ok,
 * 4 is ok # SKIP, anything else (or the timeout) is not ok.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Run argv with a time limit; its wait status, -1 on timeout. */
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
		if (waitpid(pid, &status, WNOHANG) == pid)
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

int main(int argc, char **argv)
{
	char names[128][64];
	int n = 0, i, fail = 0, pfd[2];
	FILE *f = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: tap PROG [SPEC...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the SPECs given, as they are: PROG judges them (an unknown one fails) */
	for (i = 2; i < argc && n < 128; i++)
		snprintf(names[n++], sizeof(names[0]), "%s", argv[i]);
	/* no shell in the initramfs: pipe + fork + exec, not popen() */
	if (argc == 2 && pipe(pfd) == 0) {
		if (fork() == 0) {
			dup2(pfd[1], 1);
			close(pfd[0]);
			execl(argv[1], argv[1], "--list", (char *)NULL);
			_exit(127);
		}
		close(pfd[1]);
		f = fdopen(pfd[0], "r");
	}
	if (argc == 2 && !f) {
		printf("Bail out! cannot list tests\n");
		return 1;
	}
	if (f) {
		while (n < 128 && fscanf(f, "%63s", names[n]) == 1)
			n++;
		fclose(f);
		wait(NULL);
	}
	printf("TAP version 13\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		char *av[] = { argv[1], names[i], NULL };
		struct timespec a, b;
		int st;

		clock_gettime(CLOCK_MONOTONIC, &a);
		st = run(av, 600);
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
	}
	printf("# totals: pass:%d fail:%d\n", n - fail, fail);
	return fail != 0;
}
