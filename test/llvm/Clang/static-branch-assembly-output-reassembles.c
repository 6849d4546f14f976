// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// clang -S prints the static branches (as the header spells them: the bytes
// of gotol_or_nop, 06 10, and nop_or_gotol, 06 30, then the offset in
// instructions), and assembling that output gives the same code as
// compiling straight to an object.
// RUN: %clang %bpf_cflags -g0 -c %s -o %t.direct.o
// RUN: %clang %bpf_cflags -g0 -S %s -o %t.s
// RUN: FileCheck %s --input-file=%t.s
// RUN: %clang --target=bpf -mcpu=v4 -c %t.s -o %t.via-asm.o
// RUN: llvm-objcopy -O binary --only-section=xdp %t.direct.o %t.direct.bin
// RUN: llvm-objcopy -O binary --only-section=xdp %t.via-asm.o %t.via-asm.bin
// RUN: cmp %t.direct.bin %t.via-asm.bin
// RUN: llvm-readelf -r %t.direct.o | sed -n '/rel.static_keys/,/^$/p' | awk '/R_BPF/ {print $1, $3, $4, $5}' > %t.direct.rel
// RUN: llvm-readelf -r %t.via-asm.o | sed -n '/rel.static_keys/,/^$/p' | awk '/R_BPF/ {print $1, $3, $4, $5}' > %t.via-asm.rel
// RUN: FileCheck %s --check-prefix=REL --input-file=%t.direct.rel
// RUN: diff %t.direct.rel %t.via-asm.rel
// RUN: llvm-readelf -x .static_keys %t.direct.o > %t.direct.hex
// RUN: llvm-readelf -x .static_keys %t.via-asm.o > %t.via-asm.hex
// RUN: diff %t.direct.hex %t.via-asm.hex
#include <bpf_static_keys.h>

DEFINE_STATIC_KEY_FALSE(k1);
DEFINE_STATIC_KEY_TRUE(k2);
int f(int);

SEC("xdp")
int prog(void *ctx)
{
	int x = 0;

	if (bpf_static_branch_unlikely(&k1))
		x = f(1);
	if (bpf_static_branch_likely(&k2))
		x += 2;
	return x;
}

// CHECK:      #APP
// CHECK-NEXT: [[SITE1:.Ltmp[0-9]+]]:
// CHECK-NEXT: .byte 6
// CHECK-NEXT: .byte 16
// CHECK-NEXT: .byte 0
// CHECK-NEXT: .byte 0
// CHECK-NEXT: .long ([[L1:LBB0_[0-9]+]]-[[SITE1]]-8)/8
// CHECK:      #APP
// CHECK-NEXT: [[SITE2:.Ltmp[0-9]+]]:
// CHECK-NEXT: .byte 6
// CHECK-NEXT: .byte 48
// CHECK-NEXT: .byte 0
// CHECK-NEXT: .byte 0
// CHECK-NEXT: .long ([[L2:LBB0_[0-9]+]]-[[SITE2]]-8)/8
// REL: 0000000000000000 R_BPF_64_NODYLD32 0000000000000000 xdp
// REL: 0000000000000018 R_BPF_64_ABS64 0000000000000020 k2
