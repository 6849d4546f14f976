// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// The library keeps no process-global state: two threads that each open,
// load, flip and close their own objects at the same time, one with a valid
// object and its print callback, one alternating with a file that is not
// ELF (whose messages go to its own callback), see only their own messages
// and results: per round, the loading thread gets its load's and its two
// flips' messages (3), the other its failed open's (the reader's and the
// library's, 2); libbpf's print function is the program's throughout.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: echo 'not an object' > %t/text.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o %t/text.o 2>&1 | FileCheck %s
#include <pthread.h>

#include "stock_test.h"

#define ROUNDS 20

struct worker {
	const char *linked, *bad;
	size_t messages, foreign, flips, refused;
	const char *failure;
};

static int count_message(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	struct worker *w = ctx;
	char line[1024];

	(void)level;
	vsnprintf(line, sizeof(line), fmt, ap);
	w->messages++;
	/* a message of the other thread's object would name its file */
	if (!strstr(line, w->bad ? w->bad : w->linked))
		w->foreign++;
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	for (int round = 0; round < ROUNDS && !w->failure; round++) {
		LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = count_message, .print_ctx = w);
		struct bpfkeys_object *obj;

		if (w->bad) {
			obj = bpfkeys_open_file(w->bad, &opts);
			if (obj || errno != EINVAL)
				w->failure = "a file that is not ELF did not fail with EINVAL";
			w->refused++;
			continue;
		}
		obj = bpfkeys_open_file(w->linked, &opts);
		if (!obj || bpfkeys_load(obj)) {
			w->failure = "open or load failed";
			bpfkeys_close(obj);
			continue;
		}
		if (bpfkeys_set(obj, "key_a", true) != 2 || bpfkeys_set(obj, "key_a", false) != 2)
			w->failure = "a flip did not replace 2 programs";
		w->flips += 2;
		bpfkeys_close(obj);
	}
	return NULL;
}

static int libbpf_print_of_the_program(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int main(int argc, char **argv)
{
	struct worker good = { .linked = NULL }, bad = { .linked = NULL };
	pthread_t threads[2];

	if (argc != 3)
		fail("usage: %s LINKED.o TEXT.o", argv[0]);
	if (geteuid() != 0)
		fail("needs root (BPF programs)");
	good.linked = argv[1];
	bad.linked = argv[1];
	bad.bad = argv[2];
	libbpf_set_print(libbpf_print_of_the_program);
	if (pthread_create(&threads[0], NULL, work, &good) ||
	    pthread_create(&threads[1], NULL, work, &bad))
		fail("pthread_create");
	pthread_join(threads[0], NULL);
	pthread_join(threads[1], NULL);
	if (good.failure || bad.failure)
		fail("%s", good.failure ? good.failure : bad.failure);
	// CHECK: loading thread: 40 flips, 60 messages, 0 of the other thread's
	// CHECK-NEXT: refused thread: 20 opens refused, 40 messages, 0 of the other thread's
	// CHECK-NEXT: libbpf print: the program's
	printf("loading thread: %zu flips, %zu messages, %zu of the other thread's\n", good.flips,
	       good.messages, good.foreign);
	printf("refused thread: %zu opens refused, %zu messages, %zu of the other thread's\n",
	       bad.refused, bad.messages, bad.foreign);
	printf("libbpf print: %s\n",
	       libbpf_set_print(NULL) == libbpf_print_of_the_program ? "the program's" : "CHANGED");
	return 0;
}
