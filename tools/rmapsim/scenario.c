// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files: parse, validate, print.  See docs/scenario-format.md.
 *
 * Validation runs in two passes over the whole file before anything is
 * returned: the syntax of every line, then every op against the state
 * reached by the ops before it.  The second pass tracks live process and
 * file ids itself, to say precisely what is wrong with the common
 * mistakes (an unknown pid, a pid reused), and otherwise replays the ops
 * on a scratch simulation: rsim_apply() refusing an op names its line.
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define LINE_MAX_BYTES	4096
#define NAME_MAX_BYTES	200
/* more than any op has: an op name and RSIM_OP_MAX_ARGS arguments */
#define MAX_WORDS	(RSIM_OP_MAX_ARGS + 2)

static void __attribute__((format(printf, 3, 4)))
report(const char *path, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%lu: ", path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- the text of one op --------------------------------------------- */

/* The argument that holds protection bits, or -1. */
static int prot_arg(enum rsim_op_kind kind)
{
	switch (kind) {
	case RSIM_OP_MMAP_SHARED:
	case RSIM_OP_MMAP_PRIVATE:
	case RSIM_OP_MMAP_ANON:
	case RSIM_OP_MPROTECT:
		return 3;
	default:
		return -1;
	}
}

static const struct {
	const char	*word;
	unsigned long	prot;
} prot_words[] = {
	{ "none",	0 },
	{ "r",		RSIM_PROT_READ },
	{ "w",		RSIM_PROT_WRITE },
	{ "rw",		RSIM_PROT_READ | RSIM_PROT_WRITE },
};

static const char *prot_word(unsigned long prot)
{
	size_t i;

	for (i = 0; i < sizeof(prot_words) / sizeof(prot_words[0]); i++)
		if (prot_words[i].prot == prot)
			return prot_words[i].word;
	return NULL;
}

void scenario_format_op(char *buf, size_t size, const struct rsim_op *op)
{
	const struct rsim_op_desc *desc = rsim_op_desc(op->kind);
	size_t len;
	unsigned int i;
	const char *word;

	if (!desc) {
		snprintf(buf, size, "<op kind %d>", (int)op->kind);
		return;
	}
	snprintf(buf, size, "%s", desc->name);
	for (i = 0; i < desc->nr_args; i++) {
		len = strlen(buf);
		word = (int)i == prot_arg(op->kind) ? prot_word(op->args[i]) :
			NULL;
		if (word)
			snprintf(buf + len, size - len, " %s", word);
		else
			snprintf(buf + len, size - len, " %lu", op->args[i]);
	}
}

void scenario_print_op(FILE *out, const struct rsim_op *op)
{
	char text[256];

	scenario_format_op(text, sizeof(text), op);
	fprintf(out, "%s\n", text);
}

void scenario_print_header(FILE *out, const char *name)
{
	fprintf(out, "scenario %s\n", name);
}

/* ---- syntax ----------------------------------------------------------- */

/* Split @line in place into at most @max blank-separated words, up to '#'. */
static int split_words(char *line, char **word, int max)
{
	int nr = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (nr == max)
			return max + 1;
		word[nr++] = p;
		while (*p && !isspace((unsigned char)*p) && *p != '#')
			p++;
		if (*p == '#') {
			*p = '\0';
			break;
		}
		if (*p)
			*p++ = '\0';
	}
	return nr;
}

int scenario_number(const char *word, unsigned long long max,
		    unsigned long long *out)
{
	const char *digits = word;
	unsigned long long value;
	int base = 10;
	char *end;

	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
		digits = word + 2;
		base = 16;
	}
	/* strtoull() would take blanks and a sign here */
	if (!(base == 16 ? isxdigit((unsigned char)*digits) :
			   isdigit((unsigned char)*digits)))
		return -EINVAL;
	errno = 0;
	value = strtoull(digits, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || value > max)
		return -ERANGE;
	*out = value;
	return 0;
}

/* An op argument; with -ERANGE, errno says so for the message. */
static bool parse_number(const char *word, unsigned long *out)
{
	unsigned long long value;
	int err = scenario_number(word, ULONG_MAX, &value);

	errno = -err;
	if (err)
		return false;
	*out = value;
	return true;
}

static bool valid_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > NAME_MAX_BYTES)
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
			return false;
	return true;
}

/* Every op name, for the "unknown op" message. */
static void list_op_names(char *buf, size_t size)
{
	const struct rsim_op_desc *desc;
	size_t len = 0;
	int kind;

	buf[0] = '\0';
	for (kind = 0; kind < RSIM_NR_OPS && len < size; kind++) {
		desc = rsim_op_desc(kind);
		len += snprintf(buf + len, size - len, "%s%s",
				kind ? ", " : "", desc->name);
	}
}

static int scenario_push(struct scenario *sc, const struct rsim_op *op,
			 unsigned long line)
{
	void *ops, *lines;

	if (sc->nr == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 1024;
		ops = realloc(sc->ops, sc->cap * sizeof(*sc->ops));
		if (ops)
			sc->ops = ops;
		lines = realloc(sc->lines, sc->cap * sizeof(*sc->lines));
		if (lines)
			sc->lines = lines;
		if (!ops || !lines)
			return -1;
	}
	sc->ops[sc->nr] = *op;
	sc->lines[sc->nr] = line;
	sc->nr++;
	return 0;
}

/* The words so far, for "after 'mmap-anon 1 16'" in messages. */
static void join_words(char *buf, size_t size, char **word, int nr)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? " " : "",
				word[i]);
}

/*
 * One op line: NAME ARG...  Returns 0, or -1 after reporting.
 */
static int parse_op(const char *path, unsigned long line, char **word,
		    int nr, struct rsim_op *op)
{
	const struct rsim_op_desc *desc;
	char names[512], before[256];
	unsigned int i;
	size_t w;
	int kind;

	kind = rsim_op_parse(word[0]);
	if (kind < 0) {
		list_op_names(names, sizeof(names));
		report(path, line, "expected an op (%s), got '%s'", names,
		       word[0]);
		return -1;
	}
	desc = rsim_op_desc(kind);
	memset(op, 0, sizeof(*op));
	op->kind = kind;

	for (i = 0; i < desc->nr_args; i++) {
		join_words(before, sizeof(before), word, i + 1);
		if ((int)i + 1 >= nr) {
			report(path, line, "expected %s after '%s'",
			       desc->arg_names[i], before);
			return -1;
		}
		if ((int)i == prot_arg(kind)) {
			for (w = 0; w < sizeof(prot_words) /
				    sizeof(prot_words[0]); w++)
				if (!strcmp(word[i + 1], prot_words[w].word))
					break;
			if (w < sizeof(prot_words) / sizeof(prot_words[0])) {
				op->args[i] = prot_words[w].prot;
				continue;
			}
			if (!parse_number(word[i + 1], &op->args[i]) ||
			    op->args[i] > (RSIM_PROT_READ | RSIM_PROT_WRITE)) {
				report(path, line,
				       "expected %s (none, r, w or rw) after '%s', got '%s'",
				       desc->arg_names[i], before,
				       word[i + 1]);
				return -1;
			}
			continue;
		}
		if (!parse_number(word[i + 1], &op->args[i])) {
			report(path, line,
			       "expected %s (a number%s) after '%s', got '%s'",
			       desc->arg_names[i],
			       errno == ERANGE ? " below 2^64" : "",
			       before, word[i + 1]);
			return -1;
		}
	}
	if ((int)desc->nr_args + 1 < nr) {
		join_words(before, sizeof(before), word, desc->nr_args + 1);
		report(path, line, "expected end of line after '%s', got '%s'",
		       before, word[desc->nr_args + 1]);
		return -1;
	}
	return 0;
}

static int parse_stream(FILE *f, struct scenario *sc)
{
	char *line = NULL, *word[MAX_WORDS];
	unsigned long lineno = 0, header_line = 0;
	struct rsim_op op;
	size_t line_cap = 0;
	ssize_t len;
	int nr, err = -1;

	while ((len = getline(&line, &line_cap, f)) >= 0) {
		lineno++;
		if (len > LINE_MAX_BYTES + 1) {
			report(sc->path, lineno,
			       "expected a line of at most %d bytes",
			       LINE_MAX_BYTES);
			goto out;
		}
		if (strlen(line) != (size_t)len) {
			report(sc->path, lineno,
			       "expected text, got a NUL byte in column %zu",
			       strlen(line) + 1);
			goto out;
		}
		nr = split_words(line, word, MAX_WORDS);
		if (nr > MAX_WORDS)
			nr = MAX_WORDS;	/* names the first extra word */
		if (!nr)
			continue;
		if (!strcmp(word[0], "scenario")) {
			if (header_line) {
				report(sc->path, lineno,
				       "expected one 'scenario' line, the first is line %lu",
				       header_line);
				goto out;
			}
			if (nr < 2 || !valid_name(word[1])) {
				report(sc->path, lineno,
				       "expected a scenario name (letters, digits, '.', '_', '+', '-') after 'scenario', got '%s'",
				       nr < 2 ? "" : word[1]);
				goto out;
			}
			if (nr > 2) {
				report(sc->path, lineno,
				       "expected end of line after 'scenario %s', got '%s'",
				       word[1], word[2]);
				goto out;
			}
			header_line = lineno;
			sc->name = strdup(word[1]);
			if (!sc->name)
				goto nomem;
			continue;
		}
		if (!header_line) {
			report(sc->path, lineno,
			       "expected 'scenario NAME' before the first op, got '%s'",
			       word[0]);
			goto out;
		}
		if (parse_op(sc->path, lineno, word, nr, &op))
			goto out;
		if (scenario_push(sc, &op, lineno))
			goto nomem;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", sc->path);
		goto out;
	}
	if (!header_line) {
		report(sc->path, lineno + 1,
		       "expected 'scenario NAME', got end of file");
		goto out;
	}
	err = 0;
	goto out;
nomem:
	fprintf(stderr, "%s: out of memory\n", sc->path);
	err = -ENOMEM;
out:
	free(line);
	return err;
}

/* ---- semantics -------------------------------------------------------- */

/* A set of live ids (pids or files): open hashing on a power of two. */
struct id_set {
	struct id_node	**bucket;
	unsigned long	nr_buckets;
	unsigned long	nr;
};

struct id_node {
	struct id_node	*next;
	unsigned long	id;
};

static unsigned long id_hash(const struct id_set *set, unsigned long id)
{
	return (id * 0x9e3779b97f4a7c15ULL >> 17) & (set->nr_buckets - 1);
}

static struct id_node **id_find(struct id_set *set, unsigned long id)
{
	struct id_node **pos = &set->bucket[id_hash(set, id)];

	while (*pos && (*pos)->id != id)
		pos = &(*pos)->next;
	return pos;
}

static bool id_present(struct id_set *set, unsigned long id)
{
	return set->nr_buckets && *id_find(set, id) != NULL;
}

static int id_add(struct id_set *set, unsigned long id)
{
	struct id_node **pos, *node, **old = set->bucket;
	unsigned long i, old_nr = set->nr_buckets;

	if (set->nr >= set->nr_buckets) {
		set->nr_buckets = set->nr_buckets ? 2 * set->nr_buckets : 64;
		set->bucket = calloc(set->nr_buckets, sizeof(*set->bucket));
		if (!set->bucket)
			return -1;
		for (i = 0; i < old_nr; i++) {
			while (old[i]) {
				node = old[i];
				old[i] = node->next;
				pos = &set->bucket[id_hash(set, node->id)];
				node->next = *pos;
				*pos = node;
			}
		}
		free(old);
	}
	node = malloc(sizeof(*node));
	if (!node)
		return -1;
	node->id = id;
	pos = &set->bucket[id_hash(set, id)];
	node->next = *pos;
	*pos = node;
	set->nr++;
	return 0;
}

static void id_del(struct id_set *set, unsigned long id)
{
	struct id_node **pos, *node;

	if (!set->nr_buckets)
		return;
	pos = id_find(set, id);
	node = *pos;
	if (node) {
		*pos = node->next;
		free(node);
		set->nr--;
	}
}

static void id_free(struct id_set *set)
{
	struct id_node *node;
	unsigned long i;

	for (i = 0; i < set->nr_buckets; i++) {
		while (set->bucket[i]) {
			node = set->bucket[i];
			set->bucket[i] = node->next;
			free(node);
		}
	}
	free(set->bucket);
}

/* Which argument is an existing pid, a new pid, an existing file... */
struct op_ids {
	int	live_pid;	/* must name a live process */
	int	new_pid;	/* must name no live process */
	int	live_file;	/* must name an existing file */
	int	new_file;	/* must name no existing file */
};

static struct op_ids op_ids(enum rsim_op_kind kind)
{
	struct op_ids ids = { -1, -1, -1, -1 };

	switch (kind) {
	case RSIM_OP_FILE_CREATE:
		ids.new_file = 0;
		break;
	case RSIM_OP_EXEC:
		break;
	case RSIM_OP_FORK:
		ids.live_pid = 0;
		ids.new_pid = 1;
		break;
	case RSIM_OP_MMAP_SHARED:
	case RSIM_OP_MMAP_PRIVATE:
		ids.live_pid = 0;
		ids.live_file = 4;
		break;
	case RSIM_OP_TRUNCATE:
	case RSIM_OP_RECLAIM_FILE:
	case RSIM_OP_WALK_FILE:
		ids.live_file = 0;
		break;
	default:
		ids.live_pid = 0;
		break;
	}
	return ids;
}

static const char *errno_meaning(int err)
{
	switch (err) {
	case -EFAULT:
		return "no vma there, a write without write permission, or a page beyond EOF";
	case -ENOMEM:
		return "a page of the range unmapped, or no room to grow";
	case -EINVAL:
		return "an argument out of range, or ranges that may not overlap";
	case -EEXIST:
		return "the id is taken";
	case -ESRCH:
		return "no such process";
	case -ENOENT:
		return "no such file";
	default:
		return "refused";
	}
}

static const char *errno_name(int err)
{
	switch (err) {
	case -EFAULT:	return "-EFAULT";
	case -ENOMEM:	return "-ENOMEM";
	case -EINVAL:	return "-EINVAL";
	case -EEXIST:	return "-EEXIST";
	case -ESRCH:	return "-ESRCH";
	case -ENOENT:	return "-ENOENT";
	default:	return "an error";
	}
}

/* ---- work ------------------------------------------------------------- */

/*
 * The counters of units of work.  Walks, calls and mappings found are
 * left out: each is already a vma or pte visited, or an op.
 */
static u64 walk_work(const struct rsim_walk_cost *c)
{
	return c->vmas + c->mms + c->anon_vmas + c->chain_entries + c->ptes;
}

static u64 op_work(const struct rsim_op_cost *c)
{
	return c->ptes + c->rmap_updates;
}

/*
 * SCENARIO_OP_WORK: timing each op of the generated scenarios (CPU time,
 * under six of the twelve scheme pairs) against its counters, an op
 * costs 0.7 to 1.3 us besides its units of work, and a unit 20 to 50 ns.
 */
u64 scenario_work(const struct rsim_cost *cost, unsigned long ops)
{
	return (u64)SCENARIO_OP_WORK * ops +
	       walk_work(&cost->file_walk) + walk_work(&cost->anon_walk) +
	       op_work(&cost->fork) + op_work(&cost->exit) +
	       op_work(&cost->mremap) + op_work(&cost->munmap) +
	       op_work(&cost->truncate) +
	       cost->faults + cost->cow_copies + cost->cow_early +
	       cost->pages_reclaimed;
}

/*
 * Replay the ops on a scratch simulation, checking ids first.  Whether
 * an op applies does not depend on the schemes (rsim.h), and rmapsim
 * compare checks exactly that, so the replay takes the cheapest pair:
 * pte_chain for both.  Its reverse map is exact, so a walk (reclaim)
 * visits only the ptes that map the page, and fork adds one entry per
 * pte it copies, which copying the page tables costs anyway.  The
 * others have shapes that go quadratic: anon_vma_chain copies a chain
 * of avcs per fork (12 s to validate a 20,000-deep fork chain),
 * anon_vma and anonmm walk every vma or mm of the chain per reclaim,
 * list walks every vma of a file.  The run's own schemes would make
 * validation as slow as the run, and compare has twelve of them: none
 * is as cheap as pte_chain on every shape.
 *
 * The replay also records @sc->work, the work done after each op: a
 * profile of the run for its progress display.  Most of that work is
 * the same under every scheme (each op's fixed cost, copying and zapping
 * page tables, faults), but its walks are pte_chain's, the cheapest:
 * where another scheme's walks go quadratic, its progress stalls there.
 */
static int validate(struct scenario *sc)
{
	struct id_set pids = { 0 }, files = { 0 };
	const struct rsim_op *op;
	struct op_ids ids;
	char text[256];
	struct rsim *sim;
	unsigned long i, line;
	int err = 0;

	sim = rsim_create(RSIM_FILE_PTE_CHAIN, RSIM_ANON_PTE_CHAIN);
	sc->work = malloc((sc->nr ? sc->nr : 1) * sizeof(*sc->work));
	if (!sim || !sc->work) {
		if (sim)
			rsim_destroy(sim);
		fprintf(stderr, "%s: out of memory\n", sc->path);
		return -ENOMEM;
	}
	for (i = 0; i < sc->nr && !err; i++) {
		op = &sc->ops[i];
		line = sc->lines[i];
		ids = op_ids(op->kind);
		scenario_format_op(text, sizeof(text), op);
		err = -1;
		if (ids.live_pid >= 0 &&
		    !id_present(&pids, op->args[ids.live_pid]))
			report(sc->path, line,
			       "expected a live pid in '%s', %lu is not one",
			       text, op->args[ids.live_pid]);
		else if (ids.new_pid >= 0 &&
			 id_present(&pids, op->args[ids.new_pid]))
			report(sc->path, line,
			       "expected a new pid in '%s', %lu is alive",
			       text, op->args[ids.new_pid]);
		else if (ids.live_file >= 0 &&
			 !id_present(&files, op->args[ids.live_file]))
			report(sc->path, line,
			       "expected an existing file in '%s', %lu is not one",
			       text, op->args[ids.live_file]);
		else if (ids.new_file >= 0 &&
			 id_present(&files, op->args[ids.new_file]))
			report(sc->path, line,
			       "expected a new file id in '%s', %lu exists",
			       text, op->args[ids.new_file]);
		else
			err = 0;
		if (err)
			break;

		err = rsim_apply(sim, op);
		if (err && rsim_out_of_memory(sim)) {
			/* the machine's fault, not the scenario's */
			fprintf(stderr, "%s:%lu: out of memory replaying '%s'\n",
				sc->path, line, text);
			err = -ENOMEM;
			break;
		}
		if (err) {
			report(sc->path, line,
			       "expected an op that applies here, but '%s' fails with %s (%s)",
			       text, errno_name(err), errno_meaning(err));
			err = -1;
			break;
		}
		sc->work[i] = scenario_work(rsim_cost(sim), i + 1);
		if ((op->kind == RSIM_OP_EXEC &&
		     !id_present(&pids, op->args[0]) &&
		     id_add(&pids, op->args[0])) ||
		    (op->kind == RSIM_OP_FORK && id_add(&pids, op->args[1])) ||
		    (op->kind == RSIM_OP_FILE_CREATE &&
		     id_add(&files, op->args[0]))) {
			fprintf(stderr, "%s: out of memory\n", sc->path);
			err = -ENOMEM;
			break;
		}
		if (op->kind == RSIM_OP_EXIT)
			id_del(&pids, op->args[0]);
	}
	rsim_destroy(sim);
	id_free(&pids);
	id_free(&files);
	return err == -ENOMEM ? err : err ? -1 : 0;
}

/* ---- loading ---------------------------------------------------------- */

void scenario_free(struct scenario *sc)
{
	free(sc->path);
	free(sc->name);
	free(sc->ops);
	free(sc->lines);
	free(sc->work);
	memset(sc, 0, sizeof(*sc));
}

int scenario_load(const char *path, struct scenario *sc)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f;
	int err;

	memset(sc, 0, sizeof(*sc));
	f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	sc->path = strdup(is_stdin ? "<stdin>" : path);
	if (sc->path) {
		err = parse_stream(f, sc);
	} else {
		fprintf(stderr, "%s: out of memory\n", path);
		err = -ENOMEM;
	}
	if (!is_stdin)
		fclose(f);
	if (!err)
		err = validate(sc);
	if (err)
		scenario_free(sc);
	return err;
}
