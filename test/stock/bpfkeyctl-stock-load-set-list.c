// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeyctl-stock on the host's stock kernel: load the linked end-to-end
// object with key_b off and pin it, list keys and programs, flip key_a then
// key_b from separate processes (each `set` opens the pins), each program
// returning what its source says after each flip (prog_one: 1 key_a, 2
// key_b, 4 shared_fn's key_a; prog_two: 8 shared_fn, 16 the loop callback,
// 32 key_b), and the errors of a session.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %stock_inputs/pinned_run.c -lbpf -o %t/pinned_run
// RUN: %run bash %stock_inputs/bpfkeyctl-stock-session.sh %bpfkeyctl-stock %t/linked.o %t/pinned_run 2>&1 | FileCheck %s
//
// CHECK-LABEL: == load
// CHECK-NEXT: key key_a: off
// CHECK-NEXT: key key_b: off
// CHECK-NEXT: pinned in /sys/fs/bpf/bpfkeyctl-stock-{{[0-9]+}} (stock kernel: flips by program replacement)
// CHECK-LABEL: == list
// CHECK-NEXT: stock kernel pins (libbpfkeys): 2 key(s), 2 program(s)
// CHECK-NEXT: key key_a: off
// CHECK-NEXT: key key_b: off
// CHECK-NEXT: program prog_one: id [[ONE:[0-9]+]], {{[0-9]+}} insns xlated, {{[0-9]+}} bytes jited
// CHECK-NEXT: program prog_two: id [[TWO:[0-9]+]], {{[0-9]+}} insns xlated, {{[0-9]+}} bytes jited
// CHECK-LABEL: == run
// CHECK-NEXT: prog_one = 0
// CHECK-NEXT: prog_two = 0
// CHECK-LABEL: == set key_a on
// CHECK-NEXT: key_a: on (stock kernel: program replacement, 2 program(s) replaced)
// CHECK-NEXT: prog_one = 5
// CHECK-NEXT: prog_two = 24
// CHECK-LABEL: == set key_b on
// CHECK-NEXT: key_b: on (stock kernel: program replacement, 2 program(s) replaced)
// CHECK-NEXT: prog_one = 7
// CHECK-NEXT: prog_two = 56
// CHECK-LABEL: == list
// CHECK-NEXT: stock kernel pins (libbpfkeys): 2 key(s), 2 program(s)
// CHECK-NEXT: key key_a: on
// CHECK-NEXT: key key_b: on
// CHECK-NOT: id [[ONE]],
// CHECK-NOT: id [[TWO]],
// CHECK-LABEL: == errors
// CHECK-NEXT: libbpfkeys: /sys/fs/bpf/bpfkeyctl-stock-{{[0-9]+}}: error: no static key named 'no_such_key'
// CHECK-NEXT: exit 1
// CHECK-NEXT: bpfkeyctl-stock: error: set key_a=maybe: expected KEY=on|off
// CHECK-NEXT: exit 2
// CHECK-NEXT: bpfkeyctl-stock: error: set key_a on: write key_a=on (KEY=on|off)
// CHECK-NEXT: exit 2
// CHECK-NEXT: libbpfkeys: /sys/fs/bpf/no-such-pins: error: /sys/fs/bpf/no-such-pins: No such file or directory
// CHECK-NEXT: exit 1
// CHECK-NEXT: libbpfkeys: {{.*}}linked.o: error: /sys/fs/bpf/bpfkeyctl-stock-{{[0-9]+}}: an object is pinned here already
// CHECK-NEXT: exit 1
// CHECK-NEXT: bpfkeyctl-stock: error: unknown command 'frobnicate'
// CHECK: exit 2
