/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by every fuzz harness: reading fuzzer bytes as numbers, and the
 * one way a harness reports that the library broke a promise.
 *
 * The decoders never fail.  When the input runs out they return zeroes,
 * so every byte string is a valid program of operations and the fuzzer
 * never wastes executions on inputs that a harness would reject.
 *
 * The index decoders are biased on purpose.  A uniform unsigned long
 * almost never lands on 0, ULONG_MAX or 2^k - 1, yet those are the values
 * where the prio tree changes shape (index_bits grows at 2^k, the size
 * levels are entered below maxindex, HEAP_INDEX meets overflow at the
 * top), and small values are where the 2004 query defect showed.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fuzz_input {
	const uint8_t	*data;
	size_t		size;
	size_t		pos;
};

static inline void fuzz_input_init(struct fuzz_input *in,
				   const uint8_t *data, size_t size)
{
	in->data = data;
	in->size = size;
	in->pos = 0;
}

static inline bool fuzz_more(const struct fuzz_input *in)
{
	return in->pos < in->size;
}

/* The next byte, or 0 past the end. */
static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
	return in->pos < in->size ? in->data[in->pos++] : 0;
}

/* The next eight bytes, little-endian; missing bytes read as 0. */
static inline unsigned long fuzz_ulong(struct fuzz_input *in)
{
	unsigned long v = 0;
	unsigned int i;

	for (i = 0; i < sizeof(v); i++)
		v |= (unsigned long)fuzz_u8(in) << (8 * i);
	return v;
}

/*
 * An index in [0, ULONG_MAX], chosen by a selector byte whose top two bits
 * pick the family and whose low six bits parametrise it:
 *   00  small: 0 .. 63
 *   01  near a power of two: 2^(k+1) - 1, nudged by up to 3 either way
 *       by one more byte (2^64 - 1 is ULONG_MAX itself)
 *   10  near the top: ULONG_MAX - k
 *   11  anything: eight more bytes
 */
static inline unsigned long fuzz_index(struct fuzz_input *in)
{
	uint8_t sel = fuzz_u8(in), nudge;
	unsigned int k = sel & 0x3f;
	unsigned long base;

	switch (sel >> 6) {
	case 0:
		return k;
	case 1:
		base = ULONG_MAX >> (63 - k);
		nudge = fuzz_u8(in);
		if (nudge & 0x80)
			return base > ULONG_MAX - (nudge & 3) ?
				ULONG_MAX : base + (nudge & 3);
		return base - ((nudge & 3) < base ? (nudge & 3) : base);
	case 2:
		return ULONG_MAX - k;
	default:
		return fuzz_ulong(in);
	}
}

/* A value in [0, bound), bound > 0, from one byte (bound <= 256 is exact). */
static inline unsigned int fuzz_below(struct fuzz_input *in,
				      unsigned int bound)
{
	return fuzz_u8(in) % bound;
}

static inline void __attribute__((__noreturn__, __format__(printf, 4, 5)))
fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: expected %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

/*
 * FUZZ_EXPECT(cond, fmt, ...) - the library must make @cond true.
 *
 * Otherwise print "file:line: expected cond: details" and abort(): the
 * fuzzers (libFuzzer, AFL++) see a crash and keep the input, and the
 * replay driver's test fails with the message above it.
 */
#define FUZZ_EXPECT(cond, ...) do {					\
	if (!(cond))							\
		fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);	\
} while (0)

/* Every harness provides this; libFuzzer and replay_main.c call it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* FUZZ_INPUT_H */
