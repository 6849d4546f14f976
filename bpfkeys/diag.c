// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Diagnostics in elfobj's `bpfkeys: in.o: error: ...` form, and allocation that
 * exits on failure (an allocation failure is not a recoverable input error). */
#include <stdarg.h>
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

void bk_out_of_memory(void)
{
	fprintf(stderr, "%s: error: out of memory\n", elfobj_progname);
	exit(1); /* 2 is a usage error */
}

void *bk_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		bk_out_of_memory();
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
	void *p;

	if (size && n > SIZE_MAX / size)
		bk_out_of_memory();
	p = realloc(ptr, n * size != 0 ? n * size : 1);
	if (!p)
		bk_out_of_memory();
	return p;
}

char *bk_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		bk_out_of_memory();
	return p;
}
