/* The cache-line sharing model: see lineshare-core.h. */
#include <stdlib.h>
#include <string.h>
#include "lineshare-core.h"

int ls_init(struct ls_model *m, uint64_t slots)
{
	memset(m, 0, sizeof(*m));
	m->size = slots;
	m->lines = calloc(slots, sizeof(*m->lines));
	return m->lines ? 0 : -1;
}

void ls_begin(struct ls_model *m)
{
	memset(m->lines, 0, m->size * sizeof(*m->lines));
	m->used = 0;
	m->active = 1;
	m->row++;
}

static struct ls_line *find(struct ls_model *m, uint64_t addr)
{
	uint64_t h = (addr / LS_LINE) * 0x9e3779b97f4a7c15ULL;
	uint64_t i, mask = m->size - 1;

	for (i = h >> 20; ; i++) {
		struct ls_line *l = &m->lines[i & mask];

		if (l->addr == addr)
			return l;
		if (!l->addr) {
			if (m->used * 4 >= m->size * 3)
				return NULL;	/* full: the row is cut short */
			m->used++;
			l->addr = addr;
			return l;
		}
	}
}

static void change(struct ls_line *l, uint64_t pc)
{
	int i, min = 0;

	l->changes++;
	for (i = 0; i < LS_PCS; i++) {
		if (l->pc[i] == pc || !l->pc_changes[i]) {
			l->pc[i] = pc;
			l->pc_changes[i]++;
			return;
		}
		if (l->pc_changes[i] < l->pc_changes[min])
			min = i;
	}
	/* all slots taken by other code: the least counted one gives way */
	l->pc[min] = pc;
	l->pc_changes[min] = 1;
}

void ls_access(struct ls_model *m, int vcpu, uint64_t addr, int store, uint64_t pc)
{
	struct ls_line *l;
	uint64_t me;

	if (!m->active || vcpu < 0 || vcpu >= LS_MAX_VCPUS)
		return;
	l = find(m, addr & ~(uint64_t)(LS_LINE - 1));
	if (!l)
		return;
	me = 1ULL << vcpu;
	if (store) {
		if ((l->last_writer && l->last_writer != vcpu + 1) ||
		    (l->readers & ~me))
			change(l, pc);
		l->writers |= me;
		l->last_writer = vcpu + 1;
		l->readers = 0;
	} else if (l->last_writer && l->last_writer != vcpu + 1 &&
		   !(l->readers & me)) {
		change(l, pc);
		l->readers |= me;
	}
}

static int popcount(uint64_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static int by_changes(const void *a, const void *b)
{
	const struct ls_line *x = *(struct ls_line *const *)a;
	const struct ls_line *y = *(struct ls_line *const *)b;

	if (x->changes != y->changes)
		return x->changes < y->changes ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void ls_end(struct ls_model *m, FILE *out, int top)
{
	struct ls_line **shared;
	uint64_t i, n = 0, changes = 0;
	int j, k;

	if (!m->active)
		return;
	m->active = 0;
	shared = calloc(m->used + 1, sizeof(*shared));
	for (i = 0; i < m->size; i++) {
		struct ls_line *l = &m->lines[i];

		if (!l->addr)
			continue;
		changes += l->changes;
		if (popcount(l->writers) >= 2 && shared)
			shared[n++] = l;
	}
	fprintf(out, "ROW %d shared=%llu changes=%llu%s\n", m->row,
		(unsigned long long)n, (unsigned long long)changes,
		m->used * 4 >= m->size * 3 ? " full" : "");
	if (!shared)
		return;
	qsort(shared, n, sizeof(*shared), by_changes);
	for (i = 0; i < n && (int)i < top; i++) {
		struct ls_line *l = shared[i];

		fprintf(out, "LINE %llx changes=%llu writers=%llx pc=",
			(unsigned long long)l->addr,
			(unsigned long long)l->changes,
			(unsigned long long)l->writers);
		for (j = 0, k = 0; j < LS_PCS; j++)
			if (l->pc_changes[j])
				fprintf(out, "%s%llx:%llu", k++ ? "," : "",
					(unsigned long long)l->pc[j],
					(unsigned long long)l->pc_changes[j]);
		fprintf(out, "\n");
	}
	fflush(out);
	free(shared);
}
