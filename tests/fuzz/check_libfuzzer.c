// SPDX-License-Identifier: GPL-2.0
/*
 * Configure-time probe: meson links this with
 * clang -fsanitize=fuzzer,address,undefined to learn whether libFuzzer and
 * the sanitizer runtimes are installed, and stops with a message if not.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return size && data[0] == 'x' ? 0 : 0;
}
