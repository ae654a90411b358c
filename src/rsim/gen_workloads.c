// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' workloads as op sequences: rmap-test, test-mmap2/3,
 * avc-fork-chain and fork-exec-mix.  Each is built so that every op is
 * valid by construction; docs/scenario-format.md describes what each
 * one does and which parameters it reads.
 */

#include <linux/kernel.h>
#include <linux/slab.h>

#include "gen_internal.h"

#define RSIM_PROT_RW		(RSIM_PROT_READ | RSIM_PROT_WRITE)

/*
 * Reclaim pressure: every @stride-th page of [0, @npages), starting at
 * @phase % @stride, so successive passes with phase 0, 1, 2... cover
 * every page once per @stride passes.
 */
static int rsim_gen_file_pressure(struct rsim_gen *gen, unsigned long file,
				  unsigned long npages, unsigned long stride,
				  unsigned long phase)
{
	unsigned long pgoff;

	for (pgoff = phase % stride; pgoff < npages; pgoff += stride)
		rsim_gen_reclaim_file(gen, file, pgoff);
	return gen->err;
}

/* ---- rmap-test ------------------------------------------------------ */

/*
 * Mapping m (0 <= m < n) maps file pages [m, m + s) at
 * MAP_BASE + m * (s + 1): one unmapped page between neighbours, and file
 * offsets that advance by one page while addresses advance by s + 1, so
 * no two mappings ever merge and every file page in the middle is mapped
 * by min(n, s) mappings of each task - the overlap that makes objrmap's
 * i_mmap_shared list walk every vma for every page.
 */
static unsigned long rmap_test_addr(const struct rsim_gen_params *p,
				    unsigned long m, unsigned long page)
{
	return RSIM_GEN_MAP_BASE + m * (p->size + 1) + page;
}

int rsim_gen_rmap_test(struct rsim_gen *gen)
{
	const struct rsim_gen_params *p = gen->params;
	unsigned long file_pages = p->mappings + p->size - 1;
	unsigned long m, page, task, it, n, touches;

	rsim_gen_file(gen, 1, file_pages);
	rsim_gen_exec(gen, 1);
	for (m = 0; m < p->mappings; m++)
		rsim_gen_mmap_file(gen, true, 1, rmap_test_addr(p, m, 0),
				   p->size, RSIM_PROT_RW, 1, m);
	for (m = 0; m < p->mappings; m++)
		for (page = 0; page < p->size; page++)
			rsim_gen_touch(gen, 1, rmap_test_addr(p, m, page),
				       true);
	/* -t counts the tasks touching the file, the first one included */
	for (task = 2; task <= p->tasks; task++)
		rsim_gen_fork(gen, 1, task);
	if (gen->err)
		return gen->err;

	touches = p->mappings * p->size;
	for (it = 0; it < p->iterations; it++) {
		for (task = 1; task <= p->tasks; task++) {
			switch (p->access) {
			case RSIM_GEN_ACCESS_LINEAR:
				for (m = 0; m < p->mappings; m++)
					for (page = 0; page < p->size; page++)
						rsim_gen_touch(gen, task,
							rmap_test_addr(p, m,
								       page),
							true);
				break;
			case RSIM_GEN_ACCESS_HALF:
				/* the lower half of every mapping */
				for (m = 0; m < p->mappings; m++)
					for (page = 0; page < (p->size + 1) / 2;
					     page++)
						rsim_gen_touch(gen, task,
							rmap_test_addr(p, m,
								       page),
							true);
				break;
			case RSIM_GEN_ACCESS_RANDOM:
				for (n = 0; n < touches; n++) {
					m = rsim_gen_rng_below(&gen->rng,
							       p->mappings);
					page = rsim_gen_rng_below(&gen->rng,
								  p->size);
					rsim_gen_touch(gen, task,
						       rmap_test_addr(p, m,
								      page),
						       true);
				}
				break;
			}
			if (gen->err)
				return gen->err;
		}
		rsim_gen_file_pressure(gen, 1, file_pages, p->reclaim, it);
	}
	return gen->err;
}

/* ---- test-mmap2 / test-mmap3 --------------------------------------- */

/*
 * Page i of the mapped range maps file page (npages - 1 - i): reverse
 * file order, so neighbouring one-page vmas never merge and i_mmap holds
 * npages distinct ranges.  The forks then put (forks + 1) vmas on each
 * range: the prio tree keeps them on one vm_set list per node, the list
 * scheme walks all (forks + 1) * npages of them for every page.
 */
int rsim_gen_test_mmap(struct rsim_gen *gen)
{
	const struct rsim_gen_params *p = gen->params;
	unsigned long i, child;

	rsim_gen_file(gen, 1, p->size);
	rsim_gen_exec(gen, 1);
	for (i = 0; i < p->size; i++)
		rsim_gen_mmap_file(gen, true, 1, RSIM_GEN_MAP_BASE + i, 1,
				   RSIM_PROT_RW, 1, p->size - 1 - i);
	for (i = 0; i < p->size; i++)
		rsim_gen_touch(gen, 1, RSIM_GEN_MAP_BASE + i, true);
	for (child = 2; child <= p->tasks + 1; child++)
		rsim_gen_fork(gen, 1, child);
	rsim_gen_file_pressure(gen, 1, p->size, p->reclaim, 0);
	for (child = 2; child <= p->tasks + 1; child++)
		rsim_gen_exit(gen, child);
	return gen->err;
}

/* ---- avc-fork-chain -------------------------------------------------- */

static void rsim_gen_touch_all(struct rsim_gen *gen, unsigned long pid,
			       unsigned long addr, unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		rsim_gen_touch(gen, pid, addr + i, true);
}

/*
 * Servers have pids 1..t, and server k hands over to server k + 1; the
 * workers of server k have pids t + (k - 1) * w + 1 .. t + k * w.
 *
 *   1 --fork--> 2 --fork--> 3 ... --fork--> t      (each exits after
 *   |           |           |               |       forking the next)
 *   w workers   w workers   w workers       w workers
 *
 * Every child writes all its anonymous pages, so every page ends up
 * mapped by exactly one process.  Under anon_vma all of them still hang
 * off the one anon_vma that server 1 made, and each rmap walk visits
 * every live vma; under anon_vma_chain a worker's copies belong to the
 * worker's own anon_vma.  The pressure pass then walks every page.
 */
int rsim_gen_avc_fork_chain(struct rsim_gen *gen)
{
	const struct rsim_gen_params *p = gen->params;
	unsigned long server, w, worker, i;

	rsim_gen_exec(gen, 1);
	rsim_gen_mmap_anon(gen, 1, RSIM_GEN_MAP_BASE, p->size, RSIM_PROT_RW);
	rsim_gen_touch_all(gen, 1, RSIM_GEN_MAP_BASE, p->size);

	for (server = 1; server <= p->tasks; server++) {
		for (w = 1; w <= p->workers; w++) {
			worker = p->tasks + (server - 1) * p->workers + w;
			rsim_gen_fork(gen, server, worker);
			rsim_gen_touch_all(gen, worker, RSIM_GEN_MAP_BASE,
					   p->size);
		}
		if (server == p->tasks)
			break;
		rsim_gen_fork(gen, server, server + 1);
		rsim_gen_touch_all(gen, server + 1, RSIM_GEN_MAP_BASE,
				   p->size);
		rsim_gen_exit(gen, server);
		if (gen->err)
			return gen->err;
	}

	for (worker = p->tasks + 1; worker <= p->tasks * (p->workers + 1);
	     worker++)
		for (i = 0; i < p->size; i += p->reclaim)
			rsim_gen_reclaim_addr(gen, worker,
					      RSIM_GEN_MAP_BASE + i);
	for (i = 0; i < p->size; i += p->reclaim)
		rsim_gen_reclaim_addr(gen, p->tasks, RSIM_GEN_MAP_BASE + i);
	return gen->err;
}

/* ---- fork-exec-mix --------------------------------------------------- */

/*
 * The files of a small system: a shell, a C library whose first
 * LIBC_TEXT pages are text and the rest data, four programs the jobs
 * exec (think cc1, as, ld, cat) and a data file that some jobs map
 * shared, like an mmap()ed input.
 */
enum {
	FEM_SHELL = 1,
	FEM_LIBC,
	FEM_PROG_FIRST,
	FEM_PROG_LAST = FEM_PROG_FIRST + 3,
	FEM_DATA,
};

#define FEM_SHELL_PAGES		8
#define FEM_PROG_PAGES		24
#define FEM_LIBC_TEXT		24
#define FEM_LIBC_PAGES		32
#define FEM_DATA_PAGES		64
#define FEM_STACK_PAGES		8

/* The layout of every image, in pages. */
#define FEM_TEXT_ADDR		0x400UL
#define FEM_LIBC_ADDR		0x10000UL
#define FEM_DATA_ADDR		0x30000UL
#define FEM_HEAP_ADDR		0x20000UL
#define FEM_MOVED_ADDR		0x40000UL
#define FEM_STACK_ADDR		(RSIM_TASK_PAGES - 0x1000UL)
#define FEM_HEAP_MAX_PAGES	0x8000UL

/* A live process: its pid, where its heap is and how big. */
struct fem_task {
	unsigned long	pid;
	unsigned long	heap;
	unsigned long	heap_pages;
};

struct fem_state {
	struct rsim_gen		*gen;
	struct fem_task		task[64 + 1];
	unsigned long		nr;
	unsigned long		next_pid;
};

/*
 * exec @pid as @prog: text and library mapped private and read-only, the
 * library's data private and writable, heap and stack anonymous; touched
 * as a starting program touches them (text read, data and stack written,
 * which breaks copy-on-write of the data's file pages).
 */
static void fem_exec(struct fem_state *st, struct fem_task *t,
		     unsigned long prog)
{
	struct rsim_gen *gen = st->gen;
	const struct rsim_gen_params *p = gen->params;
	unsigned long text_pages = prog == FEM_SHELL ? FEM_SHELL_PAGES :
				   FEM_PROG_PAGES;
	unsigned long i;

	rsim_gen_exec(gen, t->pid);
	rsim_gen_mmap_file(gen, false, t->pid, FEM_TEXT_ADDR, text_pages,
			   RSIM_PROT_READ, prog, 0);
	rsim_gen_mmap_file(gen, false, t->pid, FEM_LIBC_ADDR, FEM_LIBC_TEXT,
			   RSIM_PROT_READ, FEM_LIBC, 0);
	rsim_gen_mmap_file(gen, false, t->pid, FEM_LIBC_ADDR + FEM_LIBC_TEXT,
			   FEM_LIBC_PAGES - FEM_LIBC_TEXT, RSIM_PROT_RW,
			   FEM_LIBC, FEM_LIBC_TEXT);
	rsim_gen_mmap_anon(gen, t->pid, FEM_HEAP_ADDR, p->size, RSIM_PROT_RW);
	rsim_gen_mmap_anon(gen, t->pid, FEM_STACK_ADDR, FEM_STACK_PAGES,
			   RSIM_PROT_RW);
	t->heap = FEM_HEAP_ADDR;
	t->heap_pages = p->size;

	for (i = 0; i < text_pages; i += 2)
		rsim_gen_touch(gen, t->pid, FEM_TEXT_ADDR + i, false);
	for (i = 0; i < FEM_LIBC_TEXT; i += 3)
		rsim_gen_touch(gen, t->pid, FEM_LIBC_ADDR + i, false);
	rsim_gen_touch(gen, t->pid, FEM_LIBC_ADDR + FEM_LIBC_TEXT, true);
	rsim_gen_touch(gen, t->pid, FEM_LIBC_ADDR + FEM_LIBC_TEXT + 1, true);
	for (i = 1; i <= 2; i++)
		rsim_gen_touch(gen, t->pid,
			       FEM_STACK_ADDR + FEM_STACK_PAGES - i, true);
	for (i = 0; i < p->size; i++)
		if (rsim_gen_rng_below(&gen->rng, 4))
			rsim_gen_touch(gen, t->pid, FEM_HEAP_ADDR + i, true);
}

/*
 * A program at work: reads some of the data file through a shared
 * mapping, grows its heap in place (realloc) or moves it (a big realloc
 * that mremap moves), and writes the new pages.
 */
static void fem_work(struct fem_state *st, struct fem_task *t)
{
	struct rsim_gen *gen = st->gen;
	unsigned long i, grow, from;

	if (!rsim_gen_rng_below(&gen->rng, 3)) {
		from = rsim_gen_rng_below(&gen->rng, FEM_DATA_PAGES - 8);
		rsim_gen_mmap_file(gen, true, t->pid, FEM_DATA_ADDR, 8,
				   RSIM_PROT_READ, FEM_DATA, from);
		for (i = 0; i < 8; i++)
			rsim_gen_touch(gen, t->pid, FEM_DATA_ADDR + i, false);
	}
	switch (rsim_gen_rng_below(&gen->rng, 4)) {
	case 0:
		grow = t->heap_pages / 2 + 1;
		/* the heap never grows into the next region of the layout */
		if (t->heap_pages + grow > FEM_HEAP_MAX_PAGES)
			break;
		rsim_gen_op(gen, RSIM_OP_MREMAP_RESIZE, t->pid, t->heap,
			    t->heap_pages, t->heap_pages + grow, 0, 0);
		for (i = t->heap_pages; i < t->heap_pages + grow; i++)
			rsim_gen_touch(gen, t->pid, t->heap + i, true);
		t->heap_pages += grow;
		break;
	case 1:
		if (t->heap == FEM_MOVED_ADDR)
			break;
		rsim_gen_op(gen, RSIM_OP_MREMAP_MOVE, t->pid, t->heap,
			    t->heap_pages, t->heap_pages, FEM_MOVED_ADDR, 0);
		t->heap = FEM_MOVED_ADDR;
		rsim_gen_touch(gen, t->pid, t->heap, true);
		break;
	default:
		break;
	}
}

static void fem_exit(struct fem_state *st, unsigned long slot)
{
	rsim_gen_exit(st->gen, st->task[slot].pid);
	st->task[slot] = st->task[--st->nr];
}

/*
 * Reclaim pressure between jobs: a page of a random file, or whatever a
 * random live process maps at a random page of its heap.
 */
static void fem_pressure(struct fem_state *st)
{
	struct rsim_gen *gen = st->gen;
	struct rsim_gen_rng *rng = &gen->rng;
	unsigned long n, file;
	struct fem_task *t;

	for (n = 0; n < gen->params->reclaim; n++) {
		if (rsim_gen_rng_below(rng, 2)) {
			file = FEM_SHELL + rsim_gen_rng_below(rng, FEM_DATA);
			rsim_gen_reclaim_file(gen, file,
					      rsim_gen_rng_below(rng, 8));
		} else {
			t = &st->task[rsim_gen_rng_below(rng, st->nr)];
			rsim_gen_reclaim_addr(gen, t->pid, t->heap +
				rsim_gen_rng_below(rng, t->heap_pages));
		}
	}
}

/*
 * Slot 0 is the shell (make, the SDET driver) and never exits.  Each
 * job forks a random live process; the child writes its stack (the
 * fork-to-exec window), then usually execs a program and works, and
 * sometimes first runs a pipeline child of its own.  When more than
 * -t processes are alive, a random one other than the shell exits.
 */
int rsim_gen_fork_exec_mix(struct rsim_gen *gen)
{
	const struct rsim_gen_params *p = gen->params;
	struct rsim_gen_rng *rng = &gen->rng;
	struct fem_state *st;
	struct fem_task *parent, *child;
	unsigned long job, file, slot;
	int err;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->gen = gen;

	rsim_gen_file(gen, FEM_SHELL, FEM_SHELL_PAGES);
	rsim_gen_file(gen, FEM_LIBC, FEM_LIBC_PAGES);
	for (file = FEM_PROG_FIRST; file <= FEM_PROG_LAST; file++)
		rsim_gen_file(gen, file, FEM_PROG_PAGES);
	rsim_gen_file(gen, FEM_DATA, FEM_DATA_PAGES);

	st->task[0].pid = 1;
	st->nr = 1;
	st->next_pid = 2;
	fem_exec(st, &st->task[0], FEM_SHELL);

	for (job = 0; job < p->iterations && !gen->err; job++) {
		parent = &st->task[rsim_gen_rng_below(rng, st->nr)];
		child = &st->task[st->nr++];
		*child = *parent;
		child->pid = st->next_pid++;
		rsim_gen_fork(gen, parent->pid, child->pid);
		rsim_gen_touch(gen, child->pid,
			       FEM_STACK_ADDR + FEM_STACK_PAGES - 1, true);

		if (!rsim_gen_rng_below(rng, 4)) {
			/* a subshell: works on its copy without exec */
			fem_work(st, child);
		} else {
			if (!rsim_gen_rng_below(rng, 3)) {
				/* a pipeline stage: fork, exec, exit */
				struct fem_task stage = *child;

				stage.pid = st->next_pid++;
				rsim_gen_fork(gen, child->pid, stage.pid);
				fem_exec(st, &stage, FEM_PROG_FIRST +
					 rsim_gen_rng_below(rng, 4));
				fem_work(st, &stage);
				rsim_gen_exit(gen, stage.pid);
			}
			fem_exec(st, child, FEM_PROG_FIRST +
				 rsim_gen_rng_below(rng, 4));
			fem_work(st, child);
		}

		fem_pressure(st);
		while (st->nr > p->tasks) {
			slot = 1 + rsim_gen_rng_below(rng, st->nr - 1);
			fem_exit(st, slot);
		}
	}
	while (st->nr > 1)
		fem_exit(st, st->nr - 1);

	err = gen->err;
	kfree(st);
	return err;
}
