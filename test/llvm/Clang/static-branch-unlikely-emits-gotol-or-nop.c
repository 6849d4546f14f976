// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpf_static_branch_unlikely() compiles to gotol_or_nop (0x06, src_reg 1)
// whose target is the out-of-line unlikely path.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(debug_key);
int slow_debug_path(void);

SEC("xdp")
int prog(void *ctx)
{
	if (bpf_static_branch_unlikely(&debug_key))
		return slow_debug_path();
	return 2;
}

// CHECK-LABEL: <prog>:
// CHECK:      {{[0-9]+}}: 06 10 00 00 {{.. .. .. ..}} gotol_or_nop +{{[0-9]+}} <[[SLOW:LBB0_[0-9]+]]>
// CHECK-NOT:  call
// CHECK:      exit
// CHECK:      <[[SLOW]]>:
// CHECK-NEXT: call
