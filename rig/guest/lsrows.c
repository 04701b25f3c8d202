/*
 * lsrows: rows of the in-guest bench, each between the marks that the
 * sharing model (rig/plugins/lineshare.c) sees.
 *   lsrows [-l] TASKS SECONDS ROW...
 * For each ROW (a test of the series' lglock-bench) it stores to the
 * begin mark, runs /bin/lglock-bench -t SECONDS -T TASKS ROW, and stores
 * to the end mark, so that the plugin's row N is the Nth ROW here; the
 * bench's own lines (BENCH,ROW,... with its operations a second) pass
 * through, preceded by "LSROW N ROW".
 * With -l (a LOCK_STAT kernel), /proc/lock_stat is cleared before each
 * row and read after it: each lock class's line (NAME: and its ten
 * counts and times) is printed behind "LOCKSTAT N ".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define LS_MARK	0x5a5a5a5a0000UL

/* clear /proc/lock_stat (row 0) or print its class lines for row N */
static int lock_stat(int row)
{
	char line[512], name[256];
	unsigned long nr;
	FILE *f = fopen("/proc/lock_stat", row ? "r" : "w");

	if (!f) {
		perror("lsrows: /proc/lock_stat");
		return 1;
	}
	if (!row) {
		fputs("0", f);
		return fclose(f) != 0;
	}
	/* a class's line: NAME: then con-bounces, contentions, ... */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %255s %lu", name, &nr) == 2 &&
		    name[strlen(name) - 1] == ':')
			printf("LOCKSTAT %d %s", row, line + strspn(line, " "));
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	volatile unsigned long *mark;
	int i, st, ls = argc > 1 && !strcmp(argv[1], "-l");
	pid_t pid;

	argv += ls;
	argc -= ls;
	if (argc < 4) {
		fprintf(stderr, "usage: lsrows [-l] TASKS SECONDS ROW...\n");
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
		if (ls && lock_stat(0))
			return 1;
		mark[0] = i;		/* begin */
		pid = fork();
		if (pid == 0) {
			execl("/bin/lglock-bench", "lglock-bench", "-t", argv[2],
			      "-T", argv[1], argv[i], (char *)NULL);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		mark[8] = i;		/* end: LS_MARK + 64 */
		if (ls && lock_stat(i - 2))
			return 1;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			printf("# lsrows: %s: exit status %d\n", argv[i], st);
	}
	printf("LSROW end\n");
	return 0;
}
