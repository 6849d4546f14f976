// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeyctl-stock load --netns PROG=NSFILE attaches an sk_lookup program to
// a network namespace by a netns link, which a later `set` (another
// process, through the pins) updates in place: one program replaced, the
// link pin still there. Errors: a namespace file that does not exist, a
// program that does not, a missing `=NSFILE`.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/sk_lookup_counter.c -o %t/counter.o
// RUN: %bpfld -o %t/linked.o %t/counter.o
// RUN: %run unshare -n bash %stock_inputs/bpfkeyctl-stock-netns-session.sh %bpfkeyctl-stock %t/linked.o 2>&1 | FileCheck %s
//
// CHECK-LABEL: == load
// CHECK-NEXT: count_lookups: attached to /proc/self/ns/net (netns link)
// CHECK-NEXT: key mode_a: off
// CHECK-NEXT: key mode_b: off
// CHECK-NEXT: pinned in /sys/fs/bpf/bpfkeyctl-stock-netns-{{[0-9]+}} (stock kernel: flips by program replacement)
// CHECK-NEXT: exit 0
// CHECK-LABEL: == set
// CHECK-NEXT: mode_a: on (stock kernel: program replacement, 1 program(s) replaced)
// CHECK-NEXT: exit 0
// CHECK-NEXT: count_lookups:0
// CHECK-LABEL: == errors
// CHECK-NEXT: bpfkeyctl-stock: error: --netns count_lookups=/no/such/netns: No such file or directory
// CHECK-NEXT: exit 1
// CHECK-NEXT: libbpfkeys: {{.*}}linked.o: error: no program named 'no_such_prog'
// CHECK-NEXT: exit 1
// CHECK-NEXT: bpfkeyctl-stock: error: 'count_lookups': expected NAME=VALUE
// CHECK-NEXT: exit 2
