// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// Every command-line error of bpfkeyctl-stock exits 2, in the tools' form
// ("bpfkeyctl-stock: error: ..."), before any pin or object is opened: a
// state that is neither on nor off, set's old two-word form (KEY on), a key
// set twice, a --set or --xdp without NAME=VALUE, an unknown option (getopt's
// error), an unknown option of list. An error of the object or the pins is 1
// (bpfkeyctl-stock-load-set-list.c).
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %run %bpfkeyctl-stock set %t/pins key=maybe 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: %run sh -c "%bpfkeyctl-stock set %t/pins key=maybe 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock set %t/pins key on 2>&1 | FileCheck %s --check-prefix=OLD-FORM
// RUN: %run sh -c "%bpfkeyctl-stock set %t/pins key on 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock set %t/pins key=on other=off key=off 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %run sh -c "%bpfkeyctl-stock set %t/pins key=on key=off 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock list --yaml %t/pins 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: %run sh -c "%bpfkeyctl-stock list --yaml %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --set key=maybe %t/obj.o %t/pins 2>&1 | FileCheck %s --check-prefix=SET
// RUN: %run sh -c "%bpfkeyctl-stock load --set key=maybe %t/obj.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: %run sh -c "%bpfkeyctl-stock load --xdp prog %t/obj.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load --bogus %t/obj.o %t/pins 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: %run sh -c "%bpfkeyctl-stock load --bogus %t/obj.o %t/pins 2>/dev/null; test \$? -eq 2"
// RUN: not %run %bpfkeyctl-stock load %t/obj.o %t/pins --xdp 2>&1 | FileCheck %s --check-prefix=EXTRA
// STATE: {{^}}bpfkeyctl-stock: error: set key=maybe: expected KEY=on|off
// OLD-FORM: {{^}}bpfkeyctl-stock: error: set key on: write key=on (KEY=on|off)
// TWICE: {{^}}bpfkeyctl-stock: error: set: key 'key' set twice (on, then off)
// LIST: {{^}}bpfkeyctl-stock: error: list: unknown option '--yaml'
// SET: {{^}}bpfkeyctl-stock: error: --set key=maybe: expected KEY=on|off
// OPTION: {{^}}bpfkeyctl-stock: error: unknown or ambiguous option '--bogus'
// EXTRA: Usage: bpfkeyctl-stock
