// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A likely site sets bit 0 (BPF_STATIC_KEY_ENTRY_LIKELY) in the in-place
// value of its key field; the relocation is still against the map symbol.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: llvm-readelf -r -x .static_keys %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_TRUE(fast_key);
int slow(void);

SEC("tc")
int prog(void *ctx)
{
	if (bpf_static_branch_likely(&fast_key))
		return 1;
	return slow();
}

// CHECK:      0000000000000008 {{[0-9a-f]+}} R_BPF_64_ABS64 0000000000000000 fast_key
// CHECK:      Hex dump of section '.static_keys':
// CHECK-NEXT: 0x00000000 {{[0-9a-f]+}} {{[0-9a-f]+}} 01000000 00000000
