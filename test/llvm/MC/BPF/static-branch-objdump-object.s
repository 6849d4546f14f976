# llvm-objdump -d prints the new mnemonics with their raw bytes and the
# target, from an object holding the raw encodings.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.o
# RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

  .text
  .globl f
f:
  .byte 0x06, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00
  .byte 0x06, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
  .byte 0x05, 0x10, 0xfd, 0xff, 0x00, 0x00, 0x00, 0x00
  .byte 0x05, 0x30, 0xfc, 0xff, 0x00, 0x00, 0x00, 0x00
  .byte 0x95, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00

# CHECK:      <f>:
# CHECK-NEXT: 0: 06 10 00 00 01 00 00 00 gotol_or_nop +1 <f+0x10>
# CHECK-NEXT: 1: 06 30 00 00 00 00 00 00 nop_or_gotol +0 <f+0x10>
# CHECK-NEXT: 2: 05 10 fd ff 00 00 00 00 goto_or_nop -3 <f>
# CHECK-NEXT: 3: 05 30 fc ff 00 00 00 00 nop_or_goto -4 <f>
# CHECK-NEXT: 4: 95 00 00 00 00 00 00 00 exit
