# Near-misses of the new mnemonics are not accepted.
# RUN: not %llvm-mc -triple bpfel %s 2>&1 | FileCheck %s

  gotol_or_nops l
# CHECK: [[#@LINE-1]]:3: error: invalid register/token name
  nop_or_goto_l l
# CHECK: [[#@LINE-1]]:3: error: invalid register/token name
l:
  exit
