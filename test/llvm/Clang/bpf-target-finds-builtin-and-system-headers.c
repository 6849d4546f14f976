// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The patched clang finds its builtin headers (stddef.h: the
// resource directory, Debian's /usr/lib/llvm-22/lib/clang/22), libbpf's
// <bpf/bpf_helpers.h> in /usr/include and <asm/types.h> (the multiarch
// directory its bpf.cfg adds) with no -I but the runtime headers.
// RUN: %clang --target=bpf -O2 -mcpu=v4 -I %runtime_headers -c %s -o %t.o
// RUN: %clang --target=bpfel -O2 -mcpu=v4 -I %runtime_headers -c %s -o %t.el.o
// RUN: %clang --target=bpf -O2 -I %runtime_headers -E -H %s -o /dev/null 2>&1 | FileCheck %s
#include <stddef.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf_static_keys.h>

// CHECK-DAG: /usr/lib/llvm-22/lib/clang/22/include/stddef.h
// CHECK-DAG: /usr/include/bpf/bpf_helpers.h
// CHECK-DAG: /usr/include/{{.*}}-linux-gnu/asm/types.h

SEC("xdp")
int prog(void *ctx)
{
	size_t n = offsetof(struct { __u32 a; __u64 b; }, b);

	return (int)n;
}
