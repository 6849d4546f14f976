# The bytes the object file holds for label operands.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.o
# RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

  gotol_or_nop l
  nop_or_gotol l
  goto_or_nop l
  nop_or_goto l
l:
  exit

# CHECK: 06 10 00 00 03 00 00 00 gotol_or_nop +3
# CHECK: 06 30 00 00 02 00 00 00 nop_or_gotol +2
# CHECK: 05 10 01 00 00 00 00 00 goto_or_nop +1
# CHECK: 05 30 00 00 00 00 00 00 nop_or_goto +0
