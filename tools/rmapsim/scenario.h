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

#include "rsim.h"

struct scenario {
	char		*path;		/* as given, for messages */
	char		*name;		/* of the "scenario NAME" line */
	struct rsim_op	*ops;
	unsigned long	*lines;		/* source line of each op */
	/*
	 * scenario_work() of validation's replay after each op: a profile
	 * of where a run spends its time, for showing progress
	 */
	u64		*work;
	unsigned long	nr;
	unsigned long	cap;
};

/**
 * scenario_work() - the work that cost counters stand for
 * @cost: the counters of a simulation
 * @ops: the ops it has applied
 *
 * Time spent on ops follows the units of work the counters count (ptes
 * copied, zapped or examined, vmas and pte_chain entries visited,
 * reverse-map updates, faults, copies) plus a fixed cost per op, which
 * costs about as much as SCENARIO_OP_WORK such units.  The sum never
 * decreases as ops run.  Cost: O(1).
 *
 * Return: the work in those units.
 *
 * Example:
 *	u64 done = scenario_work(rsim_cost(sim), i + 1);
 */
#define SCENARIO_OP_WORK	32
u64 scenario_work(const struct rsim_cost *cost, unsigned long ops);

/**
 * scenario_load() - read and validate a scenario file
 * @path: the file, "-" for stdin
 * @sc: filled in on success
 *
 * On the first error, prints "PATH:LINE: expected ..." on stderr and
 * returns -1; nothing of the file is kept then.  When memory runs out
 * (reading, or replaying the ops), says "out of memory" instead and
 * returns -ENOMEM: the scenario may be good.  The replay fills in
 * @sc->work.  Cost: O(file size) plus one run of the ops on a scratch
 * simulation.
 *
 * Return: 0, -1 for a bad scenario, or -ENOMEM.
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

/**
 * scenario_free() - free what scenario_load() allocated
 * @sc: a loaded scenario; zeroed afterwards
 *
 * Cost: O(1).
 *
 * Example:
 *	scenario_free(&sc);
 */
void scenario_free(struct scenario *sc);

/**
 * scenario_print_header() - write the "scenario NAME" line
 * @out: the stream
 * @name: the scenario's name
 *
 * scenario_print_op() then writes one op per line, in the text form that
 * scenario_load() reads back to the same ops.  O(1) each.
 *
 * Example:
 *	scenario_print_header(stdout, "tiny");
 *	scenario_print_op(stdout, &(struct rsim_op){
 *		.kind = RSIM_OP_EXEC, .args = { 1 } });
 */
void scenario_print_header(FILE *out, const char *name);

/**
 * scenario_print_op() - write one op as a line of text
 * @out: the stream
 * @op: the op
 *
 * Cost: O(1).
 *
 * Example:
 *	scenario_print_op(stdout, &sc.ops[0]);
 */
void scenario_print_op(FILE *out, const struct rsim_op *op);

/**
 * scenario_format_op() - the text of one op, for messages
 * @buf: receives the text, NUL-terminated, truncated to @size
 * @size: bytes at @buf
 * @op: the op
 *
 * The same text as scenario_print_op() writes, without the newline.
 * Cost: O(@size).
 *
 * Example:
 *	char text[256];
 *
 *	scenario_format_op(text, sizeof(text), op);
 */
void scenario_format_op(char *buf, size_t size, const struct rsim_op *op);

/**
 * scenario_number() - a whole word as a number from 0 to @max
 * @word: the word, NUL-terminated
 * @max: the largest value allowed
 * @out: the value, set on success only
 *
 * Decimal digits, or "0x"/"0X" and hex digits: the syntax of numbers in
 * scenario files and on rmapsim's command line alike.  A leading 0 is a
 * decimal digit ("010" is ten, "08" eight), not strtoul()'s octal, and
 * there is no sign and no blank (strtoul() reads " -1" as ULONG_MAX).
 * Cost: O(strlen(@word)).
 *
 * Example:
 *	if (scenario_number(arg, ULONG_MAX, &pages))
 *		usage_error("expected a number, got '%s'", arg);
 *
 * Return: 0; -ERANGE if the number is above @max; -EINVAL if @word is
 * not a number.
 */
int scenario_number(const char *word, unsigned long long max,
		    unsigned long long *out);

#endif /* RMAPSIM_SCENARIO_H */
