// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for ptquery's /proc/PID/maps line parser
 * (tools/maps_parse.c): the input is cut into lines at each newline, as
 * getline() cuts a maps file, and each line is parsed.
 *
 * What maps_parse_line() promises, and the harness demands:
 *  - it never crashes, reads past the line or hangs, NUL bytes included;
 *  - it fails with a one-line message starting "expected ";
 *  - or it succeeds with start < end, start, end and offset page-aligned,
 *    perms of the form [r-][w-][x-][ps], and the path the rest of the
 *    line after the inode and its blanks;
 *  - and then the entry survives a round trip: printed back the way the
 *    kernel prints it, it parses into the same fields and path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/maps_parse.h"

#include "fuzz_input.h"

#define PAGE_SIZE_FUZZ	4096UL

static void expect_entry(const char *line, size_t len,
			 const struct maps_entry *e)
{
	static const char *const allowed[4] = { "r-", "w-", "x-", "ps" };
	unsigned int i;

	FUZZ_EXPECT(e->start < e->end, "start %#lx < end %#lx", e->start,
		    e->end);
	FUZZ_EXPECT(!((e->start | e->end | e->offset) & (PAGE_SIZE_FUZZ - 1)),
		    "page-aligned %#lx-%#lx offset %#llx", e->start, e->end,
		    e->offset);
	for (i = 0; i < 4; i++)
		FUZZ_EXPECT(e->perms[i] && strchr(allowed[i], e->perms[i]),
			    "perms '%s'", e->perms);
	FUZZ_EXPECT(!e->perms[4], "four perms letters: '%s'", e->perms);
	FUZZ_EXPECT(e->path >= line && e->path + e->path_len == line + len,
		    "the path to end the line (%zu bytes)", len);
	FUZZ_EXPECT(!e->path_len || e->path[0] != ' ',
		    "the blanks before the path skipped");
}

static void round_trip(const struct maps_entry *e)
{
	struct maps_entry again;
	const char *why;
	size_t cap = e->path_len + 128;
	char *text = malloc(cap);
	int n;

	FUZZ_EXPECT(text, "memory for %zu bytes", cap);
	/* show_vma_header_prefix()'s format, then the padded path */
	n = snprintf(text, cap, "%08lx-%08lx %s %08llx %02x:%02x %llu ",
		     e->start, e->end, e->perms, e->offset, e->major,
		     e->minor, e->inode);
	FUZZ_EXPECT(n > 0 && (size_t)n < cap - e->path_len, "room to print");
	while (n < 73)
		text[n++] = ' ';
	memcpy(text + n, e->path, e->path_len);
	why = maps_parse_line(text, n + e->path_len, PAGE_SIZE_FUZZ, &again);
	FUZZ_EXPECT(!why, "the printed entry to parse again: %s", why);
	FUZZ_EXPECT(again.start == e->start && again.end == e->end &&
		    !strcmp(again.perms, e->perms) &&
		    again.offset == e->offset && again.major == e->major &&
		    again.minor == e->minor && again.inode == e->inode,
		    "the same fields back from '%.80s'", text);
	FUZZ_EXPECT(again.path_len == e->path_len &&
		    !memcmp(again.path, e->path, e->path_len),
		    "the same path back from '%.80s'", text);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	struct maps_entry e;
	const char *why;
	char *line;
	size_t len;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		len = (nl ? nl : end) - p;
		/* a copy of exactly the line, so ASan sees any overread */
		line = malloc(len ? len : 1);
		FUZZ_EXPECT(line, "memory for a %zu-byte line", len);
		memcpy(line, p, len);
		why = maps_parse_line(line, len, PAGE_SIZE_FUZZ, &e);
		if (why) {
			FUZZ_EXPECT(!strncmp(why, "expected ", 9) &&
				    !strchr(why, '\n'),
				    "one line 'expected ...': '%s'", why);
		} else {
			expect_entry(line, len, &e);
			round_trip(&e);
		}
		free(line);
		p += len + 1;
	}
	return 0;
}
