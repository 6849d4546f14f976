// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpf_static_branch_likely() compiles to nop_or_gotol (0x06, src_reg 3):
// the likely path falls through, the jump goes to the unlikely one.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_TRUE(fast_key);
int slow_path(void);

SEC("xdp")
int prog(void *ctx)
{
	if (bpf_static_branch_likely(&fast_key))
		return 2;
	return slow_path();
}

// CHECK-LABEL: <prog>:
// CHECK:      {{[0-9]+}}: 06 30 00 00 {{.. .. .. ..}} nop_or_gotol +{{[0-9]+}} <[[SLOW:LBB0_[0-9]+]]>
// CHECK-NEXT: exit
// CHECK:      <[[SLOW]]>:
// CHECK-NEXT: call
