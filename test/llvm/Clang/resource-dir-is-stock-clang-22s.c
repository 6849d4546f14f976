// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// The patched clang takes the builtin headers (stddef.h, stdint.h, ...) from
// the resource directory Debian's clang-22 reports, by the same path: with -g
// the path is recorded in the debug info, so another one (the build cache's)
// would make the objects differ from clang-22's and depend on the cache.
// RUN: %stock-clang -print-resource-dir > %t.stock
// RUN: %clang --target=bpf -print-resource-dir > %t.bpf
// RUN: diff %t.stock %t.bpf
// RUN: %clang --target=bpfeb-unknown-none -print-resource-dir > %t.bpfeb
// RUN: diff %t.stock %t.bpfeb
// RUN: %stock-clang --target=bpf -O2 -g -ffreestanding -c %s -o %t.stock.o
// RUN: %clang --target=bpf -O2 -g -ffreestanding -c %s -o %t.o
// RUN: llvm-dwarfdump --debug-line %t.stock.o | grep include_directories > %t.stock.dirs
// RUN: llvm-dwarfdump --debug-line %t.o | grep include_directories > %t.dirs
// RUN: diff %t.stock.dirs %t.dirs
// RUN: FileCheck %s --input-file=%t.dirs
#include <stddef.h>
#include <stdint.h>

// CHECK: include_directories[{{ *}}1] = "/usr/lib/llvm-22/lib/clang/22/include"

size_t size_of_u64 = sizeof(uint64_t);
