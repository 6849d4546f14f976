// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A static key is a BPF_MAP_TYPE_INSN_ARRAY (34) map in .maps with a __u32
// key and 16-byte values (struct bpf_insn_array_value, given by its size),
// without max_entries (each instance gets one entry per site).
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: bpftool btf dump file %t.o format raw | awk -f %S/../Inputs/btf-map-uints.awk | FileCheck %s
// RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY(seed_key);

SEC("xdp")
int prog(void *ctx)
{
	return bpf_static_branch_unlikely(&seed_key);
}

// CHECK: seed_key: type=34 value_size=16 map_extra=1{{$}}
// SYM: OBJECT GLOBAL DEFAULT {{[0-9]+}} seed_key
