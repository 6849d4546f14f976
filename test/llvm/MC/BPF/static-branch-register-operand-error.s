# The operand of a static branch is a label or an offset, not a register.
# RUN: not %llvm-mc -triple bpfel %s 2>&1 | FileCheck %s

  gotol_or_nop r1
# CHECK: [[#@LINE-1]]:16: error: operand is not an identifier or 16-bit signed integer
  nop_or_goto r2
# CHECK: [[#@LINE-1]]:15: error: operand is not an identifier or 16-bit signed integer
