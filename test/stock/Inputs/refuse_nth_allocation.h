/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * For tests that refuse one allocation at a time (link with
 * -Wl,--wrap=calloc,--wrap=malloc,--wrap=realloc): calloc, malloc and
 * realloc of the code linked with the wraps fail on the refuse_at-th call
 * counted since counted was last set to 0; refuse_at 0 refuses none. quiet()
 * is a print callback that drops the messages of the many failing calls.
 * Include it once per test program: it defines the wraps.
 */
#ifndef REFUSE_NTH_ALLOCATION_H
#define REFUSE_NTH_ALLOCATION_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <bpfkeys/libbpfkeys.h>

void *__real_calloc(size_t n, size_t size);
void *__real_malloc(size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_realloc(void *p, size_t size);

/* the allocation to refuse, counted from 1 since counting began; 0: none */
static size_t refuse_at, counted;

static bool refuse(void)
{
	return refuse_at && ++counted == refuse_at;
}

void *__wrap_calloc(size_t n, size_t size)
{
	return refuse() ? NULL : __real_calloc(n, size);
}

void *__wrap_malloc(size_t size)
{
	return refuse() ? NULL : __real_malloc(size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return refuse() ? NULL : __real_realloc(p, size);
}

static int quiet(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	(void)level;
	(void)fmt;
	(void)ap;
	(void)ctx;
	return 0;
}

#endif /* REFUSE_NTH_ALLOCATION_H */
