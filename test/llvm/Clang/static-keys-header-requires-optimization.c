// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Static branches only exist once the header's inline functions are inlined
// and the key's address folded into the "i" operand: at -O0 the header stops
// with a message saying so, instead of clang's "invalid operand for inline
// asm constraint 'i'". -O1 is enough.
// RUN: not %clang %bpf_cflags -O0 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %clang %bpf_cflags -O1 -c %s -o %t.o
#include <bpf_static_keys.h>

// CHECK-NOT: invalid operand
// CHECK: bpf_static_keys.h:{{[0-9]+}}:{{[0-9]+}}: error: "bpf_static_keys.h: static branches need optimization: compile with -O1 or higher (-O2 recommended)"
// CHECK-NOT: invalid operand

DEFINE_STATIC_KEY_FALSE(debug_key);

SEC("xdp")
int prog(void *ctx)
{
	return bpf_static_branch_unlikely(&debug_key);
}
