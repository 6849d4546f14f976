// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeys' core has no error path for a failed allocation: inside the
// library it bails out to the library's call, which returns ENOMEM. Here
// every calloc/malloc/realloc of 1 MiB or more that libbpfkeys.a makes fails
// (ld --wrap: the library's own calls only, not libelf's or libbpf's), and an
// object of 30,000 functions opens: the reader's tables fit, the core's key
// table of its symbols does not. The open returns NULL with ENOMEM, says so
// through the callback, leaks nothing (LeakSanitizer in the sanitized build),
// and the process then opens a real object.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cc -O1 %repo/bench/bpfkeys/gen.c -lelf -lbpf -o %t/gen
// RUN: %t/gen 30000 %t/many.o 4 1 > /dev/null
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s -Wl,--wrap=calloc,--wrap=malloc,--wrap=realloc %stock_libs -o %t/test
// RUN: %run %t/test %t/many.o %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"

#define LIMIT (1u << 20)

void *__real_calloc(size_t n, size_t size);
void *__real_malloc(size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_realloc(void *p, size_t size);
static size_t refused;

void *__wrap_calloc(size_t n, size_t size)
{
	if (size && n >= LIMIT / size) {
		refused++;
		return NULL;
	}
	return __real_calloc(n, size);
}

void *__wrap_malloc(size_t size)
{
	if (size >= LIMIT) {
		refused++;
		return NULL;
	}
	return __real_malloc(size);
}

void *__wrap_realloc(void *p, size_t size)
{
	if (size >= LIMIT) {
		refused++;
		return NULL;
	}
	return __real_realloc(p, size);
}

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
		fail("usage: %s MANY.o LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);

	// CHECK: print[0] libbpfkeys: {{.*}}many.o: error: out of memory in bpfkeys' core
	// CHECK-NEXT: open many.o: Cannot allocate memory, 1 allocation(s) refused
	errno = 0;
	obj = bpfkeys_open_file(argv[1], &opts);
	if (obj)
		fail("opened with every allocation of 1 MiB refused");
	printf("open many.o: %s, %zu allocation(s) refused\n", strerror(errno), refused);
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
