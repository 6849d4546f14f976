#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# examples/tracepoint-counter on the host kernel: syscount follows a dd that
# copies byte by byte (a read(2) and a write(2) per byte), counting in a map
# of 64 syscall numbers, for 1 s with per_syscall off, flips it on, and
# follows it 1 s more.
# Usage: syscount-session.sh SYSCOUNT LINKED.o
set -uo pipefail
dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
workload=$!
trap 'kill $workload 2>/dev/null' EXIT
"$1" "$workload" 1 "$2" 64
echo "exit $?"
