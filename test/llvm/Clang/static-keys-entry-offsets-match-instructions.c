// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// insn_off and target_off hold the byte offsets, in the program's section,
// of the static branch and of its jump target.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: %llvm-objdump -d --no-print-imm-hex %t.o > %t.dis
// RUN: llvm-readelf -x .static_keys %t.o >> %t.dis
// RUN: FileCheck %s --input-file=%t.dis
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(key);
int f(int);

SEC("xdp")
int prog(struct xdp_md *ctx)
{
	int x = f(1);

	x += f(x);
	if (bpf_static_branch_unlikely(&key))
		x = f(x * 3);
	return x;
}

// Instruction indexes times 8 are the byte offsets (all below 256 here).
// CHECK: [[#%u,SITE:]]: 06 10 00 00 {{.. .. .. ..}} gotol_or_nop +[[#%u,OFF:]]
// CHECK: Hex dump of section '.static_keys':
// CHECK-NEXT: 0x00000000 [[#%.2x,mul(SITE,8)]]000000 [[#%.2x,mul(SITE+OFF+1,8)]]000000 00000000 00000000
