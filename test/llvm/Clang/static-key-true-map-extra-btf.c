// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// DEFINE_STATIC_KEY_TRUE gives map_extra BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON (3).
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: bpftool btf dump file %t.o format raw | awk -f %S/../Inputs/btf-map-uints.awk | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_TRUE(on_key);

SEC("xdp")
int prog(void *ctx)
{
	return bpf_static_branch_likely(&on_key);
}

// CHECK: on_key: {{.*}}map_extra=3{{$}}
