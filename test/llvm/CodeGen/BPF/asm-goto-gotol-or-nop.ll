; An asm goto with gotol_or_nop goes through llc: the asm printer keeps the
; instruction and the label operand names the taken block.
; RUN: %llc -mtriple=bpfel -mcpu=v4 -O2 < %s | FileCheck %s

define i32 @unlikely_branch() {
; CHECK-LABEL: unlikely_branch:
; CHECK:       gotol_or_nop [[YES:LBB[0-9_]+]]
; CHECK:       {{[rw]}}0 = 0
; CHECK:       exit
; CHECK:       [[YES]]:
; CHECK:       {{[rw]}}0 = 1
entry:
  callbr void asm sideeffect "gotol_or_nop $0", "!i"()
          to label %no [label %yes]
no:
  ret i32 0
yes:
  ret i32 1
}
