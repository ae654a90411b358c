// SPDX-License-Identifier: GPL-2.0
/*
 * ptquery - stabbing queries over intervals with libpriotree.
 *
 *   ptquery intervals FILE QUERY...
 *	FILE holds one interval per line, "START LAST [LABEL]" (decimal or
 *	0x-hex, closed interval, '#' starts a comment); "-" reads stdin.
 *	Each QUERY is "N" (a point) or "A-B" (a range); every interval
 *	overlapping it is printed.
 *
 *   ptquery maps PATH [PGOFF...]
 *	Reads /proc/PID/maps of every process, indexes each mapping of the
 *	file PATH by the file pages it maps, and prints which processes map
 *	each page PGOFF (default: page 0) and at which address - the question
 *	objrmap asks of address_space->i_mmap.
 *
 * The whole input is read and validated before any query runs: a bad line
 * gives "FILE:LINE: expected ..." and exit status 1, with no partial output.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
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

#define PAGE_SHIFT	12

struct labelled {
	unsigned long start;
	unsigned long last;
	char *label;
};

struct interval_set {
	struct labelled *v;
	size_t nr, cap;
};

static inline unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

static void __attribute__((noreturn)) die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("ptquery: out of memory\n");
	return p;
}

static void set_add(struct interval_set *set, unsigned long start,
		    unsigned long last, const char *label)
{
	if (set->nr == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 64;
		set->v = xrealloc(set->v, set->cap * sizeof(*set->v));
	}
	set->v[set->nr].start = start;
	set->v[set->nr].last = last;
	set->v[set->nr].label = strdup(label);
	if (!set->v[set->nr].label)
		die("ptquery: out of memory\n");
	set->nr++;
}

static void set_free(struct interval_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		free(set->v[i].label);
	free(set->v);
}

/*
 * Parse one unsigned long (decimal or 0x-hex) at *@pos, skipping leading
 * blanks.  Overflow and trailing garbage count as errors.
 */
static bool parse_ulong(const char **pos, unsigned long *out)
{
	const char *p = *pos;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	*out = strtoul(p, &end, 0);
	if (errno || end == p)
		return false;
	if (*end && !isspace((unsigned char)*end) && *end != '#' && *end != '-')
		return false;
	*pos = end;
	return true;
}

/* The rest of the line, blanks trimmed, up to a comment. */
static void rest_of_line(const char *p, char *label, size_t len)
{
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "#\n");
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(label, p, n);
	label[n] = '\0';
}

static void load_intervals(const char *path, struct interval_set *set)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	unsigned long start, last, lineno = 0;
	char line[4096], label[1024];
	const char *p;

	if (!f)
		die("%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			die("%s:%lu: expected a line shorter than %zu bytes\n",
			    path, lineno, sizeof(line));
		p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (!parse_ulong(&p, &start))
			die("%s:%lu: expected START (a number)\n", path, lineno);
		if (!parse_ulong(&p, &last))
			die("%s:%lu: expected LAST (a number) after START\n",
			    path, lineno);
		if (start > last)
			die("%s:%lu: expected START <= LAST, got %lu > %lu\n",
			    path, lineno, start, last);
		rest_of_line(p, label, sizeof(label));
		set_add(set, start, last, label);
	}
	if (ferror(f))
		die("%s: read error\n", path);
	if (f != stdin)
		fclose(f);
}

static void parse_query(const char *arg, unsigned long *first,
			unsigned long *last)
{
	const char *p = arg;

	if (!parse_ulong(&p, first))
		die("query '%s': expected N or A-B\n", arg);
	*last = *first;
	if (*p == '-') {
		p++;
		if (!parse_ulong(&p, last) || *p)
			die("query '%s': expected a number after '-'\n", arg);
	} else if (*p) {
		die("query '%s': expected N or A-B\n", arg);
	}
	if (*first > *last)
		die("query '%s': expected A <= B\n", arg);
}

static struct priotree *build_index(struct interval_set *set)
{
	struct priotree *pt = priotree_new();
	char msg[256];
	size_t i;

	if (!pt)
		die("ptquery: out of memory\n");
	for (i = 0; i < set->nr; i++)
		if (priotree_insert(pt, set->v[i].start, set->v[i].last,
				    &set->v[i]))
			die("ptquery: cannot index [%lu, %lu]\n",
			    set->v[i].start, set->v[i].last);
	if (priotree_check(pt, msg, sizeof(msg)))
		die("ptquery: index corrupt: %s\n", msg);
	return pt;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct labelled *x = *(struct labelled * const *)a;
	const struct labelled *y = *(struct labelled * const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->last != y->last)
		return x->last < y->last ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* Query, sort the hits for stable output, return how many there were. */
static size_t collect(struct priotree *pt, unsigned long first,
		      unsigned long last, struct labelled ***hits)
{
	struct priotree_iter it;
	struct priotree_hit hit;
	size_t nr = 0, cap = 0;

	*hits = NULL;
	priotree_query(pt, first, last, &it);
	while (priotree_next(&it, &hit) > 0) {
		if (nr == cap) {
			cap = cap ? 2 * cap : 16;
			*hits = xrealloc(*hits, cap * sizeof(**hits));
		}
		(*hits)[nr++] = hit.item;
	}
	qsort(*hits, nr, sizeof(**hits), cmp_hit);
	return nr;
}

static int cmd_intervals(int argc, char **argv)
{
	struct interval_set set = { 0 };
	unsigned long first, last;
	struct labelled **hits;
	struct priotree *pt;
	size_t nr, i;
	int q;

	if (argc < 2)
		die("usage: ptquery intervals FILE QUERY...\n");
	for (q = 1; q < argc; q++)	/* validate every query up front */
		parse_query(argv[q], &first, &last);
	load_intervals(argv[0], &set);
	pt = build_index(&set);

	for (q = 1; q < argc; q++) {
		parse_query(argv[q], &first, &last);
		nr = collect(pt, first, last, &hits);
		printf("query [%lu, %lu]: %zu interval%s\n", first, last, nr,
		       nr == 1 ? "" : "s");
		for (i = 0; i < nr; i++)
			printf("  [%lu, %lu] %s\n", hits[i]->start,
			       hits[i]->last, hits[i]->label);
		free(hits);
	}
	priotree_free(pt);
	set_free(&set);
	return 0;
}

/*
 * One /proc/PID/maps line: "start-end perms offset dev inode   path".
 * Returns true and fills the fields when it maps @want (same device and
 * inode); a line that does not parse is an error.
 */
static bool maps_line(const char *file, unsigned long lineno, const char *line,
		      dev_t want_dev, ino_t want_ino, unsigned long *start,
		      unsigned long *end, unsigned long *pgoff, char *perms)
{
	unsigned int major, minor;
	unsigned long long offset, inode;
	int n = 0;

	if (sscanf(line, "%lx-%lx %4s %llx %x:%x %llu%n", start, end, perms,
		   &offset, &major, &minor, &inode, &n) != 7 || !n)
		die("%s:%lu: expected \"start-end perms offset dev inode\"\n",
		    file, lineno);
	if (*end <= *start || (*start | *end | offset) & ((1UL << PAGE_SHIFT) - 1))
		die("%s:%lu: expected a page-aligned, non-empty mapping\n",
		    file, lineno);
	*pgoff = offset >> PAGE_SHIFT;
	return inode == (unsigned long long)want_ino &&
	       major == major(want_dev) && minor == minor(want_dev);
}

static int cmd_maps(int argc, char **argv)
{
	struct interval_set set = { 0 };
	unsigned long start, end, pgoff, page, lineno, nr_procs = 0;
	char path[300], line[4096], label[320], perms[8];
	struct labelled **hits;
	struct dirent *de;
	struct priotree *pt;
	struct stat st;
	size_t nr, i;
	DIR *proc;
	FILE *f;
	int q;

	if (argc < 1)
		die("usage: ptquery maps PATH [PGOFF...]\n");
	if (stat(argv[0], &st))
		die("%s: %s\n", argv[0], strerror(errno));
	for (q = 1; q < argc; q++)
		parse_query(argv[q], &start, &end);

	proc = opendir("/proc");
	if (!proc)
		die("/proc: %s\n", strerror(errno));
	while ((de = readdir(proc))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/maps", de->d_name);
		f = fopen(path, "r");
		if (!f)		/* the process exited, or is not ours */
			continue;
		nr_procs++;
		lineno = 0;
		while (fgets(line, sizeof(line), f)) {
			lineno++;
			if (!maps_line(path, lineno, line, st.st_dev, st.st_ino,
				       &start, &end, &pgoff, perms))
				continue;
			snprintf(label, sizeof(label), "pid %s at %#lx (%s)",
				 de->d_name, start, perms);
			set_add(&set, pgoff,
				pgoff + ((end - start) >> PAGE_SHIFT) - 1, label);
		}
		fclose(f);
	}
	closedir(proc);

	pt = build_index(&set);
	printf("%s: %zu mappings in %lu processes\n", argv[0], set.nr, nr_procs);
	/* with no PGOFF given, ask about the file's first page */
	for (q = argc > 1 ? 1 : 0; q < argc; q++) {
		page = end = 0;
		if (q)
			parse_query(argv[q], &page, &end);
		nr = collect(pt, page, end, &hits);
		printf("file pages [%lu, %lu]: mapped by %zu vma%s\n", page, end,
		       nr, nr == 1 ? "" : "s");
		for (i = 0; i < nr; i++) {
			/* the first queried page this vma maps, and its address */
			unsigned long first = max_ul(page, hits[i]->start);
			unsigned long va = strtoul(strstr(hits[i]->label, "0x"),
						   NULL, 16);

			printf("  %s: page %lu at %#lx\n", hits[i]->label, first,
			       va + ((first - hits[i]->start) << PAGE_SHIFT));
		}
		free(hits);
	}
	priotree_free(pt);
	set_free(&set);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "intervals"))
		return cmd_intervals(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "maps"))
		return cmd_maps(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: ptquery intervals FILE QUERY...\n"
		"       ptquery maps PATH [PGOFF|A-B...]\n");
	return 2;
}
