/*
 * lsrows: rows of the in-guest bench, each between the marks that the
 * sharing model (rig/plugins/lineshare.c) sees.
 *   lsrows TASKS SECONDS ROW...
 * For each ROW (a test of the series' lglock-bench) it stores to the
 * begin mark, runs /bin/lglock-bench -t SECONDS -T TASKS ROW, and stores
 * to the end mark, so that the plugin's row N is the Nth ROW here; the
 * bench's own lines (BENCH,ROW,... with its operations a second) pass
 * through, preceded by "LSROW N ROW".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define LS_MARK	0x5a5a5a5a0000UL

int main(int argc, char **argv)
{
	volatile unsigned long *mark;
	int i, st;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: lsrows TASKS SECONDS ROW...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	mark = mmap((void *)LS_MARK, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (mark == MAP_FAILED) {
		perror("lsrows: mmap the mark page");
		return 1;
	}
	for (i = 3; i < argc; i++) {
		printf("LSROW %d %s\n", i - 2, argv[i]);
		mark[0] = i;		/* begin */
		pid = fork();
		if (pid == 0) {
			execl("/bin/lglock-bench", "lglock-bench", "-t", argv[2],
			      "-T", argv[1], argv[i], (char *)NULL);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		mark[8] = i;		/* end: LS_MARK + 64 */
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			printf("# lsrows: %s: exit status %d\n", argv[i], st);
	}
	printf("LSROW end\n");
	return 0;
}
