// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The demo's stock half (examples/demo/stock-session.sh, which scripts/demo.sh
// runs after the patched-kernel half): the linked demo object loaded by
// bpfkeyctl-stock, each program run through its pin, debug_key and fast_key
// flipped by program replacement; every run returns the XDP action packet.c
// says it should.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %demo/packet.c -o %t/packet.o
// RUN: %bpf_cc %bpf_cflags -c %demo/classify.c -o %t/classify.o
// RUN: %bpfld -o %t/demo.o %t/packet.o %t/classify.o
// RUN: %stock_cc %stock_inputs/pinned_run.c -lbpf -o %t/pinned_run
// RUN: %run env DEMO_PINNED_RUN=%t/pinned_run DEMO_BPFKEYCTL_STOCK=%bpfkeyctl-stock bash %demo/stock-session.sh %stock_inputs/demo-ctl.sh %bpfkeyctl-stock %t/demo.o > %t/out 2>&1
// RUN: FileCheck %s < %t/out

// CHECK: demo_xdp: expected XDP_PASS (2), got XDP_PASS (2): ok
// CHECK: set {{.*}} debug_key=on
// CHECK: demo_xdp: expected XDP_DROP (1), got XDP_DROP (1): ok
// CHECK: demo_xdp_fast: expected XDP_DROP (1), got XDP_DROP (1): ok
// CHECK: set {{.*}} fast_key=off
// CHECK: demo_xdp_fast: expected XDP_TX (3), got XDP_TX (3): ok
// CHECK-NOT: WRONG
// CHECK: stock session: all {{[0-9]+}} runs returned what they should
