# A JA whose src_reg or dst_reg holds something else than the static-branch
# flags is not printed as a plain goto/gotol: the decoder checks the register
# byte (upstream ignored it).
# RUN: %llvm-mc -triple bpfel --disassemble %s 2>%t.err | FileCheck --allow-empty --implicit-check-not=goto %s
# RUN: FileCheck %s --check-prefix=WARN --input-file=%t.err

# src_reg 2: BPF_STATIC_BRANCH_NOP without BPF_STATIC_BRANCH_JA
0x05 0x20 0x01 0x00 0x00 0x00 0x00 0x00
# WARN: [[#@LINE-1]]:1: warning: invalid instruction encoding
0x06 0x20 0x00 0x00 0x01 0x00 0x00 0x00
# WARN: [[#@LINE-1]]:1: warning: invalid instruction encoding
# dst_reg 1
0x05 0x01 0x01 0x00 0x00 0x00 0x00 0x00
# WARN: [[#@LINE-1]]:1: warning: invalid instruction encoding
