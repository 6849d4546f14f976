// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// examples/xdp-filter built by its Makefile with Debian's clang-22, bpfld and
// libbpfkeys, and run as a user would (`xdp-filter --demo`): it sets the
// blocked UDP port (.rodata) to 53 and the sources map to 4 entries before
// load, attaches to a veth pair in a network namespace of its own, and
// sends one frame from each of 8 sources to port 53 and to port 4000 in
// each round. With stats_key off the program only filters; on, the
// replaced program (larger: the statistics branch) also counts sources,
// 4 of them (the map's size), the other 4 sources' frames untracked; off
// again, the short program filters on with the same maps.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: make -s -C %repo/examples/xdp-filter OUTPUT=%t BUILD=%build BPF_CLANG=/usr/lib/llvm-22/bin/clang CC="%stock_cc"
// RUN: %t/xdp-filter --demo %t/xdp_filter.o 2>&1 | FileCheck %s
//
// CHECK: loaded {{.*}}xdp_filter.o: blocked UDP port 53 (.rodata), sources map of 4 entries
// CHECK-NEXT: attached to veth-rx (XDP link, a network namespace of its own)
// CHECK-NEXT: each round: 8 sources, one UDP frame each to port 53 and to port 4000
// CHECK-NEXT: stats_key off: dropped 8, passed 8; sources tracked 0, untracked packets 0
// CHECK-NEXT: stats_key on: 1 program(s) replaced, xdp_filter [[LONG:[0-9]+]] insns (was [[SHORT:[0-9]+]])
// CHECK-NEXT: stats_key on: dropped 16, passed 16; sources tracked 4, untracked packets 8
// CHECK-NEXT: stats_key off: 1 program(s) replaced, xdp_filter [[SHORT]] insns (was [[LONG]])
// CHECK-NEXT: stats_key off: dropped 24, passed 24; sources tracked 4, untracked packets 8
// CHECK-NOT: {{.}}
