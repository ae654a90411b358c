// SPDX-License-Identifier: GPL-2.0
/*
 * test_exports LIBRARY.so VERSION-SCRIPT
 *
 * The shared library must export exactly the symbols that the version
 * script lists as global: nothing more (a helper leaking out of src/),
 * nothing less (an API function that lost its EXPORT_SYMBOL).  The
 * exports are read with "nm -D --defined-only"; the difference is printed
 * and the exit status is 1 when the two sets disagree.
 *
 * A C program rather than a shell script so that the valgrind test setup
 * checks this program and not the shell (nm runs through popen(), which
 * valgrind does not follow).
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMS	1024
#define MAX_NAME	256

struct symset {
	size_t n;
	char name[MAX_SYMS][MAX_NAME];
};

static int add(struct symset *set, const char *name, size_t len)
{
	if (set->n == MAX_SYMS || len == 0 || len >= MAX_NAME)
		return -1;
	memcpy(set->name[set->n], name, len);
	set->name[set->n][len] = '\0';
	set->n++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int contains(const struct symset *set, const char *name)
{
	return bsearch(name, set->name, set->n, MAX_NAME, cmp_name) != NULL;
}

/* The names between "global:" and "local:" of a version script. */
static int read_map(const char *path, struct symset *set)
{
	char line[512];
	unsigned int lineno = 0;
	int in_global = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "%s: expected a readable version script\n",
			path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (!strncmp(p, "global:", 7)) {
			in_global = 1;
			continue;
		}
		if (!strncmp(p, "local:", 6)) {
			in_global = 0;
			continue;
		}
		if (!in_global || !(isalpha((unsigned char)*p) || *p == '_'))
			continue;
		for (end = p; isalnum((unsigned char)*end) || *end == '_';)
			end++;
		if (*end != ';' || add(set, p, end - p)) {
			fprintf(stderr, "%s:%u: expected \"symbol;\"\n", path,
				lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!set->n) {
		fprintf(stderr, "%s: expected a global: section listing symbols\n",
			path);
		return -1;
	}
	return 0;
}

/* Defined dynamic symbols of @lib, without version suffixes. */
static int read_exports(const char *lib, struct symset *set)
{
	char cmd[1024], line[512], name[MAX_NAME];
	char type;
	FILE *p;
	int ret;

	if (strchr(lib, '\'') ||
	    snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", lib) >=
	    (int)sizeof(cmd)) {
		fprintf(stderr, "%s: expected a plain path\n", lib);
		return -1;
	}
	p = popen(cmd, "r");
	if (!p) {
		perror("popen nm");
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char *at;

		if (sscanf(line, "%*s %c %255s", &type, name) != 2)
			continue;
		/* the version node itself (type A) is no export */
		if (type == 'A')
			continue;
		at = strchr(name, '@');
		if (at)
			*at = '\0';
		if (add(set, name, strlen(name))) {
			fprintf(stderr, "%s: too many or too long symbols\n",
				lib);
			pclose(p);
			return -1;
		}
	}
	ret = pclose(p);
	if (ret) {
		fprintf(stderr, "%s: expected nm -D to succeed, status %d\n",
			lib, ret);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct symset listed, exported;
	size_t i, bad = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LIBRARY.so VERSION-SCRIPT\n",
			argv[0]);
		return 2;
	}
	if (read_map(argv[2], &listed) || read_exports(argv[1], &exported))
		return 1;
	qsort(listed.name, listed.n, MAX_NAME, cmp_name);
	qsort(exported.name, exported.n, MAX_NAME, cmp_name);
	for (i = 0; i < listed.n; i++)
		if (!contains(&exported, listed.name[i])) {
			printf("- %s: listed in %s, not exported\n",
			       listed.name[i], argv[2]);
			bad++;
		}
	for (i = 0; i < exported.n; i++)
		if (!contains(&listed, exported.name[i])) {
			printf("+ %s: exported, not listed in %s\n",
			       exported.name[i], argv[2]);
			bad++;
		}
	if (bad)
		return 1;
	printf("%s: exports exactly the %zu symbols of %s\n", argv[1],
	       listed.n, argv[2]);
	return 0;
}
