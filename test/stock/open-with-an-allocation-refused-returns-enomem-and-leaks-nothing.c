// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// An open that runs out of memory anywhere (the reader, bpfkeys' core, which
// bails out to the library's call, or the library) returns NULL with errno
// ENOMEM and leaves nothing allocated. The test refuses the 1st, then the
// 2nd, ... allocation that libbpfkeys.a makes during bpfkeys_open_file (ld
// --wrap: the library's own calloc/malloc/realloc, not libelf's or
// libbpf's), until the open gets through; LeakSanitizer (sanitized build)
// checks at exit that none of the failed opens leaked.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s -Wl,--wrap=calloc,--wrap=malloc,--wrap=realloc %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"
#include "refuse_nth_allocation.h"

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = quiet);
	struct bpfkeys_object *obj;
	size_t failed = 0;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t n = 1;; n++) {
		counted = 0;
		refuse_at = n;
		errno = 0;
		obj = bpfkeys_open_file(argv[1], &opts);
		refuse_at = 0;
		if (obj)
			break;
		if (errno != ENOMEM)
			fail("allocation %zu refused: %s, not ENOMEM", n, strerror(errno));
		failed++;
	}
	// CHECK: {{[1-9][0-9]*}} opens with one allocation refused: each ENOMEM
	// CHECK-NEXT: then: 2 keys, 2 programs
	printf("%zu opens with one allocation refused: each ENOMEM\n", failed);
	printf("then: %zu keys, %zu programs\n", bpfkeys_key_count(obj),
	       bpfkeys_program_count(obj));
	bpfkeys_close(obj);
	return 0;
}
