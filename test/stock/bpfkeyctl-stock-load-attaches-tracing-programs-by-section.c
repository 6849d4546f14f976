// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// bpfkeyctl-stock load attaches tracing programs (here a tracepoint and a
// tp_btf program) where their sections say and says that a flip overlaps;
// list (and --json) gives each link's type and target; a set from another
// process attaches the new versions, detaches the old ones and moves the
// link pins, and getppid(2) calls are counted by the new state. A kprobe
// section that names no function is refused, naming program and section,
// with exit 1 and nothing pinned.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tracing_counters.c -o %t/counters.o
// RUN: %bpfld -o %t/tracing.o %t/counters.o
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/kprobe_nowhere.c -o %t/nowhere.o
// RUN: %bpfld -o %t/nowhere-linked.o %t/nowhere.o
// RUN: %stock_cc %stock_inputs/pinned_getppid_calls.c -lbpf -o %t/calls
// RUN: %run unshare -m bash %stock_inputs/bpfkeyctl-stock-tracing-session.sh %bpfkeyctl-stock %t/tracing.o %t/nowhere-linked.o %t/calls 2>&1 | FileCheck %s
//
// CHECK-LABEL: == load
// CHECK-NEXT: count_tracepoint: attached by its section tp/syscalls/sys_enter_getppid (perf_event link; a flip attaches the new version before it detaches the old one: both run for a moment)
// CHECK-NEXT: count_tp_btf: attached by its section tp_btf/sys_enter (raw_tracepoint link; a flip attaches the new version before it detaches the old one: both run for a moment)
// CHECK-NEXT: key trace_key: off
// CHECK-NEXT: pinned in /sys/fs/bpf/bpfkeyctl-stock-tracing-{{[0-9]+}} (stock kernel: flips by program replacement)
// CHECK-NEXT: exit 0
// CHECK-LABEL: == list
// CHECK: program count_tp_btf: id {{[0-9]+}}
// CHECK-NEXT: link of count_tracepoint: perf_event, section tp/syscalls/sys_enter_getppid (a flip attaches the new version, then detaches the old: both run for a moment)
// CHECK-NEXT: link of count_tp_btf: raw_tracepoint, section tp_btf/sys_enter (a flip attaches the new version, then detaches the old: both run for a moment)
// CHECK-NEXT: {"kernel":"stock","keys":[{"name":"trace_key","state":"off","programs":["count_tracepoint","count_tp_btf"]}],
// CHECK-SAME: "links":[{"program":"count_tracepoint","type":"perf_event","target":"section tp/syscalls/sys_enter_getppid","flip":"overlap"},
// CHECK-SAME: {"program":"count_tp_btf","type":"raw_tracepoint","target":"section tp_btf/sys_enter","flip":"overlap"}],"programs":[
// CHECK-LABEL: == calls
// CHECK-NEXT: tracepoint: 10 off, 0 on; tp_btf: 10 off, 0 on
// CHECK-LABEL: == set trace_key on
// CHECK-NEXT: trace_key: on (stock kernel: program replacement, 2 program(s) replaced)
// CHECK-NEXT: exit 0
// CHECK-NEXT: tracepoint: 10 off, 10 on; tp_btf: 10 off, 10 on
// CHECK-NEXT: link pins: the same names
// CHECK-NEXT: link of count_tracepoint: perf_event, section tp/syscalls/sys_enter_getppid
// CHECK-NEXT: link of count_tp_btf: raw_tracepoint, section tp_btf/sys_enter
// CHECK-LABEL: == kprobe with no target
// CHECK-NEXT: libbpfkeys: {{.*}}nowhere-linked.o: error: program 'probe_nowhere' (section kprobe): attach: Operation not supported
// CHECK-NEXT: bpfkeyctl-stock: error: program 'probe_nowhere' (section kprobe): the section names no target to attach to (e.g. SEC("kprobe/FUNCTION")), so the program would run nowhere
// CHECK-NEXT: exit 1
// CHECK-NEXT: nothing pinned
