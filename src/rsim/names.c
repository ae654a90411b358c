// SPDX-License-Identifier: GPL-2.0
/*
 * Names: the tables of schemes, which carry the schemes' names, and the
 * op kinds' names and arguments, for scenario parsers and reports.
 * Nothing here depends on a simulation.
 */

#include <linux/string.h>

#include "rsim_internal.h"

/*
 * The schemes, by enum value: rsim_create() takes its ops tables from
 * here, and the names are the tables' own.  A new scheme is its file,
 * its enum value in rsim.h and one line here.
 */
const struct rsim_file_ops *const rsim_file_schemes[RSIM_NR_FILE_SCHEMES] = {
	[RSIM_FILE_PTE_CHAIN]	= &rsim_pte_chain_file_ops,
	[RSIM_FILE_LIST]	= &rsim_list_file_ops,
	[RSIM_FILE_PRIO]	= &rsim_prio_file_ops,
};

const struct rsim_anon_ops *const rsim_anon_schemes[RSIM_NR_ANON_SCHEMES] = {
	[RSIM_ANON_PTE_CHAIN]	= &rsim_pte_chain_anon_ops,
	[RSIM_ANON_VMA]		= &rsim_anon_vma_ops,
	[RSIM_ANON_MM]		= &rsim_anonmm_ops,
	[RSIM_ANON_VMA_CHAIN]	= &rsim_avc_ops,
};

static const struct rsim_op_desc rsim_op_descs[RSIM_NR_OPS] = {
	[RSIM_OP_FILE_CREATE]	= { "file", 2, { "file", "npages" } },
	[RSIM_OP_EXEC]		= { "exec", 1, { "pid" } },
	[RSIM_OP_FORK]		= { "fork", 2, { "parent", "child" } },
	[RSIM_OP_EXIT]		= { "exit", 1, { "pid" } },
	[RSIM_OP_MMAP_SHARED]	= { "mmap-shared", 6,
		{ "pid", "addr", "npages", "prot", "file", "pgoff" } },
	[RSIM_OP_MMAP_PRIVATE]	= { "mmap-private", 6,
		{ "pid", "addr", "npages", "prot", "file", "pgoff" } },
	[RSIM_OP_MMAP_ANON]	= { "mmap-anon", 4,
		{ "pid", "addr", "npages", "prot" } },
	[RSIM_OP_MUNMAP]	= { "munmap", 3, { "pid", "addr", "npages" } },
	[RSIM_OP_MPROTECT]	= { "mprotect", 4,
		{ "pid", "addr", "npages", "prot" } },
	[RSIM_OP_MREMAP_RESIZE]	= { "mremap", 4,
		{ "pid", "addr", "old_npages", "new_npages" } },
	[RSIM_OP_MREMAP_MOVE]	= { "mremap-move", 5,
		{ "pid", "addr", "old_npages", "new_npages", "new_addr" } },
	[RSIM_OP_FAULT_READ]	= { "read", 2, { "pid", "addr" } },
	[RSIM_OP_FAULT_WRITE]	= { "write", 2, { "pid", "addr" } },
	[RSIM_OP_TRUNCATE]	= { "truncate", 2, { "file", "npages" } },
	[RSIM_OP_RECLAIM_FILE]	= { "reclaim-file", 2, { "file", "pgoff" } },
	[RSIM_OP_RECLAIM_ADDR]	= { "reclaim", 2, { "pid", "addr" } },
	[RSIM_OP_WALK_FILE]	= { "walk-file", 2, { "file", "pgoff" } },
	[RSIM_OP_WALK_ADDR]	= { "walk", 2, { "pid", "addr" } },
};

/**
 * rsim_file_scheme_name - printable name of a file page scheme
 * @scheme: the scheme
 *
 * O(1).  Return: "pte_chain", "list" or "prio"; "?" when out of range.
 */
const char *rsim_file_scheme_name(enum rsim_file_scheme scheme)
{
	if ((unsigned int)scheme >= RSIM_NR_FILE_SCHEMES)
		return "?";
	return rsim_file_schemes[scheme]->name;
}

/**
 * rsim_anon_scheme_name - printable name of an anonymous page scheme
 * @scheme: the scheme
 *
 * O(1).  Return: "pte_chain", "anon_vma", "anonmm" or "anon_vma_chain";
 * "?" when out of range.
 */
const char *rsim_anon_scheme_name(enum rsim_anon_scheme scheme)
{
	if ((unsigned int)scheme >= RSIM_NR_ANON_SCHEMES)
		return "?";
	return rsim_anon_schemes[scheme]->name;
}

/**
 * rsim_file_scheme_parse - the file scheme called @name
 * @name: "pte_chain", "list" or "prio"
 *
 * O(1).  Return: the scheme, or -EINVAL.
 */
int rsim_file_scheme_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_FILE_SCHEMES; i++)
		if (!strcmp(name, rsim_file_schemes[i]->name))
			return i;
	return -EINVAL;
}

/**
 * rsim_anon_scheme_parse - the anonymous scheme called @name
 * @name: "pte_chain", "anon_vma", "anonmm" or "anon_vma_chain"
 *
 * O(1).  Return: the scheme, or -EINVAL.
 */
int rsim_anon_scheme_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_ANON_SCHEMES; i++)
		if (!strcmp(name, rsim_anon_schemes[i]->name))
			return i;
	return -EINVAL;
}

/**
 * rsim_op_desc - name and arguments of an op kind
 * @kind: the kind
 *
 * O(1).  Return: the description, or NULL when @kind is out of range.
 */
const struct rsim_op_desc *rsim_op_desc(enum rsim_op_kind kind)
{
	if ((unsigned int)kind >= RSIM_NR_OPS)
		return NULL;
	return &rsim_op_descs[kind];
}

/**
 * rsim_op_parse - the op kind whose name is @name
 * @name: e.g. "mremap-move"
 *
 * O(RSIM_NR_OPS).  Return: the kind, or -EINVAL.
 */
int rsim_op_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_OPS; i++)
		if (!strcmp(name, rsim_op_descs[i].name))
			return i;
	return -EINVAL;
}
