// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the reverse-mapping models (src/rmap/, <rsim.h>).
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
 */
#include <stdint.h>
#include <string.h>

#include "rmap/rsim.h"

#include "fuzz_input.h"

#define NR_COMBOS	(RSIM_NR_FILE_SCHEMES * RSIM_NR_ANON_SCHEMES)
#define MAX_OPS		160
#define FILES		3
#define PIDS		5

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

static unsigned long decode_arg(struct fuzz_input *in, const char *name)
{
	uint8_t sel = fuzz_u8(in);

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

/* Run @op everywhere and demand agreement with sim[0] and ground truth. */
static void apply_everywhere(struct rsim **sim, const struct rsim_op *op)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rsim_op_desc *desc;
	struct rsim *sim[NR_COMBOS];
	struct fuzz_input in;
	struct rsim_op op;
	unsigned int ops, i;

	fuzz_input_init(&in, data, size);
	for (i = 0; i < NR_COMBOS; i++) {
		sim[i] = rsim_create(i / RSIM_NR_ANON_SCHEMES,
				     i % RSIM_NR_ANON_SCHEMES);
		FUZZ_EXPECT(sim[i], "a simulation for %s", combo_name(i));
	}

	/* the files, and process 1, exist from the start */
	for (i = 1; i <= FILES; i++) {
		op = (struct rsim_op){ RSIM_OP_FILE_CREATE,
				       { i, fuzz_u8(&in) % 48 } };
		apply_everywhere(sim, &op);
	}
	op = (struct rsim_op){ RSIM_OP_EXEC, { 1 } };
	apply_everywhere(sim, &op);

	for (ops = 0; ops < MAX_OPS && fuzz_more(&in); ops++) {
		memset(&op, 0, sizeof(op));
		op.kind = fuzz_below(&in, RSIM_NR_OPS);
		desc = rsim_op_desc(op.kind);
		FUZZ_EXPECT(desc && desc->nr_args <= RSIM_OP_MAX_ARGS,
			    "a description of op kind %d", op.kind);
		for (i = 0; i < desc->nr_args; i++)
			op.args[i] = decode_arg(&in, desc->arg_names[i]);
		apply_everywhere(sim, &op);
	}

	for (i = 0; i < NR_COMBOS; i++)
		rsim_destroy(sim[i]);
	return 0;
}
