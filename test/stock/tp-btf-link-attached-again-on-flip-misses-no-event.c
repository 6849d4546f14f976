// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A BTF tracepoint program (SEC("tp_btf/sys_enter"), a raw_tracepoint
// link) attached with BPFKEYS_ATTACH_OVERLAP: outside a flip each
// getppid(2) is counted once, by the version of the current state; during
// 20 flips with calls made without pause, none is missed (the new version
// is attached before the old one goes; Inputs/overlap_counter.h).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tracing_counters.c -o %t/counters.o
// RUN: %bpfld -o %t/linked.o %t/counters.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o | FileCheck %s
//
// CHECK: link: raw_tracepoint, section tp_btf/sys_enter, atomic: no
// CHECK-NEXT: off: 10 counted off, 0 on
// CHECK-NEXT: on: 1 replaced, 10 counted off, 10 on
// CHECK-NEXT: during 20 flips: none missed: yes
#include "overlap_counter.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	return overlap_test(argv[1], "count_tp_btf", 1, SYS_getppid);
}
