// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// At -O2 clang keeps the code of both outcomes of every static branch even
// when one looks dead: the asm goto is opaque to the optimizer. (The header
// spells the branch as bytes; the patched llvm-objdump names it.)
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: %llvm-objdump -dr --no-print-imm-hex %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(k);
int on_path(void);
int off_path(void);

SEC("xdp")
int prog(void *ctx)
{
	if (bpf_static_branch_unlikely(&k))
		return on_path();
	return off_path();
}

// CHECK: gotol_or_nop +{{[0-9]+}} <[[ON:LBB[0-9_]+]]>
// CHECK: R_BPF_64_32 off_path
// CHECK: <[[ON]]>:
// CHECK: R_BPF_64_32 on_path
