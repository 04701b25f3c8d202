/*
 * The cache-line sharing model of rig/plugins/lineshare.c, apart from
 * QEMU so that a canned trace can drive it (test-lineshare.c).
 *
 * Memory is 64-byte lines.  Between a begin and an end mark (a row of the
 * guest bench), every access by a vCPU is fed to ls_access().  A line is
 * write-shared when two or more vCPUs stored to it in the row.  An
 * ownership change is what moves a line between caches: a store by a vCPU
 * that is not the line's last writer, or that other vCPUs read since that
 * write; a load by a vCPU other than the last writer that has not read
 * the line since that write.  Each change is counted for its line and for
 * the code address (pc) of the access that caused it.
 */
#ifndef LINESHARE_CORE_H
#define LINESHARE_CORE_H

#include <stdint.h>
#include <stdio.h>

#define LS_LINE		64
#define LS_MAX_VCPUS	64
#define LS_PCS		4	/* code addresses remembered per line */

struct ls_line {
	uint64_t addr;			/* the line's address; 0: free slot */
	uint64_t writers;		/* vCPUs that stored to it in the row */
	uint64_t readers;		/* vCPUs that loaded it since its last store */
	int last_writer;		/* vCPU + 1; 0: none in the row */
	uint64_t changes;
	uint64_t pc[LS_PCS], pc_changes[LS_PCS];
};

struct ls_model {
	struct ls_line *lines;
	uint64_t size;			/* slots, a power of two */
	uint64_t used;
	int active;			/* inside a row */
	int row;
};

int ls_init(struct ls_model *m, uint64_t slots);
void ls_begin(struct ls_model *m);
/* one access: vCPU, data address, store (1) or load (0), code address */
void ls_access(struct ls_model *m, int vcpu, uint64_t addr, int store, uint64_t pc);
/*
 * End the row and print it:
 *   ROW n shared=S changes=C
 *   LINE addr changes=C writers=MASK pc=ADDR:N[,ADDR:N...]   (top lines)
 */
void ls_end(struct ls_model *m, FILE *out, int top);

#endif
