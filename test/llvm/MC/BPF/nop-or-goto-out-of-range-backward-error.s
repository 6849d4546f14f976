# A backward 16-bit static branch one instruction past -32768 is an error.
# RUN: not %llvm-mc -triple bpfel -filetype=obj %s -o %t.o 2>&1 | FileCheck %s

back:
  .space 8*32768
  nop_or_goto back
# CHECK: [[#@LINE-1]]:15: error: branch target out of insn range
  exit
