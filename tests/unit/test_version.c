// SPDX-License-Identifier: GPL-2.0
/*
 * The version three ways: the PRIOTREE_VERSION_* macros of <priotree.h>,
 * priotree_version() of the shared library, and meson.build's project
 * version (argv[1]).  They must all agree; a release that bumps one and
 * not the others fails here.
 */

#include <stdio.h>
#include <string.h>

#include <priotree.h>

int main(int argc, char **argv)
{
	char header[64];
	const char *lib = priotree_version();
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PROJECT-VERSION\n", argv[0]);
		return 2;
	}
	snprintf(header, sizeof(header), "%d.%d.%d", PRIOTREE_VERSION_MAJOR,
		 PRIOTREE_VERSION_MINOR, PRIOTREE_VERSION_PATCH);
	if (strcmp(header, argv[1])) {
		printf("<priotree.h> says %s, meson.build %s\n", header,
		       argv[1]);
		bad = 1;
	}
	if (!lib || strcmp(lib, argv[1])) {
		printf("priotree_version() says %s, meson.build %s\n",
		       lib ? lib : "(null)", argv[1]);
		bad = 1;
	}
	if (PRIOTREE_VERSION != PRIOTREE_VERSION_OF(PRIOTREE_VERSION_MAJOR,
						     PRIOTREE_VERSION_MINOR,
						     PRIOTREE_VERSION_PATCH) ||
	    PRIOTREE_VERSION_OF(0, 2, 0) <= PRIOTREE_VERSION_OF(0, 1, 9)) {
		printf("PRIOTREE_VERSION_OF() does not order versions\n");
		bad = 1;
	}
	if (!bad)
		printf("version %s: header, library and meson.build agree\n",
		       lib);
	return bad;
}
