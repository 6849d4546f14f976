# A jump has no relocation: a target outside the section is an error, not a
# silently wrong R_BPF_64_64 on the jump (what stock llvm-mc-22 writes).
# RUN: not %llvm-mc -triple bpfel -filetype=obj %s -o %t.o 2>&1 | FileCheck %s

  gotol_or_nop undefined_label
# CHECK: [[#@LINE-1]]:16: error: jump target must be a label in the same section
  goto_or_nop other
# CHECK: [[#@LINE-1]]:15: error: jump target must be a label in the same section
  exit

  .section .text.other,"ax",@progbits
other:
  exit
