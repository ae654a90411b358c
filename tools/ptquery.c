// SPDX-License-Identifier: GPL-2.0
/*
 * ptquery - stabbing queries over intervals with libpriotree.
 *
 *   ptquery intervals FILE QUERY...
 *	FILE holds one interval per line, "START LAST [LABEL]" (closed
 *	interval, '#' starts a comment); "-" reads stdin.  Each QUERY is "N"
 *	(a point) or "A-B" (a range); every interval overlapping it is
 *	printed.
 *
 *   ptquery maps [--proc DIR] [--json] PATH [PAGE | FIRST-LAST]...
 *	Reads DIR/PID/maps of every process (DIR is /proc unless given),
 *	indexes each mapping of the file PATH by the file pages it maps, and
 *	prints which processes map each queried page (default: page 0) and at
 *	which address - the question objrmap asks of address_space->i_mmap.
 *
 * Numbers are decimal, or hex after "0x", from 0 to ULONG_MAX: no signs,
 * no blanks, no octal (a leading 0 is just a digit).
 *
 * A file the user names is input: it is read and validated whole before
 * any query runs, and a bad line gives "FILE:LINE: expected ..." and exit
 * status 1 with no partial output.  /proc is live data instead: processes
 * come and go while it is read and some are not ours to read, so a
 * process or line that cannot be used is skipped, counted and summarised
 * on stderr, and the answer covers everything else.
 *
 * Exit status: 0 answered; 1 bad input, nothing could be read, out of
 * memory, or the answer could not be written; 2 bad command line.
 */

#define _GNU_SOURCE	/* asprintf(), vasprintf() */

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <priotree.h>

#include "maps_parse.h"

#ifndef PRIOTREE_TOOL_VERSION
#define PRIOTREE_TOOL_VERSION "unknown"
#endif

#define EXIT_INPUT	1	/* bad input, or nothing could be read */
#define EXIT_USAGE	2	/* bad command line */

static const char exit_help[] =
	"Exit status: 0 answered; 1 bad input (\"FILE:LINE: expected ...\"),\n"
	"an unreadable file, no process could be read, out of memory, or\n"
	"standard output could not be written; 2 bad command line.\n";

static const char intervals_help[] =
	"usage: ptquery intervals FILE QUERY...\n"
	"\n"
	"Every interval of FILE overlapping each QUERY, sorted.\n"
	"\n"
	"FILE holds one closed interval per line, \"START LAST [LABEL]\";\n"
	"'#' starts a comment; \"-\" reads standard input.  A QUERY is N (a\n"
	"point) or A-B (a range).  Numbers are decimal, or hex after 0x, from\n"
	"0 to 18446744073709551615 on a 64-bit machine.\n"
	"\n"
	"  -h, --help     this text\n"
	"  -V, --version  ptquery's version\n"
	"\n";

static const char maps_help[] =
	"usage: ptquery maps [--proc DIR] [--json] PATH [PAGE | FIRST-LAST]...\n"
	"\n"
	"Which processes map each queried page of the file PATH (page 0 when\n"
	"none is given), and at which address, from DIR/PID/maps.  Mappings\n"
	"are matched by PATH's device and inode, as the kernel does.  Pages\n"
	"are the machine's page size; numbers are decimal, or hex after 0x.\n"
	"\n"
	"  -p, --proc DIR  read DIR/PID/maps and DIR/PID/comm, a saved /proc,\n"
	"                  instead of /proc (which leaves ptquery itself out)\n"
	"  -j, --json      one JSON object per hit and line (JSON Lines),\n"
	"                  no header: query, pid, comm, start, end, perms,\n"
	"                  pgoff, pages (first and last page matched) and\n"
	"                  addr (where the first of them is mapped);\n"
	"                  addresses are \"0x...\" strings, numbers decimal\n"
	"  -h, --help      this text\n"
	"  -V, --version   ptquery's version\n"
	"\n"
	"Processes that exit while being read, maps files that cannot be read\n"
	"(not ours without root) and malformed lines are skipped, counted and\n"
	"summarised on stderr; the answer covers every other process.\n"
	"\n";

static const char main_help[] =
	"usage: ptquery intervals FILE QUERY...\n"
	"       ptquery maps [--proc DIR] [--json] PATH [PAGE | FIRST-LAST]...\n"
	"       ptquery --help | --version\n"
	"\n"
	"Stabbing queries over intervals with libpriotree, the prio tree that\n"
	"indexed address_space->i_mmap in Linux 2.6.7 to 3.6.  'ptquery\n"
	"COMMAND --help' describes each command.\n"
	"\n";

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(status);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	return d;
}

/* Grow a vector *@v of *@cap elements of @size bytes to hold @nr + 1. */
static void grow(void *v, size_t *cap, size_t nr, size_t size)
{
	void **vp = v;

	if (nr < *cap)
		return;
	*cap = *cap ? 2 * *cap : 64;
	*vp = xrealloc(*vp, *cap * size);
}

/*
 * parse_number() - the @len bytes at @s as one number, whole
 *
 * Decimal digits, or "0x"/"0X" and hex digits; at most ULONG_MAX.  Not
 * strtoul(): it would skip blanks, accept a sign (" -1" is ULONG_MAX),
 * and with base 0 read a leading 0 as octal ("010" is 8, "08" fails).
 *
 * Return: true and *@out set, or false.
 */
static bool parse_number(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0, base = 10, d;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return false;
		if (v > (ULONG_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/*
 * A command-line query, "N" or "A-B"; @what names it in messages.  A bad
 * one is a usage error, found before any input is read.
 */
static void parse_query(const char *what, const char *arg,
			unsigned long *first, unsigned long *last)
{
	const char *dash = strchr(arg, '-');

	if (!dash) {
		if (!parse_number(arg, strlen(arg), first))
			die(EXIT_USAGE,
			    "ptquery: %s '%s': expected a number from 0 to %lu\n",
			    what, arg, ULONG_MAX);
		*last = *first;
		return;
	}
	if (!parse_number(arg, dash - arg, first) ||
	    !parse_number(dash + 1, strlen(dash + 1), last))
		die(EXIT_USAGE,
		    "ptquery: %s '%s': expected FIRST-LAST, each a number from 0 to %lu\n",
		    what, arg, ULONG_MAX);
	if (*first > *last)
		die(EXIT_USAGE, "ptquery: %s '%s': expected FIRST <= LAST\n",
		    what, arg);
}

/* hits that collect() reads a call */
#define COLLECT_BATCH	64

/*
 * Query, sort the hits for stable output, return how many there were.
 * Every hit is kept, so they are read a batch at a time.
 */
static size_t collect(struct priotree *pt, unsigned long first,
		      unsigned long last, void ***hits,
		      int (*cmp)(const void *, const void *))
{
	struct priotree_hit batch[COLLECT_BATCH];
	struct priotree_iter it;
	size_t nr = 0, cap = 0;
	int got, i;

	*hits = NULL;
	priotree_query(pt, first, last, &it);
	while ((got = priotree_next_batch(&it, batch, COLLECT_BATCH)) > 0)
		for (i = 0; i < got; i++) {
			grow(hits, &cap, nr, sizeof(**hits));
			(*hits)[nr++] = batch[i].item;
		}
	/* qsort()'s base must not be NULL, even for no elements */
	if (nr)
		qsort(*hits, nr, sizeof(**hits), cmp);
	return nr;
}

static void check_index(struct priotree *pt)
{
	char msg[256];

	if (priotree_check(pt, msg, sizeof(msg)))
		die(EXIT_INPUT, "ptquery: index corrupt: %s\n", msg);
}

/* ---- ptquery intervals -------------------------------------------- */

struct labelled {
	unsigned long start;
	unsigned long last;
	char *label;
};

struct interval_set {
	struct labelled *v;
	size_t nr, cap;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next blank-delimited token of [*@p, @end), stopping at a comment. */
static size_t next_token(const char **p, const char *end)
{
	size_t n = 0;

	while (*p < end && is_blank(**p))
		++*p;
	while (*p + n < end && !is_blank((*p)[n]) && (*p)[n] != '#')
		n++;
	return n;
}

static void parse_interval_field(const char *file, unsigned long lineno,
				 const char *name, const char **p,
				 const char *end, unsigned long *out)
{
	size_t n = next_token(p, end);

	if (!n)
		die(EXIT_INPUT, "%s:%lu: expected %s, a number from 0 to %lu\n",
		    file, lineno, name, ULONG_MAX);
	if (!parse_number(*p, n, out))
		die(EXIT_INPUT,
		    "%s:%lu: expected %s, a number from 0 to %lu, got '%.*s'\n",
		    file, lineno, name, ULONG_MAX, (int)(n > 64 ? 64 : n), *p);
	*p += n;
}

static void load_intervals(const char *path, struct interval_set *set)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	unsigned long start, last, lineno = 0;
	const char *p, *end, *label;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;

	if (!f)
		die(EXIT_INPUT, "%s: %s\n", path, strerror(errno));
	/* getline(): no line is too long, and a NUL byte is seen as one */
	while (errno = 0, (len = getline(&line, &size, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (memchr(line, '\0', len))
			die(EXIT_INPUT, "%s:%lu: expected text, got a NUL byte\n",
			    path, lineno);
		p = line;
		end = line + len;
		if (!next_token(&p, end))
			continue;	/* blank or comment */
		parse_interval_field(path, lineno, "START", &p, end, &start);
		parse_interval_field(path, lineno, "LAST after START", &p,
				     end, &last);
		if (start > last)
			die(EXIT_INPUT,
			    "%s:%lu: expected START <= LAST, got %lu > %lu\n",
			    path, lineno, start, last);
		/* the label: the rest, blanks trimmed, up to a comment */
		while (p < end && is_blank(*p))
			p++;
		label = p;
		while (p < end && *p != '#')
			p++;
		while (p > label && is_blank(p[-1]))
			p--;
		grow(&set->v, &set->cap, set->nr, sizeof(*set->v));
		set->v[set->nr].start = start;
		set->v[set->nr].last = last;
		set->v[set->nr].label = xstrndup(label, p - label);
		set->nr++;
	}
	if (ferror(f))	/* e.g. EISDIR for a directory */
		die(EXIT_INPUT, "%s: %s\n", path,
		    strerror(errno ? errno : EIO));
	free(line);
	if (f != stdin)
		fclose(f);
}

static int cmp_labelled(const void *a, const void *b)
{
	const struct labelled *x = *(struct labelled * const *)a;
	const struct labelled *y = *(struct labelled * const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->last != y->last)
		return x->last < y->last ? -1 : 1;
	return strcmp(x->label, y->label);
}

static const struct option intervals_options[] = {
	{ "help",	no_argument,	NULL, 'h' },
	{ "version",	no_argument,	NULL, 'V' },
	{ NULL,		0,		NULL, 0 },
};

static int cmd_intervals(int argc, char **argv)
{
	struct interval_set set = { 0 };
	struct labelled **hits;
	unsigned long first, last;
	struct priotree *pt;
	size_t nr, i;
	int q, c;

	while ((c = getopt_long(argc, argv, "hV", intervals_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("%s%s", intervals_help, exit_help);
			return 0;
		case 'V':
			printf("ptquery %s\n", PRIOTREE_TOOL_VERSION);
			return 0;
		default:
			die(EXIT_USAGE, "see 'ptquery intervals --help'\n");
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		die(EXIT_USAGE,
		    "ptquery intervals: expected FILE QUERY..., see 'ptquery intervals --help'\n");
	for (q = 1; q < argc; q++)	/* validate every query up front */
		parse_query("query", argv[q], &first, &last);
	load_intervals(argv[0], &set);

	pt = priotree_new();
	if (!pt)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	for (i = 0; i < set.nr; i++)
		if (priotree_insert(pt, set.v[i].start, set.v[i].last,
				    &set.v[i]))
			die(EXIT_INPUT, "ptquery: out of memory\n");
	check_index(pt);

	for (q = 1; q < argc; q++) {
		parse_query("query", argv[q], &first, &last);
		nr = collect(pt, first, last, (void ***)&hits, cmp_labelled);
		printf("query [%lu, %lu]: %zu interval%s\n", first, last, nr,
		       nr == 1 ? "" : "s");
		for (i = 0; i < nr; i++)
			printf("  [%lu, %lu] %s\n", hits[i]->start,
			       hits[i]->last, hits[i]->label);
		free(hits);
	}
	priotree_free(pt);
	for (i = 0; i < set.nr; i++)
		free(set.v[i].label);
	free(set.v);
	return 0;
}

/* ---- ptquery maps ------------------------------------------------- */

struct process {
	long pid;
	char *comm;
};

/* One mapping of the file: file pages [pgoff, pgoff + pages - 1]. */
struct vma {
	unsigned long start, end;
	unsigned long pgoff, pages;
	size_t proc;		/* index into scan.procs */
	char perms[5];
};

struct scan {
	const char *dir;
	dev_t dev;
	ino_t ino;
	unsigned long page_size;
	long skip_pid;		/* ptquery on the live /proc, or -1 */

	struct process *procs;
	size_t nr_procs, cap_procs;
	struct vma *vmas;
	size_t nr_vmas, cap_vmas;

	/* what was skipped, for the summary */
	unsigned long denied;		/* EACCES, EPERM: not ours */
	unsigned long vanished;		/* exited while being read */
	unsigned long failed;		/* any other error */
	char *first_failure;
	unsigned long malformed;
	char *first_malformed;
};

static void note_first(char **slot, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_first(char **slot, const char *fmt, ...)
{
	va_list ap;

	if (*slot)
		return;
	va_start(ap, fmt);
	if (vasprintf(slot, fmt, ap) < 0)
		*slot = NULL;
	va_end(ap);
}

static void note_unreadable(struct scan *s, const char *path, int err)
{
	if (err == ENOENT || err == ESRCH)
		s->vanished++;
	else if (err == EACCES || err == EPERM)
		s->denied++;
	else {
		s->failed++;
		note_first(&s->first_failure, "%s: %s", path, strerror(err));
	}
}

/* DIR/PID/comm without its newline, or "?" when it cannot be read. */
static char *read_comm(const char *dir, const char *pid)
{
	char *path, *line = NULL;
	size_t size = 0;
	ssize_t len = -1;
	FILE *f;

	if (asprintf(&path, "%s/%s/comm", dir, pid) < 0)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	f = fopen(path, "r");
	if (f) {
		len = getline(&line, &size, f);
		fclose(f);
	}
	free(path);
	if (len < 0) {
		free(line);
		return xstrndup("?", 1);
	}
	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	return line;
}

/*
 * Read DIR/PID/maps whole.  Either every usable line of it is kept or,
 * when reading fails part way, none: half a process would be a wrong
 * answer, not a partial one.
 */
static void read_process(struct scan *s, const char *pid_name, long pid)
{
	size_t mark = s->nr_vmas, size = 0;
	unsigned long lineno = 0;
	struct maps_entry e;
	char *path, *line = NULL;
	const char *why;
	struct vma *v;
	ssize_t len;
	FILE *f;

	if (asprintf(&path, "%s/%s/maps", s->dir, pid_name) < 0)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	f = fopen(path, "r");
	if (!f) {
		note_unreadable(s, path, errno);
		free(path);
		return;
	}
	while (errno = 0, (len = getline(&line, &size, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		why = maps_parse_line(line, len, s->page_size, &e);
		if (why) {
			s->malformed++;
			note_first(&s->first_malformed, "%s:%lu: %s", path,
				   lineno, why);
			continue;
		}
		if (e.inode != (unsigned long long)s->ino ||
		    e.major != major(s->dev) || e.minor != minor(s->dev))
			continue;
		grow(&s->vmas, &s->cap_vmas, s->nr_vmas, sizeof(*s->vmas));
		v = &s->vmas[s->nr_vmas++];
		v->start = e.start;
		v->end = e.end;
		v->pgoff = e.offset / s->page_size;
		v->pages = (e.end - e.start) / s->page_size;
		v->proc = s->nr_procs;
		memcpy(v->perms, e.perms, sizeof(v->perms));
	}
	if (ferror(f)) {
		note_unreadable(s, path, errno ? errno : EIO);
		s->nr_vmas = mark;
	} else {
		grow(&s->procs, &s->cap_procs, s->nr_procs, sizeof(*s->procs));
		s->procs[s->nr_procs].pid = pid;
		s->procs[s->nr_procs].comm = read_comm(s->dir, pid_name);
		s->nr_procs++;
	}
	fclose(f);
	free(line);
	free(path);
}

/* A PID directory: all digits, and a pid. */
static bool pid_name(const char *name, long *pid)
{
	const char *p;

	for (p = name; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	if (p == name || p - name > 10)
		return false;
	*pid = strtol(name, NULL, 10);
	return *pid > 0 && *pid <= INT_MAX;
}

static void scan_processes(struct scan *s)
{
	struct dirent *de;
	DIR *d;
	long pid;

	d = opendir(s->dir);
	if (!d)
		die(EXIT_INPUT, "%s: %s\n", s->dir, strerror(errno));
	while ((errno = 0, de = readdir(d))) {
		if (!pid_name(de->d_name, &pid) || pid == s->skip_pid)
			continue;
		read_process(s, de->d_name, pid);
	}
	if (errno)
		die(EXIT_INPUT, "%s: %s\n", s->dir, strerror(errno));
	closedir(d);
}

static const char *plural(unsigned long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* What the answer leaves out, on stderr, so no answer is silently partial. */
static void summarise(const struct scan *s)
{
	if (s->denied)
		fprintf(stderr, "ptquery: %lu %s unreadable: %s\n", s->denied,
			plural(s->denied, "process", "processes"),
			geteuid() ? "run as root for all" :
			"Permission denied, even to root");
	if (s->failed)
		fprintf(stderr, "ptquery: %lu %s unreadable, first %s\n",
			s->failed, plural(s->failed, "process", "processes"),
			s->first_failure ? s->first_failure : "?");
	if (s->vanished)
		fprintf(stderr, "ptquery: %lu %s exited while being read\n",
			s->vanished,
			plural(s->vanished, "process", "processes"));
	if (s->malformed)
		fprintf(stderr, "ptquery: %lu malformed maps %s skipped, first %s\n",
			s->malformed, plural(s->malformed, "line", "lines"),
			s->first_malformed ? s->first_malformed : "?");
}

static const struct scan *cmp_scan;	/* for cmp_vma(): qsort has no arg */

static int cmp_vma(const void *a, const void *b)
{
	const struct vma *x = *(struct vma * const *)a;
	const struct vma *y = *(struct vma * const *)b;
	long px = cmp_scan->procs[x->proc].pid;
	long py = cmp_scan->procs[y->proc].pid;

	if (px != py)
		return px < py ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/*
 * A JSON string: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 become \u00XX (their Latin-1 reading), so the
 * output is valid JSON whatever a process named itself.
 */
static void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n, i;

	putc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		if (*p < 0x80) {
			putc(*p++, out);
			continue;
		}
		/* length of a well-formed UTF-8 sequence starting here */
		n = (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 2 :
		    (*p & 0xf0) == 0xe0 ? 3 :
		    (*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 4 : 0;
		for (i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		/* no overlong forms, surrogates or code points past 10FFFF */
		if ((n == 3 && *p == 0xe0 && p[1] < 0xa0) ||
		    (n == 3 && *p == 0xed && p[1] >= 0xa0) ||
		    (n == 4 && *p == 0xf0 && p[1] < 0x90) ||
		    (n == 4 && *p == 0xf4 && p[1] >= 0x90))
			n = 0;
		if (!n) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
	putc('"', out);
}

/* comm for a terminal: what is not printable ASCII shows as '?'. */
static void text_string(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s >= 0x20 && *s < 0x7f ? *s : '?', out);
}

static const struct option maps_options[] = {
	{ "proc",	required_argument,	NULL, 'p' },
	{ "json",	no_argument,		NULL, 'j' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 },
};

static int cmd_maps(int argc, char **argv)
{
	struct scan s = { .dir = "/proc", .skip_pid = -1 };
	unsigned long page, last, first, lastp;
	char *real_dir, *real_proc;
	struct vma **hits;
	struct priotree *pt;
	bool json = false;
	struct stat st;
	size_t nr, i;
	long psize;
	int q, c;

	while ((c = getopt_long(argc, argv, "p:jhV", maps_options,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			s.dir = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			printf("%s%s", maps_help, exit_help);
			return 0;
		case 'V':
			printf("ptquery %s\n", PRIOTREE_TOOL_VERSION);
			return 0;
		default:
			die(EXIT_USAGE, "see 'ptquery maps --help'\n");
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		die(EXIT_USAGE,
		    "ptquery maps: expected PATH, see 'ptquery maps --help'\n");
	for (q = 1; q < argc; q++)	/* validate every query up front */
		parse_query("page", argv[q], &page, &last);
	if (stat(argv[0], &st))
		die(EXIT_INPUT, "%s: %s\n", argv[0], strerror(errno));
	psize = sysconf(_SC_PAGESIZE);
	if (psize <= 0 || psize & (psize - 1))
		die(EXIT_INPUT, "ptquery: expected a page size, got %ld\n",
		    psize);
	s.page_size = psize;
	s.dev = st.st_dev;
	s.ino = st.st_ino;

	/* the live /proc holds ptquery too, which maps nothing of interest */
	real_dir = realpath(s.dir, NULL);
	real_proc = realpath("/proc", NULL);
	if (real_dir && real_proc && !strcmp(real_dir, real_proc))
		s.skip_pid = getpid();
	free(real_dir);
	free(real_proc);

	scan_processes(&s);
	summarise(&s);
	if (!s.nr_procs)
		die(EXIT_INPUT,
		    "ptquery: %s: expected at least one readable PID/maps\n",
		    s.dir);

	pt = priotree_new();
	if (!pt)
		die(EXIT_INPUT, "ptquery: out of memory\n");
	for (i = 0; i < s.nr_vmas; i++)
		if (priotree_insert(pt, s.vmas[i].pgoff,
				    s.vmas[i].pgoff + s.vmas[i].pages - 1,
				    &s.vmas[i]))
			die(EXIT_INPUT, "ptquery: out of memory\n");
	check_index(pt);
	cmp_scan = &s;

	if (!json)
		printf("%s: %zu mapping%s in %zu process%s\n", argv[0],
		       s.nr_vmas, s.nr_vmas == 1 ? "" : "s", s.nr_procs,
		       s.nr_procs == 1 ? "" : "es");
	/* with no PAGE given, ask about the file's first page */
	for (q = argc > 1 ? 1 : 0; q < argc; q++) {
		page = last = 0;
		if (q)
			parse_query("page", argv[q], &page, &last);
		nr = collect(pt, page, last, (void ***)&hits, cmp_vma);
		if (!json)
			printf("file pages [%lu, %lu]: mapped by %zu vma%s\n",
			       page, last, nr, nr == 1 ? "" : "s");
		for (i = 0; i < nr; i++) {
			const struct vma *v = hits[i];
			const struct process *p = &s.procs[v->proc];
			unsigned long va;

			/* the queried pages this vma maps, and where */
			first = page > v->pgoff ? page : v->pgoff;
			lastp = v->pgoff + v->pages - 1;
			if (last < lastp)
				lastp = last;
			va = v->start + (first - v->pgoff) * s.page_size;
			if (!json) {
				printf("  pid %ld (", p->pid);
				text_string(stdout, p->comm);
				printf(") 0x%lx-0x%lx %s: page %lu at 0x%lx\n",
				       v->start, v->end, v->perms, first, va);
				continue;
			}
			printf("{\"query\":[%lu,%lu],\"pid\":%ld,\"comm\":",
			       page, last, p->pid);
			json_string(stdout, p->comm);
			printf(",\"start\":\"0x%lx\",\"end\":\"0x%lx\","
			       "\"perms\":\"%s\",\"pgoff\":%lu,"
			       "\"pages\":[%lu,%lu],\"addr\":\"0x%lx\"}\n",
			       v->start, v->end, v->perms, v->pgoff, first,
			       lastp, va);
		}
		free(hits);
	}
	priotree_free(pt);
	for (i = 0; i < s.nr_procs; i++)
		free(s.procs[i].comm);
	free(s.procs);
	free(s.vmas);
	free(s.first_failure);
	free(s.first_malformed);
	return 0;
}

/*
 * Every answer, usage text and version ends here: an answer that could
 * not be written (a full disk, a closed pipe) is no answer, and exits 1.
 */
static int flush_stdout(int status)
{
	int err = 0;

	if (fflush(stdout))
		err = errno;
	else if (ferror(stdout))
		err = EIO;
	if (err)
		die(EXIT_INPUT, "ptquery: standard output: %s\n", strerror(err));
	return status;
}

static const struct option main_options[] = {
	{ "help",	no_argument,	NULL, 'h' },
	{ "version",	no_argument,	NULL, 'V' },
	{ NULL,		0,		NULL, 0 },
};

int main(int argc, char **argv)
{
	static char intervals_name[] = "ptquery intervals";
	static char maps_name[] = "ptquery maps";
	const char *cmd;
	int c;

	/* '+': options stop at the command, which has its own */
	while ((c = getopt_long(argc, argv, "+hV", main_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("%s%s", main_help, exit_help);
			return flush_stdout(0);
		case 'V':
			printf("ptquery %s\n", PRIOTREE_TOOL_VERSION);
			return flush_stdout(0);
		default:
			die(EXIT_USAGE, "see 'ptquery --help'\n");
		}
	}
	if (optind == argc)
		die(EXIT_USAGE,
		    "ptquery: expected a command, intervals or maps; see 'ptquery --help'\n");
	cmd = argv[optind];
	argc -= optind;
	argv += optind;
	optind = 0;	/* glibc: start over, and forget the '+' */
	if (!strcmp(cmd, "intervals")) {
		argv[0] = intervals_name;	/* getopt's messages name it */
		return flush_stdout(cmd_intervals(argc, argv));
	}
	if (!strcmp(cmd, "maps")) {
		argv[0] = maps_name;
		return flush_stdout(cmd_maps(argc, argv));
	}
	die(EXIT_USAGE,
	    "ptquery: expected a command, intervals or maps, got '%s'; see 'ptquery --help'\n",
	    cmd);
}
