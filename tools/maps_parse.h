/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PTQUERY_MAPS_PARSE_H
#define PTQUERY_MAPS_PARSE_H

/*
 * One line of /proc/PID/maps, as show_map_vma() prints it:
 *
 *	start-end perms offset major:minor inode [padding path]
 *
 * The path is whatever follows the inode and the blanks after it, to the
 * end of the line: it may contain blanks, and the kernel escapes only a
 * newline in it (as "\012"), so the line is the unit, never a prefix of a
 * line.  Kept apart from ptquery.c so that the fuzz harness
 * (tests/fuzz/fuzz_maps_parse.c) drives exactly the parser ptquery uses.
 */

#include <stddef.h>

struct maps_entry {
	unsigned long start;		/* first byte mapped */
	unsigned long end;		/* one past the last byte mapped */
	char perms[5];			/* "r-xp": [r-][w-][x-][ps] */
	unsigned long long offset;	/* file offset of start, in bytes */
	unsigned int major, minor;	/* device of the mapped inode */
	unsigned long long inode;	/* 0 for anonymous memory */
	const char *path;		/* into the parsed line, not copied */
	size_t path_len;		/* 0 when there is no path */
};

/**
 * maps_parse_line() - parse one /proc/PID/maps line
 * @line: the line, without its newline; need not be NUL-terminated
 * @len: bytes in @line
 * @page_size: the mapping must be aligned to it (a power of two)
 * @e: filled in on success; @e->path points into @line
 *
 * Every field is parsed from the left with its exact syntax: hex numbers
 * of at most 16 digits, perms of four letters, a decimal inode, single
 * blanks between them.  A NUL or newline anywhere in @line is an error,
 * so is start >= end or a start, end or offset off a page boundary.
 *
 * Return: NULL on success, else a static message starting "expected "
 * that says what was wrong (for "FILE:LINE: expected ...").
 */
const char *maps_parse_line(const char *line, size_t len,
			    unsigned long page_size, struct maps_entry *e);

#endif /* PTQUERY_MAPS_PARSE_H */
