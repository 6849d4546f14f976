// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeyctl-stock set killed after the first of its two XDP link updates:
// the next command (list) completes the flip it finds in the journal, so
// the keys read on and each link runs the program progs/ pins; the next
// set replaces both programs, with no EPERM from BPF_LINK_UPDATE and no
// "0 program(s) replaced", and each link follows again.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %run unshare -n bash %stock_inputs/set-killed-between-links-session.sh %bpfkeyctl-stock %t/linked.o 2>&1 | FileCheck %s
//
// CHECK-LABEL: == set, killed after the first link update
// CHECK-NEXT: exit 137
// CHECK-LABEL: == list
// CHECK-NEXT: stock kernel pins (libbpfkeys): 2 key(s), 2 program(s)
// CHECK-NEXT: key key_a: on
// CHECK-NEXT: key key_b: on
// CHECK-NEXT: program flip_one: id [[ONE:[0-9]+]],
// CHECK-NEXT: program flip_two: id [[TWO:[0-9]+]],
// CHECK-NEXT: link of flip_one: xdp, ifindex {{[0-9]+}} (veth_rx) (a flip updates it atomically)
// CHECK-NEXT: link of flip_two: xdp, ifindex {{[0-9]+}} (veth_tx) (a flip updates it atomically)
// CHECK-NEXT: link flip_one:0 runs program [[ONE]]
// CHECK-NEXT: link flip_two:1 runs program [[TWO]]
// CHECK-LABEL: == set both off
// CHECK-NOT: error
// CHECK-NEXT: key_a: off, key_b: off (stock kernel: program replacement, 2 program(s) replaced)
// CHECK-NEXT: exit 0
// CHECK-NEXT: stock kernel pins (libbpfkeys): 2 key(s), 2 program(s)
// CHECK-NEXT: key key_a: off
// CHECK-NEXT: key key_b: off
// CHECK-NEXT: program flip_one: id [[ONE2:[0-9]+]],
// CHECK-NEXT: program flip_two: id [[TWO2:[0-9]+]],
// CHECK-NEXT: link of flip_one: xdp, ifindex {{[0-9]+}} (veth_rx) (a flip updates it atomically)
// CHECK-NEXT: link of flip_two: xdp, ifindex {{[0-9]+}} (veth_tx) (a flip updates it atomically)
// CHECK-NEXT: link flip_one:0 runs program [[ONE2]]
// CHECK-NEXT: link flip_two:1 runs program [[TWO2]]
