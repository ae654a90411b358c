// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/PID/maps line parser of ptquery; see maps_parse.h.
 *
 * sscanf() is not used on purpose: it skips any amount of white space,
 * accepts signs and 0x prefixes inside %x, and silently wraps on
 * overflow, so a line it accepts need not be a line the kernel printed.
 */
#include <limits.h>
#include <string.h>

#include "maps_parse.h"

struct cursor {
	const char *p;
	const char *end;
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 1 to @max_digits hex digits, no prefix, no sign. */
static int take_hex(struct cursor *c, unsigned int max_digits,
		    unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned int n = 0;
	int d;

	while (c->p < c->end && (d = hex_digit(*c->p)) >= 0) {
		if (++n > max_digits)
			return -1;
		v = v << 4 | d;
		c->p++;
	}
	*out = v;
	return n ? 0 : -1;
}

/* 1 to 20 decimal digits, at most ULLONG_MAX. */
static int take_dec(struct cursor *c, unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned int n = 0, d;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		d = *c->p - '0';
		if (v > (ULLONG_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		n++;
		c->p++;
	}
	*out = v;
	return n ? 0 : -1;
}

static int take_char(struct cursor *c, char want)
{
	if (c->p == c->end || *c->p != want)
		return -1;
	c->p++;
	return 0;
}

static int take_perms(struct cursor *c, char *perms)
{
	static const char *const allowed[4] = { "r-", "w-", "x-", "ps" };
	unsigned int i;

	if (c->end - c->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if (!c->p[i] || !strchr(allowed[i], c->p[i]))
			return -1;
		perms[i] = c->p[i];
	}
	perms[4] = '\0';
	c->p += 4;
	return 0;
}

const char *maps_parse_line(const char *line, size_t len,
			    unsigned long page_size, struct maps_entry *e)
{
	struct cursor c = { line, line + len };
	unsigned long long start, end, major, minor;
	unsigned long mask = page_size - 1;

	if (memchr(line, '\0', len) || memchr(line, '\n', len))
		return "expected text, got a NUL byte or a newline";
	if (take_hex(&c, 16, &start) || take_char(&c, '-'))
		return "expected START-END (hex) at the beginning";
	if (take_hex(&c, 16, &end) || take_char(&c, ' '))
		return "expected END (hex) and a blank after START-";
	if (take_perms(&c, e->perms) || take_char(&c, ' '))
		return "expected PERMS ([r-][w-][x-][ps]) and a blank after START-END";
	if (take_hex(&c, 16, &e->offset) || take_char(&c, ' '))
		return "expected OFFSET (hex) and a blank after PERMS";
	if (take_hex(&c, 8, &major) || take_char(&c, ':') ||
	    take_hex(&c, 8, &minor))
		return "expected DEV (MAJOR:MINOR, hex) after OFFSET";
	if (take_char(&c, ' ') || take_dec(&c, &e->inode))
		return "expected INODE (decimal) after DEV";
	/* anonymous memory ends here, or in blanks; a path follows blanks */
	if (c.p < c.end && take_char(&c, ' '))
		return "expected a blank or the end of the line after INODE";
	while (c.p < c.end && *c.p == ' ')
		c.p++;
	if (start > ULONG_MAX || end > ULONG_MAX)
		return "expected START and END to fit an unsigned long";
	if (start >= end)
		return "expected START < END";
	if ((start | end | e->offset) & mask)
		return "expected START, END and OFFSET on page boundaries";
	e->start = start;
	e->end = end;
	e->major = major;
	e->minor = minor;
	e->path = c.p;
	e->path_len = c.end - c.p;
	return NULL;
}
