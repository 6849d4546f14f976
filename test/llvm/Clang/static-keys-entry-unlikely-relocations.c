// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The .static_keys entry of an unlikely site (docs/abi.md section 2):
// insn_off R_BPF_64_NODYLD32 and target_off R_BPF_64_ABS32 against the
// program's section symbol, key R_BPF_64_ABS64 against the key's map symbol,
// flags 0.
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: llvm-readelf -r -x .static_keys %t.o | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(trace_key);
int trace(void);

SEC("tc")
int prog(void *ctx)
{
	if (bpf_static_branch_unlikely(&trace_key))
		trace();
	return 0;
}

// CHECK:      Relocation section '.rel.static_keys' at offset {{.*}} contains 3 entries:
// CHECK:      0000000000000000 {{[0-9a-f]+}} R_BPF_64_NODYLD32 0000000000000000 tc
// CHECK-NEXT: 0000000000000004 {{[0-9a-f]+}} R_BPF_64_ABS32 0000000000000000 tc
// CHECK-NEXT: 0000000000000008 {{[0-9a-f]+}} R_BPF_64_ABS64 0000000000000000 trace_key
// CHECK:      Hex dump of section '.static_keys':
// CHECK-NEXT: 0x00000000 {{[0-9a-f]+}} {{[0-9a-f]+}} 00000000 00000000
