/*
 * lineshare: a QEMU TCG plugin, the cache-line sharing model of the bench
 * (lineshare-core.h says what it counts).
 *   qemu-system-x86_64 ... -plugin build/plugins/lineshare.so,out=FILE[,top=N]
 * Every load and store of kernel code (pc in the top 2 GiB, where x86_64
 * maps the kernel and its modules) is fed to the model while a row is on.
 * The guest marks a row with stores to a page it maps at LS_MARK: a store
 * to LS_MARK begins a row, one to LS_MARK + 64 ends it; those are the only
 * user-space accesses looked at.  Each row's result goes to FILE.
 *
 * QEMU ships no header for its plugin API in Debian; what is used of it
 * (version 1, as QEMU 7.2 has it) is declared here from its documentation.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lineshare-core.h"

/* --- the QEMU plugin API, as documented (include/qemu/qemu-plugin.h) --- */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS,
			    QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W,
			  QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv);
/* --- end of the API --- */

#define LS_MARK		0x5a5a5a5a0000ULL
#define KERNEL_PC	0xffffffff80000000ULL

static struct ls_model model;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static int top = 10;

static void kernel_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
			  uint64_t vaddr, void *pc)
{
	if (!model.active)
		return;
	pthread_mutex_lock(&lock);
	ls_access(&model, vcpu, vaddr, qemu_plugin_mem_is_store(info),
		  (uint64_t)(uintptr_t)pc);
	pthread_mutex_unlock(&lock);
}

static void user_store(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *pc)
{
	(void)vcpu;
	(void)info;
	(void)pc;
	if (vaddr != LS_MARK && vaddr != LS_MARK + 64)
		return;
	pthread_mutex_lock(&lock);
	if (vaddr == LS_MARK)
		ls_begin(&model);
	else
		ls_end(&model, out, top);
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);

		if (pc >= KERNEL_PC)
			qemu_plugin_register_vcpu_mem_cb(insn, kernel_access,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
				(void *)(uintptr_t)pc);
		else
			qemu_plugin_register_vcpu_mem_cb(insn, user_store,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_W, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	pthread_mutex_lock(&lock);
	if (model.active)
		fprintf(out, "# the guest ended inside row %d\n", model.row);
	fclose(out);
	pthread_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *file = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			file = argv[i] + 4;
		else if (!strncmp(argv[i], "top=", 4))
			top = atoi(argv[i] + 4);
	}
	if (!file || !(out = fopen(file, "w")))
		return -1;
	if (ls_init(&model, 1 << 22))
		return -1;
	fprintf(out, "# lineshare: %d-byte lines, kernel pc from %llx, marks at %llx\n",
		LS_LINE, (unsigned long long)KERNEL_PC, (unsigned long long)LS_MARK);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
