/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/list.h>, the circular doubly
 * linked list with an embedded struct list_head.  Same names and
 * semantics as the kernel's; list_del() poisons the entry so that a use
 * after deletion faults instead of corrupting a neighbour.
 */
#ifndef _COMPAT_LINUX_LIST_H
#define _COMPAT_LINUX_LIST_H

#include <stdbool.h>

#include <linux/container_of.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_POISON1	((struct list_head *)0x100)
#define LIST_POISON2	((struct list_head *)0x122)

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

/* Link @entry between two entries known to be adjacent. */
static inline void __list_add(struct list_head *entry,
			      struct list_head *prev, struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

/* Insert @entry right after @head (stack order). */
static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_add(entry, head, head->next);
}

/* Insert @entry right before @head, at the tail of the list (queue order). */
static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	__list_add(entry, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

static inline void list_replace(struct list_head *old, struct list_head *new)
{
	new->next = old->next;
	new->next->prev = new;
	new->prev = old->prev;
	new->prev->next = new;
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline int list_is_last(const struct list_head *entry,
			       const struct list_head *head)
{
	return entry->next == head;
}

/* Move every entry of @list to the front of @head; @list is left stale. */
static inline void list_splice(const struct list_head *list,
			       struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev;

	if (list_empty(list))
		return;
	first->prev = head;
	last->next = head->next;
	head->next->prev = last;
	head->next = first;
}

static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev;

	if (list_empty(list))
		return;
	first->prev = head->prev;
	head->prev->next = first;
	last->next = head;
	head->prev = last;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) \
	list_entry((head)->prev, type, member)
#define list_first_entry_or_null(head, type, member) \
	(list_empty(head) ? NULL : list_first_entry(head, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member)	(&(pos)->member == (head))

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_safe(pos, n, head) \
	for (pos = (head)->next, n = pos->next; pos != (head); \
	     pos = n, n = pos->next)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member);	\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, head, member)			\
	for (pos = list_last_entry(head, __typeof__(*pos), member);	\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_prev_entry(pos, member))

#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_next_entry(n, member))

#endif /* _COMPAT_LINUX_LIST_H */
