; The 16-bit forms work from asm goto too (encoded 0x05/0x10 and 0x05/0x30).
; RUN: %llc -mtriple=bpfel -mcpu=v3 -O2 -filetype=obj < %s -o %t.o
; RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

; CHECK: 05 10 {{.. ..}} 00 00 00 00 goto_or_nop +{{[0-9]+}} <[[A:LBB0_[0-9]+]]>
; CHECK: 05 30 {{.. ..}} 00 00 00 00 nop_or_goto +{{[0-9]+}} <[[B:LBB0_[0-9]+]]>
define i32 @two_sites(i32 %x) {
entry:
  callbr void asm sideeffect "goto_or_nop $0", "!i"()
          to label %next [label %a]
next:
  callbr void asm sideeffect "nop_or_goto $0", "!i"()
          to label %ret [label %b]
a:
  %ax = add i32 %x, 100
  ret i32 %ax
b:
  %bx = mul i32 %x, 3
  ret i32 %bx
ret:
  ret i32 %x
}
