// SPDX-License-Identifier: GPL-2.0
/*
 * rmapsim - run the reverse-mapping schemes of the 2004 debate on the
 * same scenario and compare what they cost.
 *
 *   rmapsim gen KIND [-l|-r|-h] [-i N] [-n N] [-s N] [-t N] [-w N] [-V N]
 *                    [--seed N]
 *	Write a generated scenario (src/rsim/gen.h) to stdout.
 *
 *   rmapsim run [--file=SCHEME] [--anon=SCHEME] [--verify-every=N] FILE
 *	Run FILE ("-" for stdin) under one file scheme (pte_chain, list,
 *	prio; default prio) and one anonymous scheme (pte_chain, anon_vma,
 *	anonmm, anon_vma_chain; default anon_vma), print the cost counters
 *	one "name value" per line, and last "PT-DIGEST NAME HEX".
 *
 *   rmapsim compare [--verify-every=N] FILE
 *	Run FILE under all twelve scheme combinations, check each against
 *	ground truth (rsim_verify()) and against the others (the digest of
 *	every rmap walk, the ptes mapped at the end), print one table, and
 *	exit 1 on any disagreement.
 *
 * The scenario is parsed and validated whole before anything runs
 * (scenario.c).  Exit status: 0 success, 1 disagreement or a failed
 * verification, 2 bad usage or a bad scenario file.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "scenario.h"

#define EXIT_DISAGREE	1
#define EXIT_USAGE	2
/* not the scenario's fault: it may run on a machine with more memory */
#define EXIT_NOMEM	3

static const char usage_text[] =
"usage: rmapsim gen KIND [-l|-r|-h] [-i N] [-n N] [-s N] [-t N] [-w N]\n"
"                        [-V N] [--seed N]\n"
"       rmapsim run [--file=SCHEME] [--anon=SCHEME] [--verify-every=N] FILE\n"
"       rmapsim compare [--verify-every=N] FILE\n"
"KIND: rmap-test test-mmap2 test-mmap3 avc-fork-chain fork-exec-mix random\n"
"file SCHEME: pte_chain list prio; anon SCHEME: pte_chain anon_vma anonmm\n"
"anon_vma_chain.  FILE may be - for stdin.  See docs/scenario-format.md.\n";

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("rmapsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
	exit(EXIT_USAGE);
}

/* A whole-word unsigned number, or a usage error naming @what. */
static unsigned long number_arg(const char *what, const char *arg)
{
	unsigned long value;
	char *end;

	if (!arg)
		usage_error("expected a number after %s", what);
	errno = 0;
	value = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-')
		usage_error("expected a number after %s, got '%s'", what, arg);
	return value;
}

/* ---- gen ------------------------------------------------------------ */

/* The option letters each kind reads; anything else is refused. */
static const char *const gen_letters[RSIM_NR_GEN_KINDS] = {
	[RSIM_GEN_RMAP_TEST]		= "lrhinstV",
	[RSIM_GEN_TEST_MMAP2]		= "stV",
	[RSIM_GEN_TEST_MMAP3]		= "stV",
	[RSIM_GEN_AVC_FORK_CHAIN]	= "stwV",
	[RSIM_GEN_FORK_EXEC_MIX]	= "istV",
	[RSIM_GEN_RANDOM]		= "inst",
};

static int print_op(void *ctx, const struct rsim_op *op)
{
	FILE *out = ctx;

	scenario_print_op(out, op);
	return ferror(out) ? -EIO : 0;
}

static int cmd_gen(int argc, char **argv)
{
	struct rsim_gen_params params;
	const char *kind_name, *arg, *why;
	char name[128], letter;
	int kind, i, err;
	bool seeded = false;

	if (argc < 1)
		usage_error("gen: expected a KIND");
	kind_name = argv[0];
	for (kind = 0; kind < RSIM_NR_GEN_KINDS; kind++)
		if (!strcmp(kind_name, rsim_gen_kind_name(kind)))
			break;
	if (kind == RSIM_NR_GEN_KINDS)
		usage_error("gen: expected a KIND, got '%s'", kind_name);
	rsim_gen_defaults(&params, kind);

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--seed") || !strncmp(arg, "--seed=", 7)) {
			params.seed = number_arg("--seed", arg[6] == '=' ?
						 arg + 7 : argv[++i]);
			seeded = true;
			continue;
		}
		/* rmap-test's -v and -vv: verbosity, meaningless here */
		if (!strcmp(arg, "-v") || !strcmp(arg, "-vv"))
			continue;
		if (arg[0] != '-' || !arg[1] || arg[2])
			usage_error("gen %s: expected an option, got '%s'",
				    kind_name, arg);
		letter = arg[1];
		if (!strchr(gen_letters[kind], letter))
			usage_error("gen %s: expected one of the options -%s or --seed, got '%s'",
				    kind_name, gen_letters[kind], arg);
		switch (letter) {
		case 'l':
			params.access = RSIM_GEN_ACCESS_LINEAR;
			break;
		case 'r':
			params.access = RSIM_GEN_ACCESS_RANDOM;
			break;
		case 'h':
			params.access = RSIM_GEN_ACCESS_HALF;
			break;
		case 'i':
			params.iterations = number_arg(arg, argv[++i]);
			break;
		case 'n':
			params.mappings = number_arg(arg, argv[++i]);
			break;
		case 's':
			params.size = number_arg(arg, argv[++i]);
			break;
		case 't':
			params.tasks = number_arg(arg, argv[++i]);
			break;
		case 'w':
			params.workers = number_arg(arg, argv[++i]);
			break;
		case 'V':
			params.reclaim = number_arg(arg, argv[++i]);
			break;
		}
	}
	if (seeded && (kind == RSIM_GEN_TEST_MMAP2 ||
		       kind == RSIM_GEN_TEST_MMAP3 ||
		       kind == RSIM_GEN_AVC_FORK_CHAIN ||
		       (kind == RSIM_GEN_RMAP_TEST &&
			params.access != RSIM_GEN_ACCESS_RANDOM)))
		usage_error("gen %s: --seed given, but this kind draws no random numbers",
			    kind_name);
	if (rsim_gen_check(&params, &why))
		usage_error("gen %s: %s", kind_name, why);

	rsim_gen_name(&params, name, sizeof(name));
	printf("# generated by: rmapsim gen");
	for (i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	scenario_print_header(stdout, name);
	err = rsim_gen_run(&params, print_op, stdout);
	if (fflush(stdout) || err) {
		fprintf(stderr, "rmapsim: gen %s: %s\n", kind_name,
			err == -ENOMEM ? "out of memory" : "write error");
		return EXIT_DISAGREE;
	}
	return 0;
}

/* ---- running a scenario ---------------------------------------------- */

struct run_result {
	enum rsim_file_scheme	file;
	enum rsim_anon_scheme	anon;
	struct rsim_cost	cost;
	u64			digest;
	unsigned long		verified;	/* rsim_verify() calls */
	double			seconds;	/* ops only */
	bool			failed;
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Long runs show progress, only to a person watching a terminal. */
#define PROGRESS_MIN_OPS	50000UL

static void progress(const char *label, unsigned long done,
		     unsigned long total)
{
	fprintf(stderr, "\rrmapsim: %s %3lu%% (%lu/%lu ops)", label,
		done * 100 / total, done, total);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/*
 * Run @sc under @res->file / @res->anon.  With @verify_every N > 0, check
 * ground truth after every N-th op and after the last; N == 0 checks
 * nothing.  A failure is reported with the scenario line and sets
 * @res->failed.  Return: 0, or -1 when out of memory (said on stderr).
 */
static noinline int run_scenario(const struct scenario *sc,
				 unsigned long verify_every, const char *label,
				 struct run_result *res)
{
	bool show = isatty(STDERR_FILENO) && sc->nr >= PROGRESS_MIN_OPS;
	unsigned long i, step = sc->nr / 100 + 1;
	struct rsim_report report;
	char text[256];
	struct rsim *sim;
	double start, spent = 0;
	bool verify, update;
	int err;

	sim = rsim_create(res->file, res->anon);
	if (!sim) {
		fprintf(stderr, "rmapsim: out of memory\n");
		return -1;
	}
	res->failed = false;
	res->verified = 0;
	/*
	 * The clock runs over stretches of ops between two verifications
	 * (or progress updates), never around one op: reading it per op
	 * would cost more than many ops do.
	 */
	start = now_seconds();
	for (i = 0; i < sc->nr && !res->failed; i++) {
		err = rsim_apply(sim, &sc->ops[i]);
		if (err && rsim_out_of_memory(sim)) {
			fprintf(stderr, "%s:%lu: out of memory under file=%s anon=%s\n",
				sc->path, sc->lines[i],
				rsim_file_scheme_name(res->file),
				rsim_anon_scheme_name(res->anon));
			rsim_destroy(sim);
			return -1;
		}
		if (err) {
			scenario_format_op(text, sizeof(text), &sc->ops[i]);
			fprintf(stderr,
				"%s:%lu: '%s' fails under file=%s anon=%s (%d), but validation accepted it\n",
				sc->path, sc->lines[i], text,
				rsim_file_scheme_name(res->file),
				rsim_anon_scheme_name(res->anon), err);
			res->failed = true;
			break;
		}
		verify = verify_every && ((i + 1) % verify_every == 0 ||
					  i + 1 == sc->nr);
		update = show && ((i + 1) % step == 0 || i + 1 == sc->nr);
		if (!verify && !update)
			continue;
		spent += now_seconds() - start;
		if (verify) {
			res->verified++;
			if (rsim_verify(sim, &report)) {
				scenario_format_op(text, sizeof(text),
						   &sc->ops[i]);
				fprintf(stderr,
					"%s:%lu: after '%s', file=%s anon=%s disagrees with ground truth: %s\n",
					sc->path, sc->lines[i], text,
					rsim_file_scheme_name(res->file),
					rsim_anon_scheme_name(res->anon),
					report.msg);
				res->failed = true;
			}
		}
		if (update)
			progress(label, i + 1, sc->nr);
		start = now_seconds();
	}
	spent += now_seconds() - start;
	if (show && res->failed)
		fputs("\n", stderr);
	res->cost = *rsim_cost(sim);
	res->digest = rsim_digest(sim);
	res->seconds = spent;
	rsim_destroy(sim);
	return 0;
}

static int load_or_exit(const char *path, struct scenario *sc)
{
	int err = scenario_load(path, sc);

	if (err)
		exit(err == -ENOMEM ? EXIT_NOMEM : EXIT_USAGE);
	return 0;
}

static void print_walk_cost(const char *prefix, const struct rsim_walk_cost *w)
{
	printf("%s.walks %" PRIu64 "\n", prefix, w->walks);
	printf("%s.vmas %" PRIu64 "\n", prefix, w->vmas);
	printf("%s.mms %" PRIu64 "\n", prefix, w->mms);
	printf("%s.anon_vmas %" PRIu64 "\n", prefix, w->anon_vmas);
	printf("%s.chain_entries %" PRIu64 "\n", prefix, w->chain_entries);
	printf("%s.ptes %" PRIu64 "\n", prefix, w->ptes);
	printf("%s.found %" PRIu64 "\n", prefix, w->found);
}

static void print_op_cost(const char *prefix, const struct rsim_op_cost *c)
{
	printf("%s.calls %" PRIu64 "\n", prefix, c->calls);
	printf("%s.ptes %" PRIu64 "\n", prefix, c->ptes);
	printf("%s.rmap_updates %" PRIu64 "\n", prefix, c->rmap_updates);
}

static const char *arg_value(const char *arg, const char *option)
{
	size_t len = strlen(option);

	if (strncmp(arg, option, len) || arg[len] != '=')
		return NULL;
	return arg + len + 1;
}

/* Default verification for compare: every op of small scenarios. */
static unsigned long default_verify_every(const struct scenario *sc)
{
	if (sc->nr <= 4000)
		return 1;
	return sc->nr / 16 + 1;
}

static int cmd_run(int argc, char **argv)
{
	struct run_result res = {
		.file = RSIM_FILE_PRIO,
		.anon = RSIM_ANON_VMA,
	};
	unsigned long verify_every = 0;
	const char *path = NULL, *value;
	struct scenario sc;
	const struct rsim_cost *c = &res.cost;
	char label[64];
	int i, scheme;

	for (i = 0; i < argc; i++) {
		if ((value = arg_value(argv[i], "--file"))) {
			scheme = rsim_file_scheme_parse(value);
			if (scheme < 0)
				usage_error("run: expected --file=pte_chain, list or prio, got '%s'",
					    argv[i]);
			res.file = scheme;
		} else if ((value = arg_value(argv[i], "--anon"))) {
			scheme = rsim_anon_scheme_parse(value);
			if (scheme < 0)
				usage_error("run: expected --anon=pte_chain, anon_vma, anonmm or anon_vma_chain, got '%s'",
					    argv[i]);
			res.anon = scheme;
		} else if ((value = arg_value(argv[i], "--verify-every"))) {
			verify_every = number_arg("--verify-every", value);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage_error("run: unknown option '%s'", argv[i]);
		} else if (path) {
			usage_error("run: expected one FILE, got '%s' and '%s'",
				    path, argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		usage_error("run: expected a scenario FILE");
	load_or_exit(path, &sc);

	snprintf(label, sizeof(label), "%s/%s",
		 rsim_file_scheme_name(res.file),
		 rsim_anon_scheme_name(res.anon));
	if (run_scenario(&sc, verify_every, label, &res))
		return EXIT_NOMEM;

	printf("scenario %s\n", sc.name);
	printf("schemes file=%s anon=%s\n", rsim_file_scheme_name(res.file),
	       rsim_anon_scheme_name(res.anon));
	printf("ops %lu\n", sc.nr);
	printf("verified %lu\n", res.verified);
	print_walk_cost("file_walk", &c->file_walk);
	print_walk_cost("anon_walk", &c->anon_walk);
	print_op_cost("fork", &c->fork);
	print_op_cost("exit", &c->exit);
	print_op_cost("mremap", &c->mremap);
	print_op_cost("munmap", &c->munmap);
	print_op_cost("truncate", &c->truncate);
	printf("faults %" PRIu64 "\n", c->faults);
	printf("cow_copies %" PRIu64 "\n", c->cow_copies);
	printf("cow_early %" PRIu64 "\n", c->cow_early);
	printf("pages_reclaimed %" PRIu64 "\n", c->pages_reclaimed);
	printf("referenced %" PRIu64 "\n", c->referenced);
	printf("meta_bytes %" PRIu64 "\n", c->meta_bytes);
	printf("meta_bytes_peak %" PRIu64 "\n", c->meta_bytes_peak);
	printf("pte_chain_blocks %" PRIu64 "\n", c->pte_chain_blocks);
	printf("pages %" PRIu64 "\n", c->pages);
	printf("ptes_mapped %" PRIu64 "\n", c->ptes_mapped);
	printf("vmas %" PRIu64 "\n", c->vmas);
	printf("mms %" PRIu64 "\n", c->mms);
	printf("wall_seconds %.6f\n", res.seconds);
	printf("PT-DIGEST %s %016" PRIx64 "\n", sc.name, res.digest);
	scenario_free(&sc);
	return res.failed ? EXIT_DISAGREE : 0;
}

/* ---- compare -------------------------------------------------------- */

#define NR_COMBOS	(RSIM_NR_FILE_SCHEMES * RSIM_NR_ANON_SCHEMES)

static void print_table(const struct run_result *res)
{
	const struct run_result *r;
	const struct rsim_cost *c;
	int i;

	printf("%-9s %-14s %9s %11s %11s %9s %11s %9s %9s %11s %11s %9s %9s %9s %11s %8s %s\n",
	       "file", "anon", "f.walks", "f.vmas", "f.chain", "a.walks",
	       "a.vmas", "a.mms", "a.avs", "a.chain", "walk.ptes",
	       "fork.upd", "exit.upd", "mremap", "meta.peak", "verified",
	       "status");
	for (i = 0; i < NR_COMBOS; i++) {
		r = &res[i];
		c = &r->cost;
		printf("%-9s %-14s %9" PRIu64 " %11" PRIu64 " %11" PRIu64
		       " %9" PRIu64 " %11" PRIu64 " %9" PRIu64 " %9" PRIu64
		       " %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " %9" PRIu64
		       " %9" PRIu64 " %11" PRIu64 " %8lu %s\n",
		       rsim_file_scheme_name(r->file),
		       rsim_anon_scheme_name(r->anon),
		       c->file_walk.walks, c->file_walk.vmas,
		       c->file_walk.chain_entries,
		       c->anon_walk.walks, c->anon_walk.vmas,
		       c->anon_walk.mms, c->anon_walk.anon_vmas,
		       c->anon_walk.chain_entries,
		       c->file_walk.ptes + c->anon_walk.ptes,
		       c->fork.rmap_updates, c->exit.rmap_updates,
		       c->mremap.rmap_updates, c->meta_bytes_peak,
		       r->verified, r->failed ? "FAILED" : "ok");
	}
}

static int cmd_compare(int argc, char **argv)
{
	struct run_result res[NR_COMBOS];
	unsigned long verify_every = 0;
	bool verify_given = false, disagree = false;
	const char *path = NULL, *value;
	struct scenario sc;
	char label[64];
	int i;

	for (i = 0; i < argc; i++) {
		if ((value = arg_value(argv[i], "--verify-every"))) {
			verify_every = number_arg("--verify-every", value);
			verify_given = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage_error("compare: unknown option '%s'", argv[i]);
		} else if (path) {
			usage_error("compare: expected one FILE, got '%s' and '%s'",
				    path, argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		usage_error("compare: expected a scenario FILE");
	load_or_exit(path, &sc);
	if (!verify_given)
		verify_every = default_verify_every(&sc);

	for (i = 0; i < NR_COMBOS; i++) {
		res[i].file = i / RSIM_NR_ANON_SCHEMES;
		res[i].anon = i % RSIM_NR_ANON_SCHEMES;
		snprintf(label, sizeof(label), "compare %d/%d %s/%s", i + 1,
			 NR_COMBOS, rsim_file_scheme_name(res[i].file),
			 rsim_anon_scheme_name(res[i].anon));
		if (run_scenario(&sc, verify_every, label, &res[i]))
			return EXIT_NOMEM;
		disagree |= res[i].failed;
	}

	printf("scenario %s: %lu ops, ground truth checked every %lu ops\n",
	       sc.name, sc.nr, verify_every);
	print_table(res);

	/*
	 * The digest folds every rmap walk's result set in op order, so
	 * equal digests mean every walk of every scheme found the same
	 * (pid, address) set; the ptes left mapped must agree as well.
	 */
	for (i = 1; i < NR_COMBOS; i++) {
		if (res[i].digest != res[0].digest) {
			printf("DISAGREE digest: %s/%s %016" PRIx64 " != %s/%s %016" PRIx64 "\n",
			       rsim_file_scheme_name(res[i].file),
			       rsim_anon_scheme_name(res[i].anon),
			       res[i].digest,
			       rsim_file_scheme_name(res[0].file),
			       rsim_anon_scheme_name(res[0].anon),
			       res[0].digest);
			disagree = true;
		}
		if (res[i].cost.ptes_mapped != res[0].cost.ptes_mapped) {
			printf("DISAGREE ptes mapped: %s/%s %" PRIu64 " != %s/%s %" PRIu64 "\n",
			       rsim_file_scheme_name(res[i].file),
			       rsim_anon_scheme_name(res[i].anon),
			       res[i].cost.ptes_mapped,
			       rsim_file_scheme_name(res[0].file),
			       rsim_anon_scheme_name(res[0].anon),
			       res[0].cost.ptes_mapped);
			disagree = true;
		}
	}
	printf("%s\n", disagree ? "compare: DISAGREEMENT" :
	       "compare: all schemes agree");
	printf("PT-DIGEST %s %016" PRIx64 "\n", sc.name, res[0].digest);
	scenario_free(&sc);
	return disagree ? EXIT_DISAGREE : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("expected a command: gen, run or compare");
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return 0;
	}
	usage_error("expected a command: gen, run or compare, got '%s'",
		    argv[1]);
}
