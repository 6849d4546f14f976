; At -O2 neither edge of a static branch is dropped: the asm goto is opaque,
; so the code of both the fall-through and the taken path is emitted, and
; each is reached from the gotol_or_nop.
; RUN: %llc -mtriple=bpfel -mcpu=v4 -O2 < %s | FileCheck %s

declare i32 @slow_path(i32)
declare i32 @fast_path(i32)

define i32 @both_paths(i32 %x) {
; CHECK-LABEL: both_paths:
; CHECK:       gotol_or_nop [[SLOW:LBB[0-9_]+]]
; CHECK:       call fast_path
; CHECK:       [[SLOW]]:
; CHECK:       call slow_path
entry:
  callbr void asm sideeffect "gotol_or_nop $0", "!i"()
          to label %fast [label %slow]
fast:
  %f = call i32 @fast_path(i32 %x)
  ret i32 %f
slow:
  %s = call i32 @slow_path(i32 %x)
  ret i32 %s
}
