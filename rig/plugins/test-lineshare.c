/*
 * make check's test of the sharing model (lineshare-core.c) on canned
 * traces with known answers.  Prints TAP.
 */
#include <stdlib.h>
#include <string.h>
#include "lineshare-core.h"

static int n, bad;

static void ok(int cond, const char *what)
{
	printf("%sok %d %s\n", cond ? "" : "not ", ++n, what);
	bad += !cond;
}

/* run a row, return its "ROW" line and the first "LINE" line */
static void row(struct ls_model *m, void (*trace)(struct ls_model *),
		char *rowl, char *line1)
{
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ls_begin(m);
	trace(m);
	ls_end(m, f, 10);
	fclose(f);
	*rowl = *line1 = 0;
	sscanf(buf, "%[^\n]\n%[^\n]", rowl, line1);
}

/* two vCPUs store to one line alternately, 10 times each */
static void ping_pong(struct ls_model *m)
{
	int i;

	for (i = 0; i < 20; i++)
		ls_access(m, i % 2, 0xffff880000001008ULL, 1, 0x1000 + i % 2);
}

/* two vCPUs store to two lines, each its own, and read them back */
static void separate(struct ls_model *m)
{
	int i;

	for (i = 0; i < 20; i++) {
		ls_access(m, 0, 0xffff880000002000ULL, 1, 0x2000);
		ls_access(m, 1, 0xffff880000002040ULL, 1, 0x2001);
		ls_access(m, 0, 0xffff880000002008ULL, 0, 0x2002);
		ls_access(m, 1, 0xffff880000002048ULL, 0, 0x2003);
	}
}

/* one writer, another vCPU reads after each store: shared, not written */
static void producer_consumer(struct ls_model *m)
{
	int i;

	for (i = 0; i < 10; i++) {
		ls_access(m, 0, 0xffff880000003000ULL, 1, 0x3000);
		ls_access(m, 1, 0xffff880000003000ULL, 0, 0x3001);
		ls_access(m, 1, 0xffff880000003000ULL, 0, 0x3001);
	}
}

/* outside a row nothing counts */
static void nothing(struct ls_model *m)
{
	(void)m;
}

int main(void)
{
	struct ls_model m;
	char r[512], l[512];

	if (ls_init(&m, 1 << 12))
		return 1;
	printf("TAP version 13\n1..7\n");
	row(&m, ping_pong, r, l);
	ok(!strcmp(r, "ROW 1 shared=1 changes=19"),
	   "two vCPUs storing to one line alternately: one write-shared line, 19 ownership changes");
	ok(!strcmp(l, "LINE ffff880000001000 changes=19 writers=3 pc=1001:10,1000:9"),
	   "the line is named, with the code addresses that moved it");
	row(&m, separate, r, l);
	ok(!strcmp(r, "ROW 2 shared=0 changes=0"),
	   "two vCPUs each on a line of their own: nothing shared, no change");
	ok(!l[0], "no line listed");
	row(&m, producer_consumer, r, l);
	ok(!strcmp(r, "ROW 3 shared=0 changes=19"),
	   "one writer, one reader after each store: not write-shared, 19 changes (a read once per store, the store after it)");
	ls_access(&m, 0, 0xffff880000004000ULL, 1, 0x4000);
	ls_access(&m, 1, 0xffff880000004000ULL, 1, 0x4001);
	row(&m, nothing, r, l);
	ok(!strcmp(r, "ROW 4 shared=0 changes=0"),
	   "accesses between rows are not counted");
	ok(!strcmp(l, ""), "and no line of them listed");
	return bad != 0;
}
