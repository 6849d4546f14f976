// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// `bpfkeyctl-stock list --json PINDIR` is one JSON document (python3's
// json.tool reads it): per key its state and the programs a flip of it
// replaces, per program its current version (id, sizes). After a flip the
// key's state and the program ids follow.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %run bash %stock_inputs/bpfkeyctl-stock-list-json-session.sh %bpfkeyctl-stock %t/linked.o %t 2>&1 | FileCheck %s
// RUN: python3 -m json.tool %t/before.json > /dev/null
// RUN: python3 -m json.tool %t/after.json > /dev/null
//
// CHECK-LABEL: == before
// CHECK-NEXT: {"kernel":"stock","keys":[{"name":"key_a","state":"off","programs":["prog_one","prog_two"]},{"name":"key_b","state":"on","programs":["prog_one","prog_two"]}],
// CHECK-SAME: "programs":[{"name":"prog_one","loaded":true,"id":[[ONE:[0-9]+]],"xlated_insns":{{[0-9]+}},"jited_bytes":{{[0-9]+}}},
// CHECK-SAME: {"name":"prog_two","loaded":true,"id":[[TWO:[0-9]+]],"xlated_insns":{{[0-9]+}},"jited_bytes":{{[0-9]+}}}]}
// CHECK-LABEL: == after
// CHECK-NEXT: {"kernel":"stock","keys":[{"name":"key_a","state":"on",
// CHECK-SAME: {"name":"key_b","state":"on",
// CHECK-NOT: "id":[[ONE]],
// CHECK-NOT: "id":[[TWO]],
// CHECK: == end
