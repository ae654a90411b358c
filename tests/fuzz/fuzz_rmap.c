// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the reverse-mapping models (src/rsim/, <rsim.h>).
 *
 * The input is a scenario: a prologue byte per file (its size), then
 * operations, each one byte of kind and one selector byte per argument.
 * Every op runs in all twelve scheme combinations (file: pte_chain, list,
 * prio; anon: pte_chain, anon_vma, anonmm, anon_vma_chain) in lock step,
 * and after every op:
 *
 *  - each simulation agrees with ground truth: rsim_verify() walks every
 *    page through the scheme's reverse map and compares with a scan of
 *    every page table (and checks each i_mmap prio tree);
 *  - every simulation returned the same value for the op (an op refused
 *    in one state must be refused everywhere);
 *  - the walk digests and, after an explicit walk, the walk results are
 *    the same everywhere.
 *
 * Arguments are decoded by name, so that most ops meet live processes,
 * files and vmas (pids 1..5, files 1..3, pages below 64); one selector in
 * 32 instead takes an edge value (0, the largest address, ULONG_MAX...)
 * that the simulation must refuse or handle.
 *
 * Out of memory: a thirteenth simulation (the "victim", its schemes
 * chosen by the input) runs the same ops, and an opcode byte of 0xf0 or
 * more arms an allocation failure in it alone (malloc and calloc are
 * wrapped at link time, -Wl,--wrap).  Until it fails it must agree like
 * the others.  On the op that fails it returns -ENOMEM; from then on it
 * is only held to its own promises: unless it marked itself broken its
 * state must still match ground truth, once broken every op returns
 * -ENOMEM, and rsim_destroy() frees everything (LeakSanitizer, valgrind).
 *
 * The ground truth check must be able to fail: an opcode byte in
 * 0xe8..0xef breaks one simulation's bookkeeping on purpose (a mapcount,
 * the vma count, the address index), demands that rsim_verify() reports
 * it, and repairs it.
 */
#include <stdint.h>
#include <string.h>

#include "rsim.h"
#include "rsim_internal.h"

#include "fuzz_input.h"

#define NR_COMBOS	(RSIM_NR_FILE_SCHEMES * RSIM_NR_ANON_SCHEMES)
#define MAX_OPS		160
#define FILES		3
#define PIDS		5

/*
 * Allocation failure injection, for the victim's ops only: the wrappers
 * pass everything through unless alloc_armed, and then fail the
 * alloc_countdown-th allocation.
 */
static bool alloc_armed, alloc_failed;
static unsigned int alloc_countdown;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);

static bool alloc_should_fail(void)
{
	if (!alloc_armed || !alloc_countdown || --alloc_countdown)
		return false;
	alloc_failed = true;
	return true;
}

void *__wrap_malloc(size_t size)
{
	return alloc_should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return alloc_should_fail() ? NULL : __real_calloc(n, size);
}

struct victim {
	struct rsim	*sim;
	bool		in_step;	/* no allocation has failed yet */
};

static const unsigned long edge_values[] = {
	0,
	1,
	RSIM_TASK_PAGES - 1,
	RSIM_TASK_PAGES,
	RSIM_TASK_PAGES + 1,
	1UL << 32,
	ULONG_MAX / 2 + 1,
	ULONG_MAX,
};

/*
 * File sizes stay small or invalid.  A file of up to RSIM_FILE_MAX_PAGES
 * is valid, but the simulation sizes its page cache array by the file
 * size and rsim_verify() scans it: the first campaign's only findings
 * were a 1 GiB calloc() per simulation (libFuzzer's malloc limit) and a
 * timeout, from "file X 134217727".  See docs/fuzzing.md.
 */
static const unsigned long file_size_edges[] = {
	0, 1, RSIM_FILE_MAX_PAGES + 1, ULONG_MAX,
};

static unsigned long decode_arg(struct fuzz_input *in,
				enum rsim_op_kind kind, const char *name)
{
	uint8_t sel = fuzz_u8(in);

	if (sel >= 0xf8 && !strcmp(name, "npages") &&
	    (kind == RSIM_OP_FILE_CREATE || kind == RSIM_OP_TRUNCATE))
		return file_size_edges[sel & 3];
	if (sel >= 0xf8)
		return edge_values[sel & 7];
	if (strstr(name, "pid") || !strcmp(name, "parent") ||
	    !strcmp(name, "child"))
		return 1 + sel % PIDS;
	if (!strcmp(name, "file"))
		return 1 + sel % FILES;
	if (!strcmp(name, "prot"))
		return sel & (RSIM_PROT_READ | RSIM_PROT_WRITE);
	/* addresses, page counts, offsets: a small space, so ops collide */
	return sel & 63;
}

static void op_text(char *buf, size_t size, const struct rsim_op *op)
{
	const struct rsim_op_desc *desc = rsim_op_desc(op->kind);
	unsigned int i;
	int n;

	n = snprintf(buf, size, "%s", desc ? desc->name : "?");
	for (i = 0; desc && i < desc->nr_args && n > 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - n, " %lu", op->args[i]);
}

static const char *combo_name(int i)
{
	static char name[64];

	snprintf(name, sizeof(name), "%s/%s",
		 rsim_file_scheme_name(i / RSIM_NR_ANON_SCHEMES),
		 rsim_anon_scheme_name(i % RSIM_NR_ANON_SCHEMES));
	return name;
}

/*
 * The victim's turn: the same op, with the armed allocation failure (if
 * any) falling into it.
 */
static void apply_victim(struct victim *v, struct rsim **sim,
			 const struct rsim_op *op, const char *text, int rc0)
{
	struct rsim_report report;
	bool was_broken = v->sim->broken;
	int rc;

	alloc_failed = false;
	alloc_armed = true;
	rc = rsim_apply(v->sim, op);
	alloc_armed = false;

	if (was_broken) {
		FUZZ_EXPECT(rc == -ENOMEM, "'%s' on a broken simulation: %d",
			    text, rc);
		return;
	}
	if (alloc_failed && rc == -ENOMEM)
		v->in_step = false;
	if (!v->in_step) {
		FUZZ_EXPECT(v->sim->broken ||
			    rsim_verify(v->sim, &report) == 0,
			    "'%s' after an allocation failure: %s", text,
			    report.msg);
		return;
	}
	FUZZ_EXPECT(rc == rc0, "'%s' returned %d in the victim, %d under %s",
		    text, rc, rc0, combo_name(0));
	FUZZ_EXPECT(!v->sim->broken, "'%s': broken without -ENOMEM", text);
	FUZZ_EXPECT(rsim_verify(v->sim, &report) == 0, "'%s' in the victim: %s",
		    text, report.msg);
	FUZZ_EXPECT(rsim_digest(v->sim) == rsim_digest(sim[0]),
		    "'%s': victim digest differs", text);
}

/* Run @op everywhere and demand agreement with sim[0] and ground truth. */
static void apply_everywhere(struct rsim **sim, struct victim *v,
			     const struct rsim_op *op)
{
	const struct rsim_walk_result *walk0, *walk;
	struct rsim_report report;
	char text[160];
	int rc0 = 0, rc, i;

	op_text(text, sizeof(text), op);
	for (i = 0; i < NR_COMBOS; i++) {
		rc = rsim_apply(sim[i], op);
		if (!i)
			rc0 = rc;
		FUZZ_EXPECT(rc == rc0, "'%s' returned %d under %s, %d under %s",
			    text, rc, combo_name(i), rc0, combo_name(0));
		if (!i)
			apply_victim(v, sim, op, text, rc0);
		FUZZ_EXPECT(rc == 0 || rc == -ENOMEM || (rc < 0 && rc > -4096),
			    "'%s' returned %d, no errno", text, rc);
		FUZZ_EXPECT(rsim_verify(sim[i], &report) == 0,
			    "'%s' under %s: %s", text, combo_name(i),
			    report.msg);
		FUZZ_EXPECT(rsim_digest(sim[i]) == rsim_digest(sim[0]),
			    "'%s': digest %016llx under %s, %016llx under %s",
			    text, (unsigned long long)rsim_digest(sim[i]),
			    combo_name(i),
			    (unsigned long long)rsim_digest(sim[0]),
			    combo_name(0));
		if (rc || (op->kind != RSIM_OP_WALK_FILE &&
			   op->kind != RSIM_OP_WALK_ADDR))
			continue;
		walk0 = rsim_last_walk(sim[0]);
		walk = rsim_last_walk(sim[i]);
		FUZZ_EXPECT(walk->nr == walk0->nr && walk->hash == walk0->hash,
			    "'%s': %lu mappings under %s, %lu under %s", text,
			    walk->nr, combo_name(i), walk0->nr, combo_name(0));
	}
}

/* Break one thing in one simulation, see rsim_verify() catch it, repair. */
static void corrupt_one(struct fuzz_input *in, struct rsim **sim)
{
	int i = fuzz_below(in, NR_COMBOS);
	struct rsim *victim = sim[i];
	struct rsim_report report;
	struct rsim_page *page;
	struct rsim_mm *mm;
	unsigned short bits;
	const char *what;

	switch (fuzz_below(in, 3)) {
	case 0:
		if (list_empty(&victim->pages))
			return;
		page = list_first_entry(&victim->pages, struct rsim_page, lru);
		page->mapcount++;
		what = "a wrong mapcount";
		FUZZ_EXPECT(rsim_verify(victim, &report) == -EUCLEAN,
			    "rsim_verify() under %s to catch %s",
			    combo_name(i), what);
		page->mapcount--;
		break;
	case 1:
		if (list_empty(&victim->mms))
			return;
		mm = list_first_entry(&victim->mms, struct rsim_mm, all);
		mm->nr_vmas++;
		what = "a wrong vma count";
		FUZZ_EXPECT(rsim_verify(victim, &report) == -EUCLEAN,
			    "rsim_verify() under %s to catch %s",
			    combo_name(i), what);
		mm->nr_vmas--;
		break;
	default:
		if (list_empty(&victim->mms))
			return;
		mm = list_first_entry(&victim->mms, struct rsim_mm, all);
		bits = mm->addr_index.index_bits;
		mm->addr_index.index_bits = 0;
		what = "a broken address index";
		FUZZ_EXPECT(rsim_verify(victim, &report) == -EUCLEAN,
			    "rsim_verify() under %s to catch %s",
			    combo_name(i), what);
		mm->addr_index.index_bits = bits;
		break;
	}
	FUZZ_EXPECT(report.msg[0], "a message for %s", what);
	FUZZ_EXPECT(rsim_verify(victim, &report) == 0,
		    "the repaired simulation under %s: %s", combo_name(i),
		    report.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rsim_op_desc *desc;
	struct rsim *sim[NR_COMBOS];
	struct victim victim = { .in_step = true };
	struct fuzz_input in;
	struct rsim_op op;
	unsigned int ops, i;
	uint8_t code;

	fuzz_input_init(&in, data, size);
	alloc_countdown = 0;
	for (i = 0; i < NR_COMBOS; i++) {
		sim[i] = rsim_create(i / RSIM_NR_ANON_SCHEMES,
				     i % RSIM_NR_ANON_SCHEMES);
		FUZZ_EXPECT(sim[i], "a simulation for %s", combo_name(i));
	}
	i = fuzz_below(&in, NR_COMBOS);
	victim.sim = rsim_create(i / RSIM_NR_ANON_SCHEMES,
				 i % RSIM_NR_ANON_SCHEMES);
	FUZZ_EXPECT(victim.sim, "a victim simulation for %s", combo_name(i));

	/* the files, and process 1, exist from the start */
	for (i = 1; i <= FILES; i++) {
		op = (struct rsim_op){ RSIM_OP_FILE_CREATE,
				       { i, fuzz_u8(&in) % 48 } };
		apply_everywhere(sim, &victim, &op);
	}
	op = (struct rsim_op){ RSIM_OP_EXEC, { 1 } };
	apply_everywhere(sim, &victim, &op);

	for (ops = 0; ops < MAX_OPS && fuzz_more(&in); ops++) {
		code = fuzz_u8(&in);
		if (code >= 0xf0) {
			/* the n-th allocation of the victim from now fails */
			alloc_countdown = 1 + fuzz_below(&in, 24);
			continue;
		}
		if (code >= 0xe8) {
			corrupt_one(&in, sim);
			continue;
		}
		memset(&op, 0, sizeof(op));
		op.kind = code % RSIM_NR_OPS;
		desc = rsim_op_desc(op.kind);
		FUZZ_EXPECT(desc && desc->nr_args <= RSIM_OP_MAX_ARGS,
			    "a description of op kind %d", op.kind);
		for (i = 0; i < desc->nr_args; i++)
			op.args[i] = decode_arg(&in, op.kind,
						desc->arg_names[i]);
		apply_everywhere(sim, &victim, &op);
	}

	for (i = 0; i < NR_COMBOS; i++)
		rsim_destroy(sim[i]);
	rsim_destroy(victim.sim);
	return 0;
}
