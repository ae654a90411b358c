// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for the fuzz harnesses when libFuzzer is not linked in: it
 * feeds LLVMFuzzerTestOneInput() the files named on the command line
 * (a directory stands for every regular file in it, in name order), or
 * standard input when there are none.  This is how the corpora and the
 * regression inputs are replayed by `meson test --suite fuzz` (also under
 * valgrind and gcov), and how AFL++ runs a harness.
 *
 * Built by afl-clang-fast, the driver uses AFL++'s persistent shared
 * memory mode when started without arguments: one process runs many
 * inputs, which is what makes AFL++ fast on a harness this cheap.
 *
 * Exit status: 0 when every input ran to completion; 2 for unusable
 * arguments ("path: expected ..." on stderr).  A harness that catches the
 * library breaking a promise aborts (see FUZZ_EXPECT()).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_input.h"

/* libFuzzer's default -max_len is 4096; replays accept far more. */
#define REPLAY_MAX_SIZE	(16u << 20)

static int usage_error(const char *path, const char *what)
{
	fprintf(stderr, "%s: expected %s: %s\n", path, what,
		errno ? strerror(errno) : "no detail");
	return 2;
}

static int replay_stream(FILE *f, const char *name)
{
	uint8_t *buf = malloc(REPLAY_MAX_SIZE);
	size_t size;

	if (!buf)
		return usage_error(name, "memory for the input");
	size = fread(buf, 1, REPLAY_MAX_SIZE, f);
	if (ferror(f)) {
		free(buf);
		return usage_error(name, "a readable input");
	}
	if (!feof(f)) {
		free(buf);
		errno = EFBIG;
		return usage_error(name, "an input of at most 16 MiB");
	}
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	return 0;
}

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f)
		return usage_error(path, "a readable file");
	ret = replay_stream(f, path);
	fclose(f);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Replays every regular file directly inside @dir; *@count gets the number. */
static int replay_dir(const char *dir, unsigned long *count)
{
	struct dirent **names;
	struct stat st;
	char path[4096];
	int n, i, ret = 0;

	n = scandir(dir, &names, not_hidden, by_name);
	if (n < 0)
		return usage_error(dir, "a readable directory");
	for (i = 0; i < n; i++) {
		if (!ret) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 names[i]->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				ret = replay_file(path);
				++*count;
			}
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();

static void afl_persistent_loop(void)
{
	const uint8_t *buf;

	__AFL_INIT();
	buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(100000))
		LLVMFuzzerTestOneInput(buf, __AFL_FUZZ_TESTCASE_LEN);
}
#endif

int main(int argc, char **argv)
{
	unsigned long count = 0;
	struct stat st;
	int i, ret;

	if (argc < 2) {
#ifdef __AFL_FUZZ_TESTCASE_LEN
		afl_persistent_loop();
		return 0;
#else
		return replay_stream(stdin, "<stdin>");
#endif
	}
	for (i = 1; i < argc; i++) {
		errno = 0;
		if (stat(argv[i], &st) != 0)
			return usage_error(argv[i],
					   "an existing file or directory");
		if (S_ISDIR(st.st_mode)) {
			ret = replay_dir(argv[i], &count);
		} else {
			ret = replay_file(argv[i]);
			count++;
		}
		if (ret)
			return ret;
	}
	printf("replayed %lu inputs\n", count);
	return 0;
}
