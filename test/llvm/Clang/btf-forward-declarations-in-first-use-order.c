// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// BTF forward declarations are numbered in the order their pointers are
// first met (the order of the members of struct __sk_buff: flow_keys before
// sk), not in heap-address order as in clang-22, where the order changes
// with the target and with the way the compiler was linked.
// RUN: %clang --target=bpfel -O2 -g %bpf_multiarch_include -c %s -o %t.o
// RUN: bpftool btf dump file %t.o format raw | FileCheck %s
#include <linux/bpf.h>

__attribute__((section("tc"))) int prog(struct __sk_buff *skb)
{
	return skb->len;
}

// CHECK: FWD 'bpf_flow_keys'
// CHECK: FWD 'bpf_sock'
