// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target for libbpfkeys' open-and-lower path: what a program does
 * with an object for a stock kernel before the first bpf() syscall. Any bytes
 * go through bpfkeys_open_mem() (read, analyze, refusals); an object it opens
 * has its key states set before load with bpfkeys_set() and bpfkeys_flip(),
 * and is lowered and opened with libbpf (lbk_open_variant(), the first
 * half of bpfkeys_load()) for its initial states, each key flipped alone, and
 * every key flipped. Errors are fine; crashes, leaks and UB are not, and
 * neither is a variant that libbpf opens with other programs than the ones
 * libbpfkeys names. Built by test/libbpfkeys/fuzz-smoke.sh with clang-22
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	elfobj_quiet = true;
	libbpf_set_print(quiet_libbpf);
	return 0;
}

/* Lower for on[] and open with libbpf; its programs are the object's, in order. */
static void open_variant(struct bpfkeys_object *obj, const bool *on)
{
	struct bpfkeys_loaded *variant;
	struct bpf_program *prog;
	size_t p = 0;

	if (lbk_open_variant(obj, on, &variant))
		return;
	bpf_object__for_each_program(prog, variant->bpf)
	{
		const char *name = bpf_program__name(prog);

		if (p >= bpfkeys_program_count(obj) ||
		    strcmp(name, bpfkeys_program_name(obj, p)) != 0 ||
		    bpfkeys_program(obj, name) != NULL) /* not loaded: no current version */
			abort();
		p++;
	}
	if (p != bpfkeys_program_count(obj))
		abort();
	variant->refs = 1;
	lbk_loaded_put(variant);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfkeys_object *obj = bpfkeys_open_mem(data, size, "fuzz.o", NULL);
	size_t key_count, all;
	struct bpfkeys_setting *settings;
	bool *on;

	if (!obj)
		return 0;
	key_count = bpfkeys_key_count(obj);
	all = obj->bk.key_count; /* on[] has a slot per map of .maps, keys or not */
	on = calloc(all ? all : 1, sizeof(*on));
	settings = calloc(key_count ? key_count : 1, sizeof(*settings));
	if (!on || !settings)
		abort();
	open_variant(obj, obj->on);
	for (size_t k = 0; k < all; k++) {
		if (!obj->bk.keys[k].is_static_key)
			continue;
		memcpy(on, obj->on, all * sizeof(*on));
		on[k] = !on[k];
		open_variant(obj, on);
	}
	/* before load a flip only records the states: every key inverted at once */
	for (size_t i = 0; i < key_count; i++) {
		const char *name = bpfkeys_key_name(obj, i);
		int state = bpfkeys_key_state(obj, name);

		if (!name || state < 0)
			abort();
		settings[i] = (struct bpfkeys_setting){ name, !state };
	}
	if (bpfkeys_flip(obj, settings, key_count) < 0)
		abort();
	for (size_t i = 0; i < key_count; i++)
		if (bpfkeys_key_state(obj, settings[i].key) != settings[i].on)
			abort();
	/* a key named twice or a key that does not exist ("": every key has a name) changes nothing */
	if (key_count &&
	    (bpfkeys_set(obj, "", true) >= 0 ||
	     bpfkeys_flip(obj, (struct bpfkeys_setting[]){ settings[0], settings[0] }, 2) >= 0 ||
	     bpfkeys_key_state(obj, settings[0].key) != settings[0].on))
		abort();
	open_variant(obj, obj->on);
	free(settings);
	free(on);
	bpfkeys_close(obj);
	return 0;
}
