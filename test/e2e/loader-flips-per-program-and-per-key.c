// SPDX-License-Identifier: GPL-2.0
// Two objects linked by bpfld and resolved by bpfkeys, loaded by the patched
// libbpf: two programs share key_a (FALSE) and key_b (TRUE), key_a also has
// a site in a __noinline function both programs call and in a bpf_loop
// callback. Flipping one program's instance changes only that program;
// flipping a key by name changes every program; every result matches the
// state of every site (see Inputs/e2e_progs.c for the bit values).
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/e2e.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_loader.h"

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/e2e.o");
	struct bpf_program *one, *two;

	e2e_load(obj);
	one = e2e_prog(obj, "prog_one");
	two = e2e_prog(obj, "prog_two");

	// CHECK-LABEL: after load (key_a off, key_b on)
	// CHECK-NEXT: prog_one = 2
	// CHECK-NEXT: prog_two = 32
	printf("after load (key_a off, key_b on)\n");
	e2e_expect_run(one, 2);
	e2e_expect_run(two, 32);

	// CHECK-LABEL: key_a on in prog_one only
	// CHECK-NEXT: prog_one = 7
	// CHECK-NEXT: prog_two = 32
	printf("key_a on in prog_one only\n");
	e2e_ok("set prog_one key_a", bpf_program__set_static_key(one, "key_a", true));
	e2e_expect_run(one, 7);
	e2e_expect_run(two, 32);

	// CHECK-LABEL: key_a on everywhere
	// CHECK-NEXT: prog_one = 7
	// CHECK-NEXT: prog_two = 56
	printf("key_a on everywhere\n");
	e2e_ok("set key_a", bpf_object__set_static_key(obj, "key_a", true));
	e2e_expect_run(one, 7);
	e2e_expect_run(two, 56);

	// CHECK-LABEL: key_b off everywhere
	// CHECK-NEXT: prog_one = 5
	// CHECK-NEXT: prog_two = 24
	printf("key_b off everywhere\n");
	e2e_ok("set key_b", bpf_object__set_static_key(obj, "key_b", false));
	e2e_expect_run(one, 5);
	e2e_expect_run(two, 24);

	// CHECK-LABEL: key_b on in prog_two only
	// CHECK-NEXT: prog_one = 5
	// CHECK-NEXT: prog_two = 56
	printf("key_b on in prog_two only\n");
	e2e_ok("set prog_two key_b", bpf_program__set_static_key(two, "key_b", true));
	e2e_expect_run(one, 5);
	e2e_expect_run(two, 56);

	// CHECK-LABEL: key_a off in prog_two only
	// CHECK-NEXT: prog_one = 5
	// CHECK-NEXT: prog_two = 32
	printf("key_a off in prog_two only\n");
	e2e_ok("set prog_two key_a", bpf_program__set_static_key(two, "key_a", false));
	e2e_expect_run(one, 5);
	e2e_expect_run(two, 32);

	// CHECK-LABEL: both keys off everywhere
	// CHECK-NEXT: prog_one = 0
	// CHECK-NEXT: prog_two = 0
	printf("both keys off everywhere\n");
	e2e_ok("set key_a", bpf_object__set_static_key(obj, "key_a", false));
	e2e_ok("set key_b", bpf_object__set_static_key(obj, "key_b", false));
	e2e_expect_run(one, 0);
	e2e_expect_run(two, 0);

	bpf_object__close(obj);
	// CHECK: PASSED
	return finish();
}
