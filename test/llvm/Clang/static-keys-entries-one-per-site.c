// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Each site adds one 16-byte entry; sites in a subprogram (.text) and in a
// program section are relocated against their own section symbols.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: llvm-readelf -S -r %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(a);
DEFINE_STATIC_KEY_TRUE(b);
int f(int);

static __noinline int helper(int x)
{
	if (bpf_static_branch_unlikely(&a))
		x = f(x);
	return x + 1;
}

SEC("xdp")
int prog(void *ctx)
{
	int x = helper(1);

	if (bpf_static_branch_likely(&b))
		x += 2;
	if (bpf_static_branch_unlikely(&a))
		x = f(x);
	return x;
}

// CHECK: .static_keys PROGBITS 0000000000000000 {{[0-9a-f]+}} 000030 00 WA 0 0 8
// CHECK: .rel.static_keys REL 0000000000000000 {{[0-9a-f]+}} 000090 10 I
// CHECK: Relocation section '.rel.static_keys' at offset {{.*}} contains 9 entries:
// CHECK-DAG: {{[0-9a-f]+}} {{[0-9a-f]+}} R_BPF_64_NODYLD32 0000000000000000 .text
// CHECK-DAG: {{[0-9a-f]+}} {{[0-9a-f]+}} R_BPF_64_ABS32 0000000000000000 .text
// CHECK-DAG: {{[0-9a-f]+}} {{[0-9a-f]+}} R_BPF_64_NODYLD32 0000000000000000 xdp
// CHECK-DAG: {{[0-9a-f]+}} {{[0-9a-f]+}} R_BPF_64_ABS64 {{[0-9a-f]+}} b
// CHECK-DAG: {{[0-9a-f]+}} {{[0-9a-f]+}} R_BPF_64_ABS64 {{[0-9a-f]+}} a
