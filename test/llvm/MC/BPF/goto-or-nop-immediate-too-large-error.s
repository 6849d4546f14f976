# A numeric offset of a 16-bit static branch must fit in 16 bits.
# RUN: not %llvm-mc -triple bpfel %s 2>&1 | FileCheck %s

  goto_or_nop 32768
# CHECK: [[#@LINE-1]]:15: error: operand is not an identifier or 16-bit signed integer
  nop_or_goto -32769
# CHECK: [[#@LINE-1]]:15: error: operand is not an identifier or 16-bit signed integer
