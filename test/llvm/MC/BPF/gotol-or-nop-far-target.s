# The 32-bit forms reach targets beyond the 16-bit range of goto.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.o
# RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

  gotol_or_nop far
  nop_or_gotol far
  .space 8*40000
far:
  exit

# 40001 = 0x9c41, 40000 = 0x9c40
# CHECK: 06 10 00 00 41 9c 00 00 gotol_or_nop +40001
# CHECK: 06 30 00 00 40 9c 00 00 nop_or_gotol +40000
