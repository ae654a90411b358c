/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RMAPSIM_SCENARIO_H
#define RMAPSIM_SCENARIO_H

/*
 * Scenario files: the text form of a struct rsim_op sequence, as
 * docs/scenario-format.md describes it.  A scenario is read whole and
 * validated - syntax first, then each op against the state the ops
 * before it reached - before any caller runs it.
 */

#include <stdio.h>

#include "rmap/rsim.h"

struct scenario {
	char		*path;		/* as given, for messages */
	char		*name;		/* from the "scenario NAME" line */
	struct rsim_op	*ops;
	unsigned long	*lines;		/* source line of each op */
	unsigned long	nr;
	unsigned long	cap;
};

/*
 * scenario_load() - read and validate the scenario file @path ("-" is
 * stdin) into @sc
 *
 * On the first error, prints "PATH:LINE: expected ..." on stderr and
 * returns -1; nothing of the file is kept then.  Cost: O(file size)
 * plus one run of the ops on a scratch simulation.
 *
 * Return: 0 or -1.
 *
 * Example:
 *	struct scenario sc;
 *
 *	if (scenario_load("avc.scn", &sc))
 *		exit(1);
 *	run(&sc);
 *	scenario_free(&sc);
 */
int scenario_load(const char *path, struct scenario *sc);

/* Free what scenario_load() allocated.  O(1). */
void scenario_free(struct scenario *sc);

/*
 * scenario_print_header() / scenario_print_op() - the text form, which
 * scenario_load() reads back to the same ops.  O(1) each.
 *
 * Example:
 *	scenario_print_header(stdout, "tiny");
 *	scenario_print_op(stdout, &(struct rsim_op){
 *		.kind = RSIM_OP_EXEC, .args = { 1 } });
 */
void scenario_print_header(FILE *out, const char *name);
void scenario_print_op(FILE *out, const struct rsim_op *op);

/*
 * The text of @op, as scenario_print_op() writes it, into @buf
 * (NUL-terminated, truncated to @size).  For messages.
 */
void scenario_format_op(char *buf, size_t size, const struct rsim_op *op);

#endif /* RMAPSIM_SCENARIO_H */
