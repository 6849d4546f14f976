# A label operand is resolved by the same pc-relative fixups as gotol
# (FK_BPF_PCRel_4, imm) and goto (FK_Data_2, off): offsets count instructions
# from the next one, forwards and backwards, and need no relocation.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.o
# RUN: %llvm-objdump -d --no-print-imm-hex --no-show-raw-insn %t.o | FileCheck %s
# RUN: llvm-readelf -r %t.o | FileCheck %s --check-prefix=RELOC

top:
  gotol_or_nop out
  nop_or_gotol out
  goto_or_nop out
  nop_or_goto out
  r0 = 1
out:
  gotol_or_nop top
  nop_or_gotol top
  goto_or_nop top
  nop_or_goto top
  exit

# CHECK:      0: gotol_or_nop +4 <out>
# CHECK-NEXT: 1: nop_or_gotol +3 <out>
# CHECK-NEXT: 2: goto_or_nop +2 <out>
# CHECK-NEXT: 3: nop_or_goto +1 <out>
# CHECK-NEXT: 4: r0 = 1
# CHECK:      5: gotol_or_nop -6 <top>
# CHECK-NEXT: 6: nop_or_gotol -7 <top>
# CHECK-NEXT: 7: goto_or_nop -8 <top>
# CHECK-NEXT: 8: nop_or_goto -9 <top>
# RELOC: There are no relocations in this file.
