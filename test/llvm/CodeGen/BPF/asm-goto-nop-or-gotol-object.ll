; In an object file the asm goto's nop_or_gotol is encoded 0x06/0x30 with the
; offset of the taken block in imm.
; RUN: %llc -mtriple=bpfel -mcpu=v4 -O2 -filetype=obj < %s -o %t.o
; RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

; CHECK-LABEL: <likely_branch>:
; CHECK-NEXT: 0: 06 30 00 00 02 00 00 00 nop_or_gotol +2 <[[OFF:LBB0_[0-9]+]]>
; CHECK-NEXT: 1: b4 00 00 00 05 00 00 00 w0 = 5
; CHECK-NEXT: 2: 95 00 00 00 00 00 00 00 exit
; CHECK:      <[[OFF]]>:
; CHECK-NEXT: 3: b4 00 00 00 07 00 00 00 w0 = 7
define i32 @likely_branch() {
entry:
  callbr void asm sideeffect "nop_or_gotol $0", "!i"()
          to label %on [label %off]
on:
  ret i32 5
off:
  ret i32 7
}
