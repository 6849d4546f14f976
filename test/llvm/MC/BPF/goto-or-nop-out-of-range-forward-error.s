# A 16-bit static branch whose target is 32768 instructions ahead cannot be
# encoded: the assembler reports an error at the instruction (no relaxation,
# no truncated offset) and writes no object.
# RUN: rm -f %t.o
# RUN: not %llvm-mc -triple bpfel -filetype=obj %s -o %t.o 2>&1 | FileCheck %s
# RUN: not test -e %t.o

  goto_or_nop far
# CHECK: [[#@LINE-1]]:15: error: branch target out of insn range
  .space 8*32768
far:
  exit
