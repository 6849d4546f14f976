// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// `bpfkeyctl-stock set PINDIR KEY=on KEY=on` sets both keys (loaded off) in one flip:
// both programs reach both keys, and each is replaced once (2 programs, not
// 4), each then returning what its source says with both keys on (prog_one
// 7, prog_two 56); the old programs are gone from the pins. A set whose
// second key does not exist changes nothing, not even the first key.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %stock_inputs/pinned_run.c -lbpf -o %t/pinned_run
// RUN: %run bash %stock_inputs/bpfkeyctl-stock-set-several-session.sh %bpfkeyctl-stock %t/linked.o %t/pinned_run 2>&1 | FileCheck %s
//
// CHECK-LABEL: == set key_a=on no_such_key=on
// CHECK-NEXT: libbpfkeys: /sys/fs/bpf/bpfkeyctl-stock-several-{{[0-9]+}}: error: no static key named 'no_such_key'
// CHECK-NEXT: exit 1
// CHECK-NEXT: key key_a: off
// CHECK-NEXT: key key_b: off
// CHECK-NEXT: prog_one = 0
// CHECK-NEXT: prog_two = 0
// CHECK-LABEL: == set key_a=on key_b=on
// CHECK-NEXT: key_a: on, key_b: on (stock kernel: program replacement, 2 program(s) replaced)
// CHECK-NEXT: exit 0
// CHECK-NEXT: key key_a: on
// CHECK-NEXT: key key_b: on
// CHECK-NEXT: prog_one = 7
// CHECK-NEXT: prog_two = 56
