// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeyctl-stock load --set-global NAME=VALUE and --max-entries MAP=N:
// filter_value (.rodata) 7, data_add (.data) 0x10, bss_start (.bss) 100,
// the char array tag (.data.tag) "xdp", slots sized 64. The pinned program
// returns 7 + 16 + 100 + 2000 (tag) = 2123, and 3123 after `set debug_key=on`
// from another process; the maps hold the values and the size before and
// after the flip.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: %stock_cc %stock_inputs/pinned_run.c -lbpf -o %t/pinned_run
// RUN: %run bash %stock_inputs/bpfkeyctl-stock-settings-session.sh %bpfkeyctl-stock %t/linked.o %t/pinned_run 2>&1 | FileCheck %s
//
// CHECK-LABEL: == load
// CHECK-NEXT: global filter_value: set
// CHECK-NEXT: global data_add: set
// CHECK-NEXT: global bss_start: set
// CHECK-NEXT: global tag: set
// CHECK-NEXT: map slots: max_entries 64
// CHECK-NEXT: key debug_key: off
// CHECK-NEXT: pinned in /sys/fs/bpf/bpfkeyctl-stock-settings-{{[0-9]+}} (stock kernel: flips by program replacement)
// CHECK-NEXT: filter = 2123
// CHECK-NEXT: max_entries 64
// CHECK-NEXT: "filter_value": 7
// CHECK-NEXT: "tag": "xdp"
// CHECK-LABEL: == set debug_key on
// CHECK-NEXT: debug_key: on (stock kernel: program replacement, 1 program(s) replaced)
// CHECK-NEXT: filter = 3123
// CHECK-NEXT: max_entries 64
// CHECK-NEXT: "filter_value": 7
// CHECK-NEXT: "tag": "xdp"
// CHECK-NOT: error
