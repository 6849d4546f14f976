# goto and conditional jumps share the 16-bit fixup: out of range they get the
# same diagnostic (upstream aborted with "LLVM ERROR" and a stack dump).
# RUN: not %llvm-mc -triple bpfel -filetype=obj %s -o %t.o 2>&1 | FileCheck %s
# CHECK-NOT: LLVM ERROR
# CHECK-NOT: Stack dump

  goto far
# CHECK: [[#@LINE-1]]:8: error: branch target out of insn range
  if r1 == 0 goto far
# CHECK: [[#@LINE-1]]:19: error: branch target out of insn range
  .space 8*40000
far:
  exit
