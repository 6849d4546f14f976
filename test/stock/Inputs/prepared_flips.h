/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Helpers of the prepared-flip tests: the library's debug line of each flip
 * ("N program(s) replaced (M prepared)") kept for the test to print, the
 * highest program id the kernel has given so far (a version loaded before a
 * flip has an id at most that), and the three programs' results.
 */
#ifndef PREPARED_FLIPS_H
#define PREPARED_FLIPS_H

#include "stock_test.h"

static char last_flip[256];

static int keep_flip_line(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	char line[512];
	const char *at;

	(void)ctx;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (level == LIBBPFKEYS_WARN)
		fputs(line, stdout);
	at = strstr(line, ": flip: ");
	if (level == LIBBPFKEYS_DEBUG && at) {
		const char *end = strstr(at, "),");

		snprintf(last_flip, sizeof(last_flip), "%.*s", end ? (int)(end - at - 8 + 1) : 0,
			 at + 8);
	}
	return 0;
}

static inline uint32_t highest_prog_id(void)
{
	uint32_t id = 0, next;

	while (!bpf_prog_get_next_id(id, &next))
		id = next;
	return id;
}

static inline void print_results(struct bpfkeys_object *obj, const char *when)
{
	printf("%s: both %u, only_a %u, only_b %u\n", when, run_once(obj, "both"),
	       run_once(obj, "only_a"), run_once(obj, "only_b"));
}

#endif /* PREPARED_FLIPS_H */
