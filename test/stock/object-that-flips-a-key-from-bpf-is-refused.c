// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// An object whose programs flip a key from BPF (bpf_static_key_set(&key, on))
// needs the patched kernel's kfuncs: libbpfkeys refuses it at open, naming
// the program and the key, with EOPNOTSUPP, as `bpfkeys lower` refuses it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flips_from_bpf.c -o %t/flips.o
// RUN: %bpfld -o %t/linked.o %t/flips.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
#include "stock_test.h"

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	setvbuf(stdout, NULL, _IONBF, 0);
	// CHECK: libbpfkeys: {{.*}}linked.o: error: program 'turn_debug_on' flips static key 'debug_key' from BPF: stock kernels have no static key kfuncs
	// CHECK-NEXT: libbpfkeys: {{.*}}linked.o: error: programs flip static keys from BPF (see above): that needs the patched kernel
	// CHECK-NEXT: open: Operation not supported
	obj = bpfkeys_open_file(argv[1], NULL);
	if (obj)
		fail("an object that flips a key from BPF was opened");
	printf("open: %s\n", strerror(errno));
	return errno == EOPNOTSUPP ? 0 : 1;
}
