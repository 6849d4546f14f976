; SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
; The asm goto of bpf_static_keys.h, as IR: the .static_keys entry gets the
; relocations of docs/abi.md section 2 against the program's section symbol,
; with the likely flag (1) in the ABS64 field. llc resolves that field
; against the .maps section symbol (the key is at offset 0 of .maps, so the
; in-place value is just the flag); clang keeps the map symbol, which
; test/llvm/Clang checks.
; RUN: %llc -mtriple=bpfel -mcpu=v4 -O2 -filetype=obj < %s -o %t.o
; RUN: llvm-readelf -r -x .static_keys %t.o | FileCheck %s

; CHECK:      Relocation section '.rel.static_keys'
; CHECK:      0000000000000000 {{[0-9a-f]+}} R_BPF_64_NODYLD32 {{[0-9a-f]+}} xdp
; CHECK-NEXT: 0000000000000004 {{[0-9a-f]+}} R_BPF_64_ABS32 {{[0-9a-f]+}} xdp
; CHECK-NEXT: 0000000000000008 {{[0-9a-f]+}} R_BPF_64_ABS64 {{[0-9a-f]+}} {{key|\.maps}}
; CHECK:      Hex dump of section '.static_keys':
; CHECK-NEXT: 0x00000000 00000000 18000000 01000000 00000000

@key = dso_local global { ptr, ptr, ptr, ptr } zeroinitializer, section ".maps", align 8

define i32 @prog(ptr %ctx) section "xdp" {
entry:
  callbr void asm sideeffect "1:\0A\09nop_or_gotol ${1:l}\0A\09.pushsection .static_keys, \22aw\22\0A\09.balign 8\0A\09.long 1b - .\0A\09.long ${1:l} - .\0A\09.quad ${0:c} - . + 1\0A\09.popsection\0A\09", "i,!i"(ptr nonnull @key)
          to label %on [label %off]
on:
  ret i32 2
off:
  ret i32 3
}
