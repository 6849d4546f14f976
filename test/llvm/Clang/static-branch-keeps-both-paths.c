// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// At -O2 clang keeps the code of both outcomes of every static branch even
// when one looks dead: the asm goto is opaque to the optimizer.
// RUN: %clang %bpf_cflags -S %s -o - | FileCheck %s
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

// CHECK: gotol_or_nop [[ON:LBB[0-9_]+]]
// CHECK: call off_path
// CHECK: [[ON]]:
// CHECK: call on_path
