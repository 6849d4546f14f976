# A static branch without a target is rejected.
# RUN: not %llvm-mc -triple bpfel %s 2>&1 | FileCheck %s

  nop_or_gotol
# CHECK: [[#@LINE-1]]:3: error: too few operands for instruction
  goto_or_nop
# CHECK: [[#@LINE-1]]:3: error: too few operands for instruction
