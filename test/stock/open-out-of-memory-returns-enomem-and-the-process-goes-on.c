// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// Out of memory is an error the library returns, never an exit: an open of a
// 256 MiB object under a 64 MiB allocation limit (%limit_memory, see
// test/lit.cfg.py) gives NULL with errno ENOMEM and says so through the
// print callback; the same process then opens a real object and reads it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: truncate -s 256M %t/big.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %limit_memory %t/test %t/big.o %t/linked.o 2>&1 | FileCheck %s
// RUN: rm %t/big.o
#include "stock_test.h"

static int print_tagged(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	printf("%s[%d] ", (const char *)ctx, (int)level);
	return vprintf(fmt, ap);
}

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = print_tagged, .print_ctx = "print");
	struct bpfkeys_object *obj;

	if (argc != 3)
		fail("usage: %s BIG.o LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);

	// CHECK: print[0] libbpfkeys: {{.*}}big.o: error: out of memory
	// CHECK-NEXT: open big.o: Cannot allocate memory
	errno = 0;
	obj = bpfkeys_open_file(argv[1], &opts);
	if (obj)
		fail("a 256 MiB object opened under a 64 MiB limit");
	printf("open big.o: %s\n", strerror(errno));
	if (errno != ENOMEM)
		fail("errno %d, not ENOMEM", errno);

	// CHECK-NEXT: open linked.o after it: 2 keys, first key_a
	obj = bpfkeys_open_file(argv[2], &opts);
	if (!obj)
		fail("open %s: %s", argv[2], strerror(errno));
	printf("open linked.o after it: %zu keys, first %s\n", bpfkeys_key_count(obj),
	       bpfkeys_key_name(obj, 0));
	bpfkeys_close(obj);
	return 0;
}
