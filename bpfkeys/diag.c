// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Diagnostics in elfobj's `bpfkeys: in.o: error: ...` form, and allocation that
 * bails out on failure (an allocation failure is not a recoverable input error:
 * the caller's bk_bail_target gets it). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

static void report(const struct bk_object *obj, const char *kind, const char *fmt, va_list ap)
{
	elfobj_vreport(obj ? obj->path : NULL, NULL, kind, fmt, ap);
}

void bk_error(const struct bk_object *obj, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(obj, "error", fmt, ap);
	va_end(ap);
}

void *bk_xgrow(void *ptr, size_t count, size_t *cap, size_t size)
{
	if (count < *cap)
		return ptr;
	*cap = *cap ? 2 * *cap : 64;
	return bk_xrealloc(ptr, *cap, size);
}

void bk_warn(const struct bk_object *obj, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(obj, "warning", fmt, ap);
	va_end(ap);
}

_Thread_local jmp_buf *bk_bail_target;
void (*bk_bail_exit)(int err) __attribute__((noreturn));

void bk_bail(int err)
{
	if (bk_bail_target)
		longjmp(*bk_bail_target, err < 0 ? -err : err);
	if (bk_bail_exit)
		bk_bail_exit(err);
	abort(); /* an entry into the core that said neither */
}

void bk_out_of_memory(void)
{
	bk_bail(-ENOMEM);
}

_Thread_local struct bk_transient *bk_transient;

#define TOMBSTONE ((void *)1)

static size_t slot_of(const struct bk_transient *t, const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (t->capacity - 1);
}

static void insert(struct bk_transient *t, void *p)
{
	size_t i = slot_of(t, p);

	while (t->slots[i] && t->slots[i] != TOMBSTONE)
		i = (i + 1) & (t->capacity - 1);
	t->used += !t->slots[i];
	t->slots[i] = p;
	t->count++;
}

/* p, just allocated, is the call's to free if it bails out */
static void record(void *p)
{
	struct bk_transient *t = bk_transient;

	if (!t)
		return;
	if ((t->used + 1) * 2 > t->capacity) {
		struct bk_transient grown = { NULL, 64, 0, 0, t->writer };
		void **old = t->slots;

		while (grown.capacity < (t->count + 1) * 4)
			grown.capacity *= 2;
		grown.slots = (calloc)(grown.capacity, sizeof(void *));
		if (!grown.slots) {
			(free)(p);
			bk_out_of_memory();
		}
		for (size_t i = 0; i < t->capacity; i++)
			if (old[i] && old[i] != TOMBSTONE)
				insert(&grown, old[i]);
		(free)(old);
		*t = grown;
	}
	insert(t, p);
}

/* p is no longer the call's (freed or moved); false if it never was */
static bool forget(void *p)
{
	struct bk_transient *t = bk_transient;

	if (!t || !p || !t->capacity)
		return false;
	for (size_t i = slot_of(t, p); t->slots[i]; i = (i + 1) & (t->capacity - 1))
		if (t->slots[i] == p) {
			t->slots[i] = TOMBSTONE;
			t->count--;
			return true;
		}
	return false;
}

void bk_free(void *p)
{
	forget(p);
	(free)(p);
}

void bk_transient_end(struct bk_transient *t, bool free_all)
{
	if (free_all && t->writer)
		elfobj_writer_abort(t->writer);
	for (size_t i = 0; free_all && i < t->capacity; i++)
		if (t->slots[i] && t->slots[i] != TOMBSTONE)
			(free)(t->slots[i]);
	(free)(t->slots);
	memset(t, 0, sizeof(*t));
}

void *bk_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		bk_out_of_memory();
	record(p);
	return p;
}

void *bk_populated(void *p, size_t n, size_t size)
{
	if (!size || n <= SIZE_MAX / size)
		elfobj_populate(p, n * size);
	return p;
}

void *bk_xmalloc(size_t n, size_t size)
{
	return bk_xrealloc(NULL, n, size);
}

void *bk_xrealloc(void *ptr, size_t n, size_t size)
{
	bool recorded;
	void *p;

	if (size && n > SIZE_MAX / size)
		bk_out_of_memory();
	/* a block from before the recording stays its owner's */
	recorded = !ptr || forget(ptr);
	p = realloc(ptr, n * size != 0 ? n * size : 1);
	if (!p) {
		if (ptr && recorded)
			record(ptr); /* still allocated */
		bk_out_of_memory();
	}
	if (recorded)
		record(p);
	return p;
}

char *bk_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		bk_out_of_memory();
	record(p);
	return p;
}
