// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// `rm -r` of a pin directory drops the last reference of its XDP links,
// which the kernel releases a little later: a load attaching to the same
// devices at once got EBUSY now and then. The attach waits for the old
// link to go: 120 loads, each right after the previous directory's rm -r,
// all succeed.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %run unshare -n bash %stock_inputs/reload-after-remove.sh %bpfkeyctl-stock %t/linked.o 120 2>&1 | FileCheck %s
//
// CHECK-NOT: busy
// CHECK: reloads: 120, loaded 120, busy 0, other errors 0
