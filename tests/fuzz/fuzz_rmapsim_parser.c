// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the rmapsim scenario parser (tools/rmapsim/scenario.c):
 * arbitrary bytes are written to a file and loaded as a scenario.
 *
 * What scenario_load() promises, and the harness demands:
 *  - it returns 0 or -1 and never crashes, leaks or hangs;
 *  - on -1 it printed exactly one line, "PATH:LINE: expected ...", and
 *    kept nothing;
 *  - on 0 it printed nothing, and the scenario survives a round trip:
 *    scenario_print_header() and scenario_print_op() give a text that
 *    loads again into the same name and the same ops.
 *
 * The parser's stderr is captured by pointing the stdio stream at a
 * memory stream for the call; sanitizer reports bypass stdio and still
 * reach the real standard error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/rmapsim/scenario.h"

#include "fuzz_input.h"

/* One scratch file per process, rewritten for every input. */
static char scratch_path[] = "/tmp/fuzz_rmapsim_parser.XXXXXX";
static int scratch_fd = -1;

static void scratch_remove(void)
{
	unlink(scratch_path);
}

static void scratch_write(const void *data, size_t size)
{
	if (scratch_fd < 0) {
		scratch_fd = mkstemp(scratch_path);
		FUZZ_EXPECT(scratch_fd >= 0, "a scratch file in /tmp");
		atexit(scratch_remove);
	}
	FUZZ_EXPECT(ftruncate(scratch_fd, 0) == 0, "truncating %s",
		    scratch_path);
	FUZZ_EXPECT(pwrite(scratch_fd, data, size, 0) == (ssize_t)size,
		    "writing %zu bytes to %s", size, scratch_path);
}

/* scenario_load() with its stderr output returned in *@msg (malloc'd). */
static int load_quietly(struct scenario *sc, char **msg)
{
	FILE *real_stderr = stderr, *capture;
	size_t len = 0;
	int rc;

	*msg = NULL;
	capture = open_memstream(msg, &len);
	FUZZ_EXPECT(capture, "a memory stream");
	stderr = capture;
	rc = scenario_load(scratch_path, sc);
	stderr = real_stderr;
	fclose(capture);
	return rc;
}

static void expect_error_line(const char *msg)
{
	size_t plen = strlen(scratch_path);
	const char *p = msg + plen + 1, *nl;

	FUZZ_EXPECT(!strncmp(msg, scratch_path, plen) && msg[plen] == ':',
		    "the error to start with the path: '%s'", msg);
	while (*p >= '0' && *p <= '9')
		p++;
	FUZZ_EXPECT(p > msg + plen + 1 && !strncmp(p, ": expected ", 11),
		    "'PATH:LINE: expected ...': '%s'", msg);
	nl = strchr(msg, '\n');
	FUZZ_EXPECT(nl && !nl[1], "exactly one line: '%s'", msg);
}

static void round_trip(const struct scenario *sc)
{
	struct scenario again;
	char *text = NULL, *msg;
	size_t len = 0;
	unsigned long i;
	FILE *out;
	int rc;

	out = open_memstream(&text, &len);
	FUZZ_EXPECT(out, "a memory stream");
	scenario_print_header(out, sc->name);
	for (i = 0; i < sc->nr; i++)
		scenario_print_op(out, &sc->ops[i]);
	fclose(out);

	scratch_write(text, len);
	rc = load_quietly(&again, &msg);
	FUZZ_EXPECT(rc == 0, "the printed scenario to load again: %s\n%s",
		    msg, text);
	FUZZ_EXPECT(!strcmp(again.name, sc->name) && again.nr == sc->nr,
		    "name '%s' and %lu ops back, not '%s' and %lu",
		    again.name, again.nr, sc->name, sc->nr);
	for (i = 0; i < sc->nr; i++)
		FUZZ_EXPECT(again.ops[i].kind == sc->ops[i].kind &&
			    !memcmp(again.ops[i].args, sc->ops[i].args,
				    sizeof(sc->ops[i].args)),
			    "op %lu to survive printing:\n%s", i, text);
	scenario_free(&again);
	free(msg);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc;
	char *msg;
	int rc;

	scratch_write(data, size);
	rc = load_quietly(&sc, &msg);
	FUZZ_EXPECT(rc == 0 || rc == -1, "0 or -1, got %d", rc);
	if (rc) {
		expect_error_line(msg);
	} else {
		FUZZ_EXPECT(!msg[0], "no message on success: '%s'", msg);
		round_trip(&sc);
		scenario_free(&sc);
	}
	free(msg);
	return 0;
}
