# The 16-bit forms reach exactly 32767 instructions forwards and 32768
# backwards, the limits of goto.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.o
# RUN: %llvm-objdump -d --no-print-imm-hex %t.o | FileCheck %s

back:
  .space 8*32767
  nop_or_goto back
  goto_or_nop fwd
  .space 8*32767
fwd:
  exit

# CHECK: 05 30 00 80 00 00 00 00 nop_or_goto -32768
# CHECK: 05 10 ff 7f 00 00 00 00 goto_or_nop +32767
