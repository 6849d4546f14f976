// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// DEFINE_STATIC_KEY_FALSE gives a BTF-defined map whose map_extra is
// BPF_F_STATIC_KEY (1).
// RUN: %clang %bpf_cflags -c %s -o %t.o
// RUN: bpftool btf dump file %t.o format raw | awk -f %S/../Inputs/btf-map-uints.awk | FileCheck %s
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(off_key);

SEC("xdp")
int prog(void *ctx)
{
	return bpf_static_branch_unlikely(&off_key);
}

// CHECK: off_key: {{.*}}map_extra=1{{$}}
