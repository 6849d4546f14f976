// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A key whose name has more characters than a pin directory's meta keeps
// (247) could be loaded and pinned, but never listed or set again. The
// load refuses to pin it, naming the key, exits 1 and leaves no pin
// directory behind.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/long_key_name.c -o %t/long.o
// RUN: %bpfld -o %t/linked.o %t/long.o
// RUN: rm -rf /sys/fs/bpf/bpfkeys-long-key-test
// RUN: not %run %bpfkeyctl-stock load %t/linked.o /sys/fs/bpf/bpfkeys-long-key-test 2>&1 | FileCheck %s
// RUN: not ls /sys/fs/bpf/bpfkeys-long-key-test 2>&1 | FileCheck %s --check-prefix=GONE
//
// CHECK: libbpfkeys: {{.*}}linked.o: error: pin /sys/fs/bpf/bpfkeys-long-key-test: key 'long_key_{{k+}}': a name of 250 characters (pins keep 247)
// CHECK-NOT: pinned in
// GONE: No such file or directory
