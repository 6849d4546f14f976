# nop_or_gotol is BPF_JMP32|BPF_JA (0x06) with src_reg 3
# (BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP), offset in imm.
# RUN: %llvm-mc -triple bpfel -show-encoding %s | FileCheck %s

nop_or_gotol +2
# CHECK: nop_or_gotol +2 # encoding: [0x06,0x30,0x00,0x00,0x02,0x00,0x00,0x00]
nop_or_gotol -32768
# CHECK: nop_or_gotol -32768 # encoding: [0x06,0x30,0x00,0x00,0x00,0x80,0xff,0xff]
