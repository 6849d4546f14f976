// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// bpfkeyctl-stock load's settings refuse a bad value with exit 2 and an
// error naming the variable or map and what it takes: no NAME=VALUE, an
// integer that does not fit the variable's 4 bytes, 0x bytes of the wrong
// size or a string too long for the 16-byte char array tag, a size that is
// not from 1 to 2^32 - 1. A variable or map the object does not have is
// the library's error naming it, exit 1. Nothing is pinned in any case.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/settings_filter.c -o %t/filter.o
// RUN: %bpfld -o %t/linked.o %t/filter.o
// RUN: not %run %bpfkeyctl-stock load --set-global filter_value %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// RUN: %run sh -c "%bpfkeyctl-stock load --set-global filter_value %t/linked.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --set-global filter_value=0x100000000 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// RUN: %run sh -c "%bpfkeyctl-stock load --set-global filter_value=0x100000000 %t/linked.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --set-global tag=0x1234 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=SHORT-BYTES
// RUN: %run sh -c "%bpfkeyctl-stock load --set-global tag=0x1234 %t/linked.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --set-global tag=sixteen-chars-xx %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=LONG-STRING
// RUN: not %run %bpfkeyctl-stock load --max-entries slots=0 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %run sh -c "%bpfkeyctl-stock load --max-entries slots=0 %t/linked.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --max-entries slots=4294967296 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not %run %bpfkeyctl-stock load --max-entries slots=-1 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not %run %bpfkeyctl-stock load --set-global no_such_var=1 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=NO-VAR
// RUN: %run sh -c "%bpfkeyctl-stock load --set-global no_such_var=1 %t/linked.o %t/pins 2>/dev/null; test \$? -eq 1"
// RUN: not %run %bpfkeyctl-stock load --max-entries no_such_map=4 %t/linked.o %t/pins 2>&1 | FileCheck %s --check-prefix=NO-MAP
// RUN: %run sh -c "%bpfkeyctl-stock load --max-entries no_such_map=4 %t/linked.o %t/pins 2>/dev/null; test \$? -eq 1"
// RUN: test ! -e %t/pins
// NO-VALUE: {{^}}bpfkeyctl-stock: error: 'filter_value': expected NAME=VALUE
// TOO-BIG: {{^}}bpfkeyctl-stock: error: --set-global filter_value=0x100000000: 'filter_value' has 4 bytes: expected a C integer that fits in them, or a string of at most 3 characters
// SHORT-BYTES: {{^}}bpfkeyctl-stock: error: --set-global tag=0x1234: 'tag' has 16 bytes: expected 0x and two hex digits per byte, or a string of at most 15 characters
// LONG-STRING: {{^}}bpfkeyctl-stock: error: --set-global tag=sixteen-chars-xx: 'tag' has 16 bytes
// ZERO: {{^}}bpfkeyctl-stock: error: --max-entries slots=0: expected MAP=N, N from 1 to 4294967295
// HUGE: {{^}}bpfkeyctl-stock: error: --max-entries slots=4294967296: expected MAP=N
// NEGATIVE: {{^}}bpfkeyctl-stock: error: --max-entries slots=-1: expected MAP=N
// NO-VAR: {{^}}libbpfkeys: {{.*}}linked.o: error: no global variable named 'no_such_var' (in the object's BTF)
// NO-MAP: {{^}}libbpfkeys: {{.*}}linked.o: error: no map named 'no_such_map'
