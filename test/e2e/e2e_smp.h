/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the e2e tests that flip a key while its program runs on the other
 * vCPU (BPFSK_QEMU_SMP=2): a thread on CPU 1 sets one key of one program
 * off, on, off, ... a given number of times, through the patched libbpf.
 * Include with _GNU_SOURCE defined (CPU affinity).
 */
#ifndef E2E_SMP_H
#define E2E_SMP_H

#include "e2e_loader.h"

struct e2e_flipper {
	struct bpf_program *prog;
	const char *key;
	int flips;		/* even, so that the last flip sets the key on */
	volatile int flipping;	/* until the last flip returned */
	int errors;		/* failed flips */
	pthread_t thread;
};

static void *e2e_flipper_run(void *arg)
{
	struct e2e_flipper *f = arg;
	int i;

	for (i = 0; i < f->flips; i++) {
		/* ends with i = flips - 1, odd: on */
		if (bpf_program__set_static_key(f->prog, f->key, i & 1))
			f->errors++;
	}
	f->flipping = 0;
	return NULL;
}

/* Starts @f's flips of @key on CPU 1; the caller loops while f->flipping. */
static inline void e2e_flipper_start(struct e2e_flipper *f, const char *key)
{
	f->key = key;
	f->errors = 0;
	f->flipping = 1;
	f->thread = start_pinned_or_die(1, "the flipper", e2e_flipper_run, f);
}

static inline void e2e_flipper_join(struct e2e_flipper *f)
{
	pthread_join(f->thread, NULL);
}

/* The number of flips per key: /files/flips if the test put it there. */
static inline int e2e_flips(int dflt)
{
	FILE *file = fopen("/files/flips", "r");
	int flips = dflt;

	if (file) {
		if (fscanf(file, "%d", &flips) != 1 || flips < 2 || flips % 2) {
			printf("FAIL: /files/flips: want an even number >= 2\n");
			exit(1);
		}
		fclose(file);
	}
	return flips;
}

#endif /* E2E_SMP_H */
