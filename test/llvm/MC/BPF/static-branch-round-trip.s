# Assemble, disassemble, reassemble the disassembly: the same bytes.
# RUN: %llvm-mc -triple bpfel -filetype=obj %s -o %t.1.o
# RUN: %llvm-objdump -d --no-print-imm-hex --no-show-raw-insn --no-leading-addr %t.1.o \
# RUN:   | sed -n 's/^[[:space:]]*\(\(goto\|nop\|exit\|r0\).*\)$/\1/p' \
# RUN:   | sed 's/ <.*>$//' > %t.s
# RUN: FileCheck %s --input-file=%t.s
# RUN: %llvm-mc -triple bpfel -filetype=obj %t.s -o %t.2.o
# RUN: llvm-objcopy -O binary --only-section=.text %t.1.o %t.1.bin
# RUN: llvm-objcopy -O binary --only-section=.text %t.2.o %t.2.bin
# RUN: cmp %t.1.bin %t.2.bin

a:
  gotol_or_nop b
  nop_or_gotol b
  goto_or_nop b
  nop_or_goto a
  r0 = 0
b:
  exit

# CHECK:      gotol_or_nop +4
# CHECK-NEXT: nop_or_gotol +3
# CHECK-NEXT: goto_or_nop +2
# CHECK-NEXT: nop_or_goto -4
# CHECK-NEXT: r0 = 0
# CHECK-NEXT: exit
