// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// A program that links libbpfkeys gets its messages through the open
// options' print callback, with a level and its own context: why an open
// failed (the reader's messages on a file that is not ELF, the library's on
// an object whose programs flip keys from BPF), a later error of the object, what a load
// did (LIBBPFKEYS_INFO) and what a flip did (LIBBPFKEYS_DEBUG). Nothing
// else goes to stderr. libbpf's print function stays the one the program
// set. Options with non-zero bytes past the library's struct (a field this
// library does not know) are refused with EINVAL, said through their
// callback; options whose sz is too small to hold one are refused, said on
// stderr; the options of an older, smaller struct are read as far as they go.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %clang %bpf_cflags -c %stock_inputs/flips_from_bpf.c -o %t/flips.o
// RUN: %bpfld -o %t/flips_linked.o %t/flips.o
// RUN: echo 'not an object' > %t/text.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o %t/flips_linked.o %t/text.o 2>%t/stderr | FileCheck %s
// RUN: FileCheck --check-prefix=STDERR %s < %t/stderr
#include "stock_test.h"

static int libbpf_print_of_the_program(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int print_tagged(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	printf("%s level %d: ", (const char *)ctx, (int)level);
	return vprintf(fmt, ap);
}

int main(int argc, char **argv)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = print_tagged, .print_ctx = "callback");
	struct {
		struct bpfkeys_open_opts known;
		long unknown_field;
	} newer = { .known = { .sz = sizeof(newer), .print = print_tagged, .print_ctx = "x" },
		    .unknown_field = 1 };
	struct bpfkeys_open_opts too_small = { .sz = 1 };
	struct bpfkeys_object *obj;

	if (argc != 4)
		fail("usage: %s LINKED.o FLIPS_FROM_BPF.o TEXT.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);
	libbpf_set_print(libbpf_print_of_the_program);

	// CHECK: callback level 0: libbpfkeys: {{.*}}text.o: error: not an ELF file
	// CHECK-NEXT: callback level 0: libbpfkeys: {{.*}}text.o: error: cannot read the object (see above)
	// CHECK-NEXT: text.o: Invalid argument
	obj = bpfkeys_open_file(argv[3], &opts);
	printf("text.o: %s\n", obj ? "opened" : strerror(errno));
	// CHECK-NEXT: callback level 0: libbpfkeys: {{.*}}flips_linked.o: error: program 'turn_debug_on' flips static key 'debug_key' from BPF: stock kernels have no static key kfuncs
	// CHECK-NEXT: callback level 0: libbpfkeys: {{.*}}flips_linked.o: error: programs flip static keys from BPF (see above): that needs the patched kernel
	// CHECK-NEXT: flips_linked.o: Operation not supported
	obj = bpfkeys_open_file(argv[2], &opts);
	printf("flips_linked.o: %s\n", obj ? "opened" : strerror(errno));
	// CHECK-NEXT: callback level 0: libbpfkeys: {{.*}}linked.o: error: no static key named 'no_such_key'
	// CHECK-NEXT: flip: No such file or directory; errmsg: no static key named 'no_such_key'
	obj = bpfkeys_open_file(argv[1], &opts);
	if (!obj)
		fail("open %s: %s", argv[1], strerror(errno));
	printf("flip: %s; errmsg: %s\n", strerror(-bpfkeys_set(obj, "no_such_key", true)),
	       bpfkeys_errmsg(obj));
	// CHECK-NEXT: callback level 1: libbpfkeys: {{.*}}linked.o: loaded 2 program(s), {{[0-9]+}} map(s)
	if (bpfkeys_load(obj))
		fail("load: %s", bpfkeys_errmsg(obj));
	// CHECK-NEXT: callback level 2: libbpfkeys: {{.*}}linked.o: flip: 2 program(s) replaced
	if (bpfkeys_set(obj, "key_a", true) < 0)
		fail("flip: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);

	// CHECK-NEXT: libbpf print after the opens: the program's
	printf("libbpf print after the opens: %s\n",
	       libbpf_set_print(NULL) == libbpf_print_of_the_program ? "the program's" : "CHANGED");

	// CHECK-NEXT: x level 0: libbpfkeys: {{.*}}linked.o: error: struct bpfkeys_open_opts: sz 56, with fields set past the 48 bytes this library knows
	// CHECK-NEXT: opts with an unknown field set: Invalid argument
	obj = bpfkeys_open_file(argv[1], &newer.known);
	printf("opts with an unknown field set: %s\n", obj ? "opened" : strerror(errno));
	// STDERR: libbpfkeys: {{.*}}linked.o: error: struct bpfkeys_open_opts: sz 1 is too small
	// STDERR-NOT: {{.}}
	// CHECK-NEXT: opts with sz 1: Invalid argument
	obj = bpfkeys_open_file(argv[1], &too_small);
	printf("opts with sz 1: %s\n", obj ? "opened" : strerror(errno));
	// CHECK-NEXT: opts of an older, smaller struct: opened, 2 keys
	newer.known.sz = offsetof(struct bpfkeys_open_opts, print);
	obj = bpfkeys_open_file(argv[1], &newer.known);
	printf("opts of an older, smaller struct: %s, %zu keys\n", obj ? "opened" : strerror(errno),
	       obj ? bpfkeys_key_count(obj) : 0);
	bpfkeys_close(obj);
	return 0;
}
