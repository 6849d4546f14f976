/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Helpers of the tests of settings before load (Inputs/settings_filter.c):
 * an object opened with a print callback that writes every message to
 * stdout as "print: ...", where FileCheck sees it in order, and the value
 * filter returns.
 */
#ifndef SETTINGS_TEST_H
#define SETTINGS_TEST_H

#include "stock_test.h"

static int settings_print(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	(void)ctx;
	if (level != LIBBPFKEYS_WARN)
		return 0;
	fputs("print: ", stdout);
	return vprintf(fmt, ap);
}

static inline struct bpfkeys_object *settings_open(const char *path)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = settings_print);

	return stock_open(path, &opts);
}

static inline void settings_load(struct bpfkeys_object *obj)
{
	int err = bpfkeys_load(obj);

	if (err)
		fail("load: %s (%s)", strerror(-err), bpfkeys_errmsg(obj));
}

/* what filter returns now, and the state of debug_key */
static inline void show_filter(struct bpfkeys_object *obj, const char *when)
{
	printf("%s: debug_key %s, filter = %u\n", when,
	       bpfkeys_key_state(obj, "debug_key") ? "on" : "off", run_once(obj, "filter"));
}

#endif /* SETTINGS_TEST_H */
