// SPDX-License-Identifier: GPL-2.0
/*
 * rsim_verify() against deliberate corruption.  Every other models test,
 * the differential runs and the rmap fuzz harness trust rsim_verify() to
 * say when a scheme has lost track of a mapping; these tests show that
 * each of its checks can fail.  For each check there is one way to break
 * exactly the state it guards.  Under every scheme combination where
 * that state exists, the test builds the same small world, breaks it,
 * expects -EUCLEAN with that check's own message, repairs it and
 * expects a clean verify again.  Each test also counts the combinations
 * it broke, so one that silently stops applying fails too.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "models_util.h"
#include "rsim_internal.h"

#define OP(kind, ...)	((struct rsim_op){ RSIM_OP_##kind, { __VA_ARGS__ } })

#define RW	(RSIM_PROT_READ | RSIM_PROT_WRITE)
#define RO	RSIM_PROT_READ

/*
 * The world each test breaks, in pages:
 *
 *   pid 1    0..7     A  file 1 from 0, shared, rw: 1 read, 2 written
 *            16..19   B  file 2 from 0, shared, read-only: 16 read
 *            32..39   C  file 1 from 0, private, rw: 35 read (file
 *                        page 3), 36 written (a COW copy)
 *            64..71   D  anonymous, rw: 64 and 65 written
 *   pid 2    a fork of pid 1, after which it wrote 65: its own copy,
 *            while 64 stays one page of both.
 *
 * File 2's page 4 stays cached with no pte: it was mapped at 100 and
 * read, then unmapped.
 */
static const struct rsim_op world[] = {
	OP(FILE_CREATE, 1, 16),
	OP(FILE_CREATE, 2, 8),
	OP(EXEC, 1),
	OP(MMAP_SHARED, 1, 0, 8, RW, 1, 0),
	OP(MMAP_SHARED, 1, 16, 4, RO, 2, 0),
	OP(MMAP_PRIVATE, 1, 32, 8, RW, 1, 0),
	OP(MMAP_ANON, 1, 64, 8, RW),
	OP(MMAP_SHARED, 1, 100, 2, RO, 2, 4),
	OP(FAULT_READ, 1, 1),
	OP(FAULT_WRITE, 1, 2),
	OP(FAULT_READ, 1, 16),
	OP(FAULT_READ, 1, 35),
	OP(FAULT_WRITE, 1, 36),
	OP(FAULT_WRITE, 1, 64),
	OP(FAULT_WRITE, 1, 65),
	OP(FAULT_READ, 1, 100),
	OP(MUNMAP, 1, 100, 2),
	OP(FORK, 1, 2),
	OP(FAULT_WRITE, 2, 65),
};

struct world {
	struct rsim		*sim;
	int			combo;
	struct rsim_mm		*mm1, *mm2;
	struct rsim_file	*file1, *file2;
};

static const char *combo_label(int i)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s/%s", rsim_file_scheme_name(combo_file(i)),
		 rsim_anon_scheme_name(combo_anon(i)));
	return buf;
}

static void world_build(struct world *w, int combo)
{
	struct rsim_report report;
	unsigned int i;
	int rc;

	w->combo = combo;
	w->sim = rsim_create(combo_file(combo), combo_anon(combo));
	if (!w->sim)
		fail_msg("%s: expected a simulation, got NULL",
			 combo_label(combo));
	for (i = 0; i < ARRAY_SIZE(world); i++) {
		rc = rsim_apply(w->sim, &world[i]);
		if (rc)
			fail_msg("%s: '%s' returned %d, expected 0",
				 combo_label(combo), op_text(&world[i]), rc);
	}
	if (rsim_verify(w->sim, &report))
		fail_msg("%s: the world before any corruption: %s",
			 combo_label(combo), report.msg);
	w->mm1 = rsim_mm_find(w->sim, 1);
	w->mm2 = rsim_mm_find(w->sim, 2);
	w->file1 = rsim_file_find(w->sim, 1);
	w->file2 = rsim_file_find(w->sim, 2);
	assert_non_null(w->mm1);
	assert_non_null(w->mm2);
	assert_non_null(w->file1);
	assert_non_null(w->file2);
}

/* The present pte of @vpn in @mm: the world maps it, or the test is wrong. */
static struct rsim_pte *pte_at(const struct world *w, struct rsim_mm *mm,
			       unsigned long vpn)
{
	struct rsim_pte *pte = rsim_pte_lookup(mm, vpn);

	if (!pte || !pte->page)
		fail_msg("%s: expected a present pte at pid %lu page %lu",
			 combo_label(w->combo), mm->pid, vpn);
	return pte;
}

static struct rsim_page *page_at(const struct world *w, struct rsim_mm *mm,
				 unsigned long vpn)
{
	return pte_at(w, mm, vpn)->page;
}

/* An absent pte, made present by a corruption; NULL never comes back. */
static struct rsim_pte *pte_absent(const struct world *w, struct rsim_mm *mm,
				   unsigned long vpn)
{
	struct rsim_pte *pte = rsim_pte_alloc(mm, vpn);

	assert_non_null(pte);
	if (pte->page)
		fail_msg("%s: expected no pte at pid %lu page %lu",
			 combo_label(w->combo), mm->pid, vpn);
	return pte;
}

static void expect_caught(const struct world *w, const char *what,
			  const char *needle, const char *needle2)
{
	struct rsim_report report;
	int rc = rsim_verify(w->sim, &report);

	if (rc != -EUCLEAN)
		fail_msg("%s: %s: rsim_verify() returned %d, expected -EUCLEAN",
			 combo_label(w->combo), what, rc);
	if (!strstr(report.msg, needle) ||
	    (needle2 && !strstr(report.msg, needle2)))
		fail_msg("%s: %s: expected a message with \"%s\"%s%s%s, got \"%s\"",
			 combo_label(w->combo), what, needle,
			 needle2 ? " and \"" : "", needle2 ? needle2 : "",
			 needle2 ? "\"" : "", report.msg);
}

static void expect_repaired(struct world *w, const char *what)
{
	struct rsim_report report;

	if (rsim_verify(w->sim, &report))
		fail_msg("%s: %s, repaired: expected a clean verify, got \"%s\"",
			 combo_label(w->combo), what, report.msg);
	rsim_destroy(w->sim);
	w->sim = NULL;
}

/*
 * One corruption: @apply breaks the world under its scheme combination
 * and returns true, or returns false where the state it breaks does not
 * exist (the scheme keeps no such thing).  @repair undoes it exactly.
 */
struct corruption {
	const char	*what;
	const char	*needle;	/* in rsim_verify()'s message */
	bool		(*apply)(struct world *w, void **saved);
	void		(*repair)(struct world *w, void *saved);
	int		combos;		/* how many of NR_COMBOS it applies to */
	const char	*needle2;	/* and this too, when set */
};

static void run_corruption(const struct corruption *c)
{
	struct world w;
	void *saved;
	int i, broken = 0;

	for (i = 0; i < NR_COMBOS; i++) {
		world_build(&w, i);
		saved = NULL;
		if (c->apply(&w, &saved)) {
			expect_caught(&w, c->what, c->needle, c->needle2);
			c->repair(&w, saved);
			broken++;
		}
		expect_repaired(&w, c->what);
	}
	if (broken != c->combos)
		fail_msg("%s: applied under %d scheme combinations, expected %d",
			 c->what, broken, c->combos);
}

/* ---- the mm: vmas, the address index and the ptes ----------------- */

static bool vma_count_apply(struct world *w, void **saved)
{
	w->mm1->nr_vmas++;
	return true;
}

static void vma_count_repair(struct world *w, void *saved)
{
	w->mm1->nr_vmas--;
}

static bool addr_index_apply(struct world *w, void **saved)
{
	*saved = (void *)(uintptr_t)w->mm1->addr_index.index_bits;
	/* a tree with nodes needs at least one radix bit (4) */
	w->mm1->addr_index.index_bits = 0;
	return true;
}

static void addr_index_repair(struct world *w, void *saved)
{
	w->mm1->addr_index.index_bits = (unsigned short)(uintptr_t)saved;
}

/* B leaves the address index but not the mm's list */
static bool vma_unindexed_apply(struct world *w, void **saved)
{
	struct rsim_vma *v = rsim_find_vma(w->mm1, 16);

	assert_non_null(v);
	prio_tree_remove(&w->mm1->addr_index, &v->addr_node);
	*saved = v;
	return true;
}

static void vma_unindexed_repair(struct world *w, void *saved)
{
	rsim_addr_index_insert(saved);
}

static bool pte_outside_apply(struct world *w, void **saved)
{
	struct rsim_pte *pte = pte_absent(w, w->mm1, 200);

	pte->page = page_at(w, w->mm1, 1);
	*saved = pte;
	return true;
}

static void pte_clear_repair(struct world *w, void *saved)
{
	((struct rsim_pte *)saved)->page = NULL;
}

/* pid 2 may write page 64, which pid 1 still maps: COW broken */
static bool cow_writable_apply(struct world *w, void **saved)
{
	struct rsim_pte *pte = pte_at(w, w->mm2, 64);

	assert_ptr_equal(pte->page, page_at(w, w->mm1, 64));
	assert_int_equal(pte->page->mapcount, 2);
	assert_false(pte->bits & RSIM_PTE_WRITE);
	pte->bits |= RSIM_PTE_WRITE;
	*saved = pte;
	return true;
}

static void pte_write_repair(struct world *w, void *saved)
{
	((struct rsim_pte *)saved)->bits &= ~RSIM_PTE_WRITE;
}

static bool readonly_writable_apply(struct world *w, void **saved)
{
	struct rsim_pte *pte = pte_at(w, w->mm1, 16);

	assert_false(pte->bits & RSIM_PTE_WRITE);
	pte->bits |= RSIM_PTE_WRITE;
	*saved = pte;
	return true;
}

/* ---- pages: what they say they are, and where -------------------- */

static bool anon_shared_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 16);

	page->flags |= RSIM_PG_ANON;
	*saved = page;
	return true;
}

static void anon_flag_repair(struct world *w, void *saved)
{
	((struct rsim_page *)saved)->flags &= ~RSIM_PG_ANON;
}

/* Only the schemes that place an anonymous page by its index check it. */
static bool anon_index_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 64);

	if (!w->sim->anon_ops->page_ok)
		return false;
	page->index += 1000;
	*saved = page;
	return true;
}

static void anon_index_repair(struct world *w, void *saved)
{
	((struct rsim_page *)saved)->index -= 1000;
}

static bool file_misplaced_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 1);

	assert_int_equal(page->index, 1);
	page->index = 9;
	*saved = page;
	return true;
}

static void file_misplaced_repair(struct world *w, void *saved)
{
	((struct rsim_page *)saved)->index = 1;
}

static bool mapcount_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 1);

	page->mapcount++;
	*saved = page;
	return true;
}

static void mapcount_repair(struct world *w, void *saved)
{
	((struct rsim_page *)saved)->mapcount--;
}

/* an anonymous page that nothing maps and nothing will free */
static bool anon_unmapped_apply(struct world *w, void **saved)
{
	struct rsim_page *page = rsim_page_alloc(w->sim);

	assert_non_null(page);
	page->flags = RSIM_PG_ANON;
	*saved = page;
	return true;
}

static void anon_unmapped_repair(struct world *w, void *saved)
{
	struct rsim_page *page = saved;

	page->flags = 0;
	rsim_page_free(w->sim, page);
}

/*
 * anonmm: pid 1's page 65 named by pid 2's anonmm.  Same bundle and
 * index, so the page passes the per-pte check; but pid 2 maps its own
 * copy there.
 */
static bool anonmm_mapping_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 65);

	if (!w->sim->anon_ops->mapping_ok)
		return false;
	assert_ptr_not_equal(page, page_at(w, w->mm2, 65));
	*saved = page->mapping;
	page->mapping = w->mm2->anonmm;
	return true;
}

static void anonmm_mapping_repair(struct world *w, void *saved)
{
	page_at(w, w->mm1, 65)->mapping = saved;
}

/* ---- the page cache ----------------------------------------------- */

static struct rsim_page *cached_unmapped(const struct world *w)
{
	struct rsim_page *page = rsim_cache_find(w->sim, w->file2, 4);

	assert_non_null(page);
	assert_int_equal(page->mapcount, 0);
	return page;
}

static bool cache_entry_apply(struct world *w, void **saved)
{
	struct rsim_page *page = cached_unmapped(w);

	page->flags |= RSIM_PG_ANON;
	*saved = page;
	return true;
}

static bool cache_count_apply(struct world *w, void **saved)
{
	w->sim->nr_cached++;
	return true;
}

static void cache_count_repair(struct world *w, void *saved)
{
	w->sim->nr_cached--;
}

/* Only the prio scheme keeps i_mmap trees to check. */
static bool i_mmap_tree_apply(struct world *w, void **saved)
{
	if (!w->sim->file_ops->check)
		return false;
	*saved = (void *)(uintptr_t)w->file1->i_mmap_shared.index_bits;
	w->file1->i_mmap_shared.index_bits = 0;
	return true;
}

static void i_mmap_tree_repair(struct world *w, void *saved)
{
	w->file1->i_mmap_shared.index_bits = (unsigned short)(uintptr_t)saved;
}

/* ---- the rmap walks ----------------------------------------------- */

/*
 * A mapping the page's reverse map does not know, while the page tables
 * and the mapcount do: pid @mm maps @page at @vpn, where nothing was.
 * The pte_chain schemes find ptes only through the page's chain, so the
 * walk misses it.
 */
static struct rsim_pte *extra_pte(struct world *w, struct rsim_mm *mm,
				  unsigned long vpn, struct rsim_page *page)
{
	struct rsim_pte *pte = pte_absent(w, mm, vpn);

	pte->page = page;
	page->mapcount++;
	return pte;
}

static void extra_pte_repair(struct world *w, void *saved)
{
	struct rsim_pte *pte = saved;

	pte->page->mapcount--;
	pte->page = NULL;
}

/*
 * objrmap (list, prio): pid 1's A leaves i_mmap, so no walk finds pid 1's
 * mapping of file page 1 through it.  pte_chain: pid 1 maps file page 1
 * at 33 too, where C places it; objrmap would find that pte through C.
 */
static bool file_walk_apply(struct world *w, void **saved)
{
	struct rsim_vma *v = rsim_find_vma(w->mm1, 0);

	assert_non_null(v);
	if (combo_file(w->combo) == RSIM_FILE_PTE_CHAIN) {
		*saved = extra_pte(w, w->mm1, 33, page_at(w, w->mm1, 1));
		return true;
	}
	rsim_file_unlink_vma(w->sim, v);
	*saved = v;
	return true;
}

static void file_walk_repair(struct world *w, void *saved)
{
	if (combo_file(w->combo) == RSIM_FILE_PTE_CHAIN)
		extra_pte_repair(w, saved);
	else
		rsim_file_link_vma(w->sim, saved);
}

/*
 * Page 64, one page of pid 1 and pid 2: pid 2's D, or its mm, leaves the
 * structure the scheme walks (anon_vma: the anon_vma's list of vmas;
 * anon_vma_chain: every anon_vma the vma chains to; anonmm: the bundle).
 * pte_chain: pid 2 maps the page at 66 too, unknown to its chain.
 */
static bool anon_walk_apply(struct world *w, void **saved)
{
	struct rsim_vma *v = rsim_find_vma(w->mm2, 64);
	struct rsim_avc *avc;

	assert_non_null(v);
	assert_int_equal(page_at(w, w->mm1, 64)->mapcount, 2);
	switch (combo_anon(w->combo)) {
	case RSIM_ANON_PTE_CHAIN:
		*saved = extra_pte(w, w->mm2, 66, page_at(w, w->mm1, 64));
		break;
	case RSIM_ANON_VMA:
		list_del(&v->anon_vma_node);
		*saved = v;
		break;
	case RSIM_ANON_VMA_CHAIN:
		assert_false(list_empty(&v->avc_list));
		list_for_each_entry(avc, &v->avc_list, same_vma)
			list_del(&avc->same_anon_vma);
		*saved = v;
		break;
	case RSIM_ANON_MM:
		list_del(&w->mm2->anonmm->list);
		break;
	default:
		fail_msg("anon scheme %d has no corruption here",
			 combo_anon(w->combo));
	}
	return true;
}

static void anon_walk_repair(struct world *w, void *saved)
{
	struct rsim_vma *v = saved;
	struct rsim_anonmm *amm;
	struct rsim_avc *avc;

	switch (combo_anon(w->combo)) {
	case RSIM_ANON_PTE_CHAIN:
		extra_pte_repair(w, saved);
		break;
	case RSIM_ANON_VMA:
		list_add_tail(&v->anon_vma_node, &v->anon_vma->head);
		break;
	case RSIM_ANON_VMA_CHAIN:
		list_for_each_entry(avc, &v->avc_list, same_vma)
			list_add_tail(&avc->same_anon_vma,
				      &avc->anon_vma->head);
		break;
	default:
		amm = w->mm2->anonmm;
		list_add_tail(&amm->list, &amm->bundle->anonmms);
		break;
	}
}

/*
 * pte_chain: file page 1, mapped by pid 1 and pid 2 at 1, has a chain of
 * two entries; pid 2's made pid 1's.  The walk counts two mappings, as
 * the page tables do, but not the same two.
 */
static bool chain_twice_apply(struct world *w, void **saved)
{
	struct rsim_page *page = page_at(w, w->mm1, 1);
	struct rsim_pte *mine = pte_at(w, w->mm1, 1);
	struct rsim_pte *theirs = pte_at(w, w->mm2, 1);
	struct rsim_pte_chain *pc;
	int i;

	if (combo_file(w->combo) != RSIM_FILE_PTE_CHAIN)
		return false;
	assert_ptr_equal(theirs->page, page);
	assert_false(page->flags & RSIM_PG_DIRECT);
	for (pc = page->pte.chain; pc; pc = pc->next)
		for (i = 0; i < RSIM_NRPTE; i++)
			if (pc->ptes[i] == theirs) {
				pc->ptes[i] = mine;
				*saved = &pc->ptes[i];
				return true;
			}
	fail_msg("%s: pid 2's pte of file page 1 is not on its chain",
		 combo_label(w->combo));
	return false;
}

static void chain_twice_repair(struct world *w, void *saved)
{
	*(struct rsim_pte **)saved = pte_at(w, w->mm2, 1);
}

/* ---- the table ---------------------------------------------------- */

#define ALL	NR_COMBOS

static const struct corruption corruptions[] = {
	{
		.what = "a wrong vma count",
		.needle = "pid 1 page 0: vma count",
		.apply = vma_count_apply,
		.repair = vma_count_repair,
		.combos = ALL,
	},
	{
		.what = "a broken address index",
		.needle = "pid 1 page 0: 4 bound: index_bits out of range",
		.apply = addr_index_apply,
		.repair = addr_index_repair,
		.combos = ALL,
	},
	{
		.what = "a vma missing from the address index",
		.needle = "pid 1 page 16: vma not in address index",
		.apply = vma_unindexed_apply,
		.repair = vma_unindexed_repair,
		.combos = ALL,
	},
	{
		.what = "a pte outside every vma",
		.needle = "pid 1 page 200: pte outside any vma",
		.apply = pte_outside_apply,
		.repair = pte_clear_repair,
		.combos = ALL,
	},
	{
		.what = "a writable pte of a shared anonymous page",
		.needle = "pid 2 page 64: writable pte of a COW page",
		.apply = cow_writable_apply,
		.repair = pte_write_repair,
		.combos = ALL,
	},
	{
		.what = "a writable pte in a read-only vma",
		.needle = "pid 1 page 16: writable pte, no VM_WRITE",
		.apply = readonly_writable_apply,
		.repair = pte_write_repair,
		.combos = ALL,
	},
	{
		.what = "an anonymous page in a shared vma",
		.needle = "pid 1 page 16: anon page in a shared vma",
		.apply = anon_shared_apply,
		.repair = anon_flag_repair,
		.combos = ALL,
	},
	{
		.what = "an anonymous page at the wrong index",
		.needle = "pid 1 page 64: anon index",
		.apply = anon_index_apply,
		.repair = anon_index_repair,
		.combos = RSIM_NR_FILE_SCHEMES * (RSIM_NR_ANON_SCHEMES - 1),
	},
	{
		.what = "a file page at the wrong index",
		.needle = "pid 1 page 1: file page at wrong place",
		.apply = file_misplaced_apply,
		.repair = file_misplaced_repair,
		.combos = ALL,
	},
	{
		.what = "a broken i_mmap tree",
		.needle = "file 1: i_mmap tree: 4 bound: index_bits out of range",
		.apply = i_mmap_tree_apply,
		.repair = i_mmap_tree_repair,
		.combos = RSIM_NR_ANON_SCHEMES,
	},
	{
		.what = "a cached page that is not a file page",
		.needle = "page 4: page cache entry",
		.apply = cache_entry_apply,
		.repair = anon_flag_repair,
		.combos = ALL,
	},
	{
		.what = "a wrong count of cached pages",
		.needle = "page cache: 7 pages hashed, files list 6",
		.apply = cache_count_apply,
		.repair = cache_count_repair,
		.combos = ALL,
	},
	{
		.what = "a wrong mapcount",
		.needle = "mapcount 3, page tables 2",
		.apply = mapcount_apply,
		.repair = mapcount_repair,
		.combos = ALL,
	},
	{
		.what = "an unmapped anonymous page",
		.needle = "unmapped anonymous page kept",
		.apply = anon_unmapped_apply,
		.repair = anon_unmapped_repair,
		.combos = ALL,
	},
	{
		.what = "an anonmm that does not map its page",
		.needle = "anonmm's mm does not map it",
		.apply = anonmm_mapping_apply,
		.repair = anonmm_mapping_repair,
		.combos = RSIM_NR_FILE_SCHEMES,
	},
	{
		.what = "a file mapping the rmap does not know",
		.needle = "(file index 1): rmap walk found",
		.apply = file_walk_apply,
		.repair = file_walk_repair,
		.combos = ALL,
	},
	{
		.what = "a pte chain that names one pte twice",
		.needle = "(file index 1): rmap walk found 2 mappings, page tables have 2 (different ones)",
		.apply = chain_twice_apply,
		.repair = chain_twice_repair,
		.combos = RSIM_NR_ANON_SCHEMES,
	},
	{
		.what = "an anonymous mapping the rmap does not know",
		.needle = "(anon index ",
		.needle2 = "): rmap walk found",
		.apply = anon_walk_apply,
		.repair = anon_walk_repair,
		.combos = ALL,
	},
};

static void test_corruption(void **state)
{
	run_corruption(*state);
}

int main(void)
{
	struct CMUnitTest verify_checks[ARRAY_SIZE(corruptions)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(corruptions); i++)
		verify_checks[i] = (struct CMUnitTest){
			.name = corruptions[i].what,
			.test_func = test_corruption,
			.initial_state = (void *)&corruptions[i],
		};
	return cmocka_run_group_tests(verify_checks, NULL, NULL);
}
