// SPDX-License-Identifier: GPL-2.0
/*
 * rmapsim - run the reverse-mapping schemes of the 2004 debate on the
 * same scenario and compare what they cost.
 *
 *   rmapsim gen KIND [-l|-r|-h] [-i N] [-n N] [-s N] [-t N] [-w N] [-V N]
 *                    [--seed N]
 *	Write a generated scenario (src/rsim/gen.h) to stdout.
 *
 *   rmapsim run [--file SCHEME] [--anon SCHEME] [--verify-every N]
 *               [--format table|csv|json] FILE
 *	Run FILE ("-" for stdin) under one file scheme (pte_chain, list,
 *	prio; default prio) and one anonymous scheme (pte_chain, anon_vma,
 *	anonmm, anon_vma_chain; default anon_vma) and print the cost
 *	counters: as a table, one "name value" per line and last
 *	"PT-DIGEST NAME HEX", or as CSV or JSON.
 *
 *   rmapsim compare [--verify-every N] [--peer FILE/ANON]
 *                   [--format table|csv|json] FILE
 *	Run FILE under all twelve scheme combinations, check each against
 *	ground truth (rsim_verify()) and against the others (the digest of
 *	every rmap walk, the ptes mapped at the end), print one table with
 *	each combination's wall time and its ratio to the peer's, and exit
 *	1 on any disagreement.
 *
 * Options are parsed by getopt_long(): "-i5", "-i 5", "--file prio" and
 * "--file=prio" all work.  Numbers are decimal, or hexadecimal after
 * "0x"; a leading 0 is no octal, and a sign is refused.  --help, for the
 * tool and for each command, prints to stdout and exits 0.
 *
 * The scenario is parsed and validated whole before anything runs
 * (scenario.c).  Exit status: 0 success, 1 disagreement, a failed
 * verification or a write error, 2 bad usage or a bad scenario file,
 * 3 out of memory.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "scenario.h"

#define EXIT_DISAGREE	1
#define EXIT_USAGE	2
/* not the scenario's fault: it may run on a machine with more memory */
#define EXIT_NOMEM	3

#ifndef RMAPSIM_VERSION
#define RMAPSIM_VERSION "unknown"
#endif

static const char usage_text[] =
"usage: rmapsim gen KIND [-l|-r|-h] [-i N] [-n N] [-s N] [-t N] [-w N]\n"
"                        [-V N] [--seed N]\n"
"       rmapsim run [--file=SCHEME] [--anon=SCHEME] [--verify-every=N]\n"
"                   [--format=table|csv|json] FILE\n"
"       rmapsim compare [--verify-every=N] [--peer=FILE/ANON]\n"
"                       [--format=table|csv|json] FILE\n"
"       rmapsim --help | --version\n"
"KIND: rmap-test test-mmap2 test-mmap3 avc-fork-chain fork-exec-mix random\n"
"file SCHEME: pte_chain list prio; anon SCHEME: pte_chain anon_vma anonmm\n"
"anon_vma_chain.  FILE may be - for stdin.  See docs/scenario-format.md.\n";

static const char exit_text[] =
"Numbers: decimal, or hexadecimal after 0x.\n"
"Exit status: 0 success; 1 the schemes disagree, a check against ground\n"
"truth failed, or output could not be written; 2 bad usage or a bad\n"
"scenario file; 3 out of memory.\n";

static const char gen_help[] =
"usage: rmapsim gen KIND [-l|-r|-h] [-i N] [-n N] [-s N] [-t N] [-w N]\n"
"                        [-V N] [--seed N]\n"
"Write a generated scenario to stdout.\n"
"  KIND          rmap-test test-mmap2 test-mmap3 avc-fork-chain\n"
"                fork-exec-mix random\n"
"  -l, -r, -h    linear, random or half access (rmap-test)\n"
"  -i N          iterations         -n N   mappings\n"
"  -s N          size in pages      -t N   tasks\n"
"  -w N          workers            -V N   reclaim passes\n"
"  --seed N      random seed (only for kinds that draw random numbers)\n"
"  --help        this text\n"
"Each kind takes only the options it reads.\n";

static const char run_help[] =
"usage: rmapsim run [--file=SCHEME] [--anon=SCHEME] [--verify-every=N]\n"
"                   [--format=table|csv|json] FILE\n"
"Run FILE (- for stdin) under one pair of schemes and print the cost\n"
"counters.\n"
"  --file SCHEME     pte_chain, list or prio (default prio)\n"
"  --anon SCHEME     pte_chain, anon_vma, anonmm or anon_vma_chain\n"
"                    (default anon_vma)\n"
"  --verify-every N  check ground truth after every N-th op (0: never,\n"
"                    the default)\n"
"  --format F        table: \"name value\" lines, last \"PT-DIGEST NAME HEX\";\n"
"                    csv: \"name,value\" lines under a header; json: one\n"
"                    object (default table)\n"
"  --help            this text\n";

static const char compare_help[] =
"usage: rmapsim compare [--verify-every=N] [--peer=FILE/ANON]\n"
"                       [--format=table|csv|json] FILE\n"
"Run FILE (- for stdin) under all twelve pairs of schemes, check them\n"
"against ground truth and each other, and print one row per pair.\n"
"  --verify-every N  check ground truth after every N-th op (default:\n"
"                    every op up to 4000 ops, else 16 checks)\n"
"  --peer FILE/ANON  the pair that wall times are compared with\n"
"                    (default prio/anon_vma)\n"
"  --format F        table (with a legend of the columns), csv or json\n"
"                    (default table)\n"
"  --help            this text\n";

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

/* Print @text to stdout for --help, and exit 0 (1 if it cannot). */
static void __attribute__((noreturn)) help_exit(const char *text)
{
	fputs(text, stdout);
	fputs(exit_text, stdout);
	exit(fflush(stdout) || ferror(stdout) ? EXIT_DISAGREE : 0);
}

/*
 * A whole-word number from 0 to @max: decimal digits, or hexadecimal ones
 * after "0x".  No sign (strtoul() would wrap "-1" to ULONG_MAX), no octal
 * (strtoul()'s base 0 reads "010" as 8), no blanks.  Anything else is a
 * usage error naming @what and the limit.
 */
static unsigned long long number_arg(const char *what, const char *arg,
				     unsigned long long max)
{
	unsigned long long value;
	int err;

	if (!arg)
		usage_error("expected a number after %s", what);
	err = scenario_number(arg, max, &value);
	if (err == -ERANGE)
		usage_error("expected a number from 0 to %llu after %s, got '%s' (too large)",
			    max, what, arg);
	if (err)
		usage_error("expected a number from 0 to %llu (decimal, or hex after 0x) after %s, got '%s'",
			    max, what, arg);
	return value;
}

/*
 * getopt_long() with its own messages off: report what it refused as a
 * usage error of command @cmd.  @c is what it returned ('?' or ':').
 */
static void __attribute__((noreturn))
bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		usage_error("%s: expected a value after '%s'", cmd, arg);
	if (optopt && strncmp(arg, "--", 2))
		usage_error("%s: unknown option '-%c'", cmd, optopt);
	usage_error("%s: unknown option '%s'", cmd, arg);
}

enum output_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

static enum output_format format_arg(const char *cmd, const char *arg)
{
	if (!strcmp(arg, "table"))
		return FORMAT_TABLE;
	if (!strcmp(arg, "csv"))
		return FORMAT_CSV;
	if (!strcmp(arg, "json"))
		return FORMAT_JSON;
	usage_error("%s: expected --format to be table, csv or json, got '%s'",
		    cmd, arg);
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

static const struct option gen_options[] = {
	{ "seed",	required_argument,	NULL, 'S' },
	{ "help",	no_argument,		NULL, 'H' },
	{ NULL,		0,			NULL, 0 },
};

/* The letters given, in order, and their values: applied once the kind
 * (which may come after them) is known. */
struct gen_option {
	char		letter;
	const char	*value;
};

/* @argv[0] is "gen". */
static int cmd_gen(int argc, char **argv)
{
	struct gen_option given[64];
	struct rsim_gen_params params;
	const char *kind_name, *why;
	char **line, name[128], letter;
	int kind, i, c, err, nr_given = 0;
	bool seeded = false;
	u64 seed = 0;

	/* the command line as typed, for the comment: getopt permutes argv */
	line = calloc(argc + 1, sizeof(*line));
	if (!line) {
		fprintf(stderr, "rmapsim: gen: out of memory\n");
		return EXIT_NOMEM;
	}
	memcpy(line, argv, argc * sizeof(*line));

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":lrhi:n:s:t:w:V:v", gen_options,
				NULL)) != -1) {
		switch (c) {
		case 'H':
			free(line);
			help_exit(gen_help);
		case 'S':
			seed = number_arg("--seed", optarg, UINT64_MAX);
			seeded = true;
			break;
		case 'v':
			/* rmap-test's -v and -vv: verbosity, no use here */
			break;
		case '?':
		case ':':
			bad_option("gen", c, argv);
		default:
			if (nr_given == (int)ARRAY_SIZE(given))
				usage_error("gen: expected at most %zu options",
					    ARRAY_SIZE(given));
			given[nr_given].letter = c;
			given[nr_given++].value = optarg;
			break;
		}
	}
	if (optind >= argc)
		usage_error("gen: expected a KIND");
	kind_name = argv[optind];
	if (optind + 1 < argc)
		usage_error("gen: expected one KIND, got '%s' and '%s'",
			    kind_name, argv[optind + 1]);
	for (kind = 0; kind < RSIM_NR_GEN_KINDS; kind++)
		if (!strcmp(kind_name, rsim_gen_kind_name(kind)))
			break;
	if (kind == RSIM_NR_GEN_KINDS)
		usage_error("gen: expected a KIND, got '%s'", kind_name);
	rsim_gen_defaults(&params, kind);
	if (seeded)
		params.seed = seed;

	for (i = 0; i < nr_given; i++) {
		char flag[3] = { '-', given[i].letter, '\0' };
		const char *value = given[i].value;

		letter = given[i].letter;
		if (!strchr(gen_letters[kind], letter))
			usage_error("gen %s: expected one of the options -%s or --seed, got '%s'",
				    kind_name, gen_letters[kind], flag);
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
			params.iterations = number_arg(flag, value, ULONG_MAX);
			break;
		case 'n':
			params.mappings = number_arg(flag, value, ULONG_MAX);
			break;
		case 's':
			params.size = number_arg(flag, value, ULONG_MAX);
			break;
		case 't':
			params.tasks = number_arg(flag, value, ULONG_MAX);
			break;
		case 'w':
			params.workers = number_arg(flag, value, ULONG_MAX);
			break;
		case 'V':
			params.reclaim = number_arg(flag, value, ULONG_MAX);
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
	printf("# generated by: rmapsim");
	for (i = 0; i < argc; i++)
		printf(" %s", line[i]);
	printf("\n");
	free(line);
	scenario_print_header(stdout, name);
	err = rsim_gen_run(&params, print_op, stdout);
	if (err == -ENOMEM) {
		fprintf(stderr, "rmapsim: gen %s: out of memory\n", kind_name);
		return EXIT_NOMEM;
	}
	if (fflush(stdout) || err) {
		fprintf(stderr, "rmapsim: gen %s: write error\n", kind_name);
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

/*
 * Long runs show progress, only to a person watching a terminal, as the
 * share of the work done in the profile that validation recorded
 * (scenario_work()).  A share of ops would stall and jump: one fork of
 * an mm with 20,000 vmas costs as much as thousands of page touches.
 */
#define PROGRESS_MIN_OPS	50000UL

/* Run @nth (from 1) of the @runs that one command makes: 1 or 12. */
struct progress {
	unsigned int	nth;
	unsigned int	runs;
};

/* The share of @total that @work is, in whole percent. */
static unsigned int percent(u64 work, u64 total)
{
	return work * 100 / total;
}

/* The least work whose share of @total is @pct percent. */
static u64 work_for_percent(unsigned int pct, u64 total)
{
	return (pct * total + 99) / 100;
}

/*
 * One line, overwritten in place: the run's share of its work, and for
 * compare first the share of all twelve runs' work.  It is cut to the
 * terminal's width, or the next "\r" would return to a wrapped line.
 */
static void progress_show(const struct progress *p,
			  const struct run_result *res,
			  const struct scenario *sc, unsigned long done)
{
	u64 total = sc->work[sc->nr - 1];
	u64 work = done ? sc->work[done - 1] : 0;
	unsigned int width = 80;
	struct winsize ws;
	char line[160];

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		width = ws.ws_col;
	if (p->runs > 1)
		snprintf(line, sizeof(line),
			 "rmapsim: compare %3u%% of work, %u/%u %s/%s %3u%% (op %lu/%lu)",
			 percent((p->nth - 1) * total + work, p->runs * total),
			 p->nth, p->runs, rsim_file_scheme_name(res->file),
			 rsim_anon_scheme_name(res->anon),
			 percent(work, total), done, sc->nr);
	else
		snprintf(line, sizeof(line),
			 "rmapsim: %s/%s %3u%% of work (op %lu/%lu)",
			 rsim_file_scheme_name(res->file),
			 rsim_anon_scheme_name(res->anon),
			 percent(work, total), done, sc->nr);
	fprintf(stderr, "\r%.*s\033[K", (int)width - 1, line);
	if (done == sc->nr)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/*
 * Run @sc under @res->file / @res->anon.  With @verify_every N > 0, check
 * ground truth after every N-th op and after the last; N == 0 checks
 * nothing.  A failure is reported with the scenario line and sets
 * @res->failed.  Progress is shown when the share of work or of ops has
 * grown by a percent.  Return: 0, or -1 when out of memory (said on
 * stderr).
 */
static noinline int run_scenario(const struct scenario *sc,
				 unsigned long verify_every,
				 const struct progress *p,
				 struct run_result *res)
{
	bool show = isatty(STDERR_FILENO) && sc->nr >= PROGRESS_MIN_OPS;
	unsigned long i, step = sc->nr / 100 + 1, next_op = step;
	u64 total = sc->nr ? sc->work[sc->nr - 1] : 0, next_work = 0;
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
	if (show) {
		progress_show(p, res, sc, 0);
		next_work = work_for_percent(1, total);
	}
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
		update = show && (sc->work[i] >= next_work ||
				  i + 1 >= next_op || i + 1 == sc->nr);
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
		if (update) {
			progress_show(p, res, sc, i + 1);
			next_work = work_for_percent(percent(sc->work[i],
							     total) + 1,
						     total);
			next_op = i + 1 + step;
		}
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

/*
 * One record of "name value" pairs in the chosen format: the table's
 * lines, CSV lines under a "name,value" header, or one JSON object.
 * Names are plain ([a-z_.]), strings need no escaping beyond what
 * json_string() does.
 */
struct record {
	enum output_format	format;
	unsigned int		fields;
};

static void json_string(const char *str)
{
	putchar('"');
	for (; *str; str++) {
		if (*str == '"' || *str == '\\')
			printf("\\%c", *str);
		else if ((unsigned char)*str < 0x20)
			printf("\\u%04x", *str);
		else
			putchar(*str);
	}
	putchar('"');
}

static void record_begin(struct record *r, enum output_format format)
{
	r->format = format;
	r->fields = 0;
	if (format == FORMAT_CSV)
		printf("name,value\n");
	else if (format == FORMAT_JSON)
		printf("{");
}

static void record_name(struct record *r, const char *name)
{
	switch (r->format) {
	case FORMAT_TABLE:
		printf("%s ", name);
		break;
	case FORMAT_CSV:
		printf("%s,", name);
		break;
	case FORMAT_JSON:
		printf("%s\n  \"%s\": ", r->fields ? "," : "", name);
		break;
	}
	r->fields++;
}

static void record_end_field(struct record *r)
{
	if (r->format != FORMAT_JSON)
		putchar('\n');
}

static void record_u64(struct record *r, const char *name, u64 value)
{
	record_name(r, name);
	printf("%" PRIu64, value);
	record_end_field(r);
}

static void record_str(struct record *r, const char *name, const char *value)
{
	record_name(r, name);
	if (r->format == FORMAT_JSON)
		json_string(value);
	else
		fputs(value, stdout);
	record_end_field(r);
}

static void record_seconds(struct record *r, const char *name, double value)
{
	record_name(r, name);
	printf("%.6f", value);
	record_end_field(r);
}

static void record_end(struct record *r)
{
	if (r->format == FORMAT_JSON)
		printf("\n}\n");
}

static void record_walk_cost(struct record *r, const char *prefix,
			     const struct rsim_walk_cost *w)
{
	char name[64];

#define FIELD(f)							\
	do {								\
		snprintf(name, sizeof(name), "%s." #f, prefix);	\
		record_u64(r, name, w->f);				\
	} while (0)
	FIELD(walks);
	FIELD(vmas);
	FIELD(mms);
	FIELD(anon_vmas);
	FIELD(chain_entries);
	FIELD(ptes);
	FIELD(found);
#undef FIELD
}

static void record_op_cost(struct record *r, const char *prefix,
			   const struct rsim_op_cost *c)
{
	char name[64];

#define FIELD(f)							\
	do {								\
		snprintf(name, sizeof(name), "%s." #f, prefix);	\
		record_u64(r, name, c->f);				\
	} while (0)
	FIELD(calls);
	FIELD(ptes);
	FIELD(rmap_updates);
#undef FIELD
}

/* Default verification for compare: every op of small scenarios. */
static unsigned long default_verify_every(const struct scenario *sc)
{
	if (sc->nr <= 4000)
		return 1;
	return sc->nr / 16 + 1;
}

/* The FILE operand of run and compare: exactly one. */
static const char *one_path(const char *cmd, int argc, char **argv)
{
	if (optind >= argc)
		usage_error("%s: expected a scenario FILE", cmd);
	if (optind + 1 < argc)
		usage_error("%s: expected one FILE, got '%s' and '%s'", cmd,
			    argv[optind], argv[optind + 1]);
	return argv[optind];
}

static const struct option run_options[] = {
	{ "file",		required_argument,	NULL, 'f' },
	{ "anon",		required_argument,	NULL, 'a' },
	{ "verify-every",	required_argument,	NULL, 'e' },
	{ "format",		required_argument,	NULL, 'F' },
	{ "help",		no_argument,		NULL, 'H' },
	{ NULL,			0,			NULL, 0 },
};

/* @argv[0] is "run". */
static int cmd_run(int argc, char **argv)
{
	struct run_result res = {
		.file = RSIM_FILE_PRIO,
		.anon = RSIM_ANON_VMA,
	};
	enum output_format format = FORMAT_TABLE;
	unsigned long verify_every = 0;
	const struct rsim_cost *c = &res.cost;
	struct progress p = { .nth = 1, .runs = 1 };
	char text[80];
	struct scenario sc;
	struct record r;
	const char *path;
	int scheme, opt;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", run_options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			scheme = rsim_file_scheme_parse(optarg);
			if (scheme < 0)
				usage_error("run: expected --file to be pte_chain, list or prio, got '%s'",
					    optarg);
			res.file = scheme;
			break;
		case 'a':
			scheme = rsim_anon_scheme_parse(optarg);
			if (scheme < 0)
				usage_error("run: expected --anon to be pte_chain, anon_vma, anonmm or anon_vma_chain, got '%s'",
					    optarg);
			res.anon = scheme;
			break;
		case 'e':
			verify_every = number_arg("--verify-every", optarg,
						  ULONG_MAX);
			break;
		case 'F':
			format = format_arg("run", optarg);
			break;
		case 'H':
			help_exit(run_help);
		default:
			bad_option("run", opt, argv);
		}
	}
	path = one_path("run", argc, argv);
	load_or_exit(path, &sc);

	if (run_scenario(&sc, verify_every, &p, &res))
		return EXIT_NOMEM;

	record_begin(&r, format);
	record_str(&r, "scenario", sc.name);
	if (format == FORMAT_TABLE) {
		/* the table's one line of two words */
		snprintf(text, sizeof(text), "file=%s anon=%s",
			 rsim_file_scheme_name(res.file),
			 rsim_anon_scheme_name(res.anon));
		record_str(&r, "schemes", text);
	} else {
		record_str(&r, "file", rsim_file_scheme_name(res.file));
		record_str(&r, "anon", rsim_anon_scheme_name(res.anon));
	}
	record_u64(&r, "ops", sc.nr);
	record_u64(&r, "verified", res.verified);
	record_walk_cost(&r, "file_walk", &c->file_walk);
	record_walk_cost(&r, "anon_walk", &c->anon_walk);
	record_op_cost(&r, "fork", &c->fork);
	record_op_cost(&r, "exit", &c->exit);
	record_op_cost(&r, "mremap", &c->mremap);
	record_op_cost(&r, "munmap", &c->munmap);
	record_op_cost(&r, "truncate", &c->truncate);
	record_u64(&r, "faults", c->faults);
	record_u64(&r, "cow_copies", c->cow_copies);
	record_u64(&r, "cow_early", c->cow_early);
	record_u64(&r, "pages_reclaimed", c->pages_reclaimed);
	record_u64(&r, "referenced", c->referenced);
	record_u64(&r, "meta_bytes", c->meta_bytes);
	record_u64(&r, "meta_bytes_peak", c->meta_bytes_peak);
	record_u64(&r, "pte_chain_blocks", c->pte_chain_blocks);
	record_u64(&r, "pages", c->pages);
	record_u64(&r, "ptes_mapped", c->ptes_mapped);
	record_u64(&r, "vmas", c->vmas);
	record_u64(&r, "mms", c->mms);
	record_seconds(&r, "wall_seconds", res.seconds);
	if (format == FORMAT_TABLE) {
		printf("PT-DIGEST %s %016" PRIx64 "\n", sc.name, res.digest);
	} else {
		snprintf(text, sizeof(text), "%016" PRIx64, res.digest);
		record_str(&r, "digest", text);
		record_u64(&r, "failed", res.failed);
	}
	record_end(&r);
	scenario_free(&sc);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "rmapsim: run: write error\n");
		return EXIT_DISAGREE;
	}
	return res.failed ? EXIT_DISAGREE : 0;
}

/* ---- compare -------------------------------------------------------- */

#define NR_COMBOS	(RSIM_NR_FILE_SCHEMES * RSIM_NR_ANON_SCHEMES)

/* The counter columns of compare, and what the legend says of them. */
static const struct column {
	const char	*name;
	int		width;
	const char	*legend;
} columns[] = {
	{ "f.walks",	9,  "file rmap walks (page_referenced/try_to_unmap of a file page)" },
	{ "f.vmas",	11, "vmas the file walks visited" },
	{ "f.chain",	11, "pte_chain entries the file walks followed" },
	{ "a.walks",	9,  "anonymous rmap walks" },
	{ "a.vmas",	11, "vmas the anonymous walks visited" },
	{ "a.mms",	9,  "mms the anonymous walks visited (anonmm)" },
	{ "a.avs",	9,  "anon_vmas the anonymous walks visited" },
	{ "a.chain",	11, "chain entries the anonymous walks followed" },
	{ "walk.ptes",	11, "ptes examined by all walks" },
	{ "fork.upd",	9,  "rmap updates made by fork" },
	{ "exit.upd",	9,  "rmap updates made by exit" },
	{ "mremap",	9,  "rmap updates made by mremap" },
	{ "meta.peak",	11, "peak bytes of rmap metadata" },
};

static u64 column_value(unsigned int col, const struct rsim_cost *c)
{
	switch (col) {
	case 0:  return c->file_walk.walks;
	case 1:  return c->file_walk.vmas;
	case 2:  return c->file_walk.chain_entries;
	case 3:  return c->anon_walk.walks;
	case 4:  return c->anon_walk.vmas;
	case 5:  return c->anon_walk.mms;
	case 6:  return c->anon_walk.anon_vmas;
	case 7:  return c->anon_walk.chain_entries;
	case 8:  return c->file_walk.ptes + c->anon_walk.ptes;
	case 9:  return c->fork.rmap_updates;
	case 10: return c->exit.rmap_updates;
	case 11: return c->mremap.rmap_updates;
	default: return c->meta_bytes_peak;
	}
}

/* Wall time relative to the peer's; negative when there is no ratio. */
static double peer_ratio(const struct run_result *r,
			 const struct run_result *peer)
{
	return peer->seconds > 0 ? r->seconds / peer->seconds : -1;
}

static void print_table(const struct run_result *res,
			const struct run_result *peer)
{
	const struct run_result *r;
	unsigned int col;
	double ratio;
	int i;

	printf("%-9s %-14s", "file", "anon");
	for (col = 0; col < ARRAY_SIZE(columns); col++)
		printf(" %*s", columns[col].width, columns[col].name);
	printf(" %9s %7s %8s %s\n", "wall.s", "x.peer", "verified",
	       "status");
	for (i = 0; i < NR_COMBOS; i++) {
		r = &res[i];
		printf("%-9s %-14s", rsim_file_scheme_name(r->file),
		       rsim_anon_scheme_name(r->anon));
		for (col = 0; col < ARRAY_SIZE(columns); col++)
			printf(" %*" PRIu64, columns[col].width,
			       column_value(col, &r->cost));
		ratio = peer_ratio(r, peer);
		printf(" %9.4f", r->seconds);
		if (ratio < 0)
			printf(" %7s", "-");
		else
			printf(" %7.2f", ratio);
		printf(" %8lu %s\n", r->verified, r->failed ? "FAILED" : "ok");
	}
	printf("legend:\n");
	for (col = 0; col < ARRAY_SIZE(columns); col++)
		printf("  %-10s %s\n", columns[col].name, columns[col].legend);
	printf("  %-10s %s\n", "wall.s",
	       "seconds spent in the ops (checks excluded)");
	printf("  %-10s wall.s divided by %s/%s's (-: peer too fast to time)\n",
	       "x.peer", rsim_file_scheme_name(peer->file),
	       rsim_anon_scheme_name(peer->anon));
	printf("  %-10s %s\n", "verified",
	       "checks against ground truth made");
	printf("  %-10s %s\n", "status",
	       "ok, or FAILED: a check against ground truth failed");
}

static void print_csv(const struct run_result *res,
		      const struct run_result *peer)
{
	const struct run_result *r;
	unsigned int col;
	double ratio;
	int i;

	printf("file,anon");
	for (col = 0; col < ARRAY_SIZE(columns); col++)
		printf(",%s", columns[col].name);
	printf(",wall_seconds,ratio_to_peer,verified,status,digest\n");
	for (i = 0; i < NR_COMBOS; i++) {
		r = &res[i];
		printf("%s,%s", rsim_file_scheme_name(r->file),
		       rsim_anon_scheme_name(r->anon));
		for (col = 0; col < ARRAY_SIZE(columns); col++)
			printf(",%" PRIu64, column_value(col, &r->cost));
		ratio = peer_ratio(r, peer);
		printf(",%.6f,", r->seconds);
		if (ratio >= 0)
			printf("%.4f", ratio);
		printf(",%lu,%s,%016" PRIx64 "\n", r->verified,
		       r->failed ? "FAILED" : "ok", r->digest);
	}
}

static void print_json(const struct scenario *sc, unsigned long verify_every,
		       const struct run_result *res,
		       const struct run_result *peer, bool disagree)
{
	const struct run_result *r;
	unsigned int col;
	double ratio;
	int i;

	printf("{\n  \"scenario\": ");
	json_string(sc->name);
	printf(",\n  \"ops\": %lu,\n  \"verify_every\": %lu,\n",
	       sc->nr, verify_every);
	printf("  \"peer\": \"%s/%s\",\n  \"results\": [\n",
	       rsim_file_scheme_name(peer->file),
	       rsim_anon_scheme_name(peer->anon));
	for (i = 0; i < NR_COMBOS; i++) {
		r = &res[i];
		printf("    { \"file\": \"%s\", \"anon\": \"%s\"",
		       rsim_file_scheme_name(r->file),
		       rsim_anon_scheme_name(r->anon));
		for (col = 0; col < ARRAY_SIZE(columns); col++)
			printf(", \"%s\": %" PRIu64, columns[col].name,
			       column_value(col, &r->cost));
		ratio = peer_ratio(r, peer);
		printf(", \"wall_seconds\": %.6f, \"ratio_to_peer\": ",
		       r->seconds);
		if (ratio >= 0)
			printf("%.4f", ratio);
		else
			printf("null");
		printf(", \"verified\": %lu, \"failed\": %s, \"digest\": \"%016" PRIx64 "\" }%s\n",
		       r->verified, r->failed ? "true" : "false", r->digest,
		       i + 1 < NR_COMBOS ? "," : "");
	}
	printf("  ],\n  \"agree\": %s,\n  \"digest\": \"%016" PRIx64 "\"\n}\n",
	       disagree ? "false" : "true", res[0].digest);
}

static const struct option compare_options[] = {
	{ "verify-every",	required_argument,	NULL, 'e' },
	{ "peer",		required_argument,	NULL, 'p' },
	{ "format",		required_argument,	NULL, 'F' },
	{ "help",		no_argument,		NULL, 'H' },
	{ NULL,			0,			NULL, 0 },
};

/* "FILE/ANON", e.g. "prio/anon_vma": the index of that combination. */
static int peer_arg(const char *arg)
{
	const char *slash = strchr(arg, '/');
	char file[32];
	int f, a;

	if (!slash || slash - arg >= (long)sizeof(file))
		goto bad;
	memcpy(file, arg, slash - arg);
	file[slash - arg] = '\0';
	f = rsim_file_scheme_parse(file);
	a = rsim_anon_scheme_parse(slash + 1);
	if (f < 0 || a < 0)
		goto bad;
	return f * RSIM_NR_ANON_SCHEMES + a;
bad:
	usage_error("compare: expected --peer to be FILE/ANON, FILE one of pte_chain, list, prio and ANON one of pte_chain, anon_vma, anonmm, anon_vma_chain, got '%s'",
		    arg);
}

/* @argv[0] is "compare". */
static int cmd_compare(int argc, char **argv)
{
	struct run_result res[NR_COMBOS];
	enum output_format format = FORMAT_TABLE;
	unsigned long verify_every = 0;
	bool verify_given = false, disagree = false;
	int i, opt, peer = RSIM_FILE_PRIO * RSIM_NR_ANON_SCHEMES +
			   RSIM_ANON_VMA;
	FILE *why;
	const char *path;
	struct progress p = { .runs = NR_COMBOS };
	struct scenario sc;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", compare_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'e':
			verify_every = number_arg("--verify-every", optarg,
						  ULONG_MAX);
			verify_given = true;
			break;
		case 'p':
			peer = peer_arg(optarg);
			break;
		case 'F':
			format = format_arg("compare", optarg);
			break;
		case 'H':
			help_exit(compare_help);
		default:
			bad_option("compare", opt, argv);
		}
	}
	path = one_path("compare", argc, argv);
	load_or_exit(path, &sc);
	if (!verify_given)
		verify_every = default_verify_every(&sc);

	for (i = 0; i < NR_COMBOS; i++) {
		res[i].file = i / RSIM_NR_ANON_SCHEMES;
		res[i].anon = i % RSIM_NR_ANON_SCHEMES;
		p.nth = i + 1;
		if (run_scenario(&sc, verify_every, &p, &res[i]))
			return EXIT_NOMEM;
		disagree |= res[i].failed;
	}

	if (format == FORMAT_TABLE) {
		printf("scenario %s: %lu ops, ground truth checked every %lu ops\n",
		       sc.name, sc.nr, verify_every);
		print_table(res, &res[peer]);
	}

	/*
	 * The digest folds every rmap walk's result set in op order, so
	 * equal digests mean every walk of every scheme found the same
	 * (pid, address) set; the ptes left mapped must agree as well.
	 * The table reports disagreements in itself; CSV and JSON keep
	 * their shape and leave them to stderr.
	 */
	why = format == FORMAT_TABLE ? stdout : stderr;
	for (i = 1; i < NR_COMBOS; i++) {
		if (res[i].digest != res[0].digest) {
			fprintf(why, "DISAGREE digest: %s/%s %016" PRIx64 " != %s/%s %016" PRIx64 "\n",
				rsim_file_scheme_name(res[i].file),
				rsim_anon_scheme_name(res[i].anon),
				res[i].digest,
				rsim_file_scheme_name(res[0].file),
				rsim_anon_scheme_name(res[0].anon),
				res[0].digest);
			disagree = true;
		}
		if (res[i].cost.ptes_mapped != res[0].cost.ptes_mapped) {
			fprintf(why, "DISAGREE ptes mapped: %s/%s %" PRIu64 " != %s/%s %" PRIu64 "\n",
				rsim_file_scheme_name(res[i].file),
				rsim_anon_scheme_name(res[i].anon),
				res[i].cost.ptes_mapped,
				rsim_file_scheme_name(res[0].file),
				rsim_anon_scheme_name(res[0].anon),
				res[0].cost.ptes_mapped);
			disagree = true;
		}
	}
	switch (format) {
	case FORMAT_TABLE:
		printf("%s\n", disagree ? "compare: DISAGREEMENT" :
		       "compare: all schemes agree");
		printf("PT-DIGEST %s %016" PRIx64 "\n", sc.name,
		       res[0].digest);
		break;
	case FORMAT_CSV:
		print_csv(res, &res[peer]);
		break;
	case FORMAT_JSON:
		print_json(&sc, verify_every, res, &res[peer], disagree);
		break;
	}
	scenario_free(&sc);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "rmapsim: compare: write error\n");
		return EXIT_DISAGREE;
	}
	return disagree ? EXIT_DISAGREE : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("expected a command: gen, run or compare");
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		help_exit("");
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rmapsim (libpriotree) %s\n", RMAPSIM_VERSION);
		return fflush(stdout) || ferror(stdout) ? EXIT_DISAGREE : 0;
	}
	usage_error("expected a command: gen, run or compare, got '%s'",
		    argv[1]);
}
