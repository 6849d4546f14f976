#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# every-mcpu.sh OUT CC "MCPU..." [CFLAGS...]
#
# Compiles Inputs/both_polarities.c with CC at each -mcpu (a word "default"
# passes none), then for each object prints, prefixed with the cpu:
#   sites:    the static branches as the patched llvm-objdump shows them
#             (the first two bytes and the mnemonic)
#   resolved: the summary line of `bpfkeys list` of the resolved object
#   initial / flipped: the lowered object (keys as declared / both flipped)
#             run on the host kernel (bpf_run, from BPFSK_BPF_RUN)
# Stops at the first failing step, naming the cpu.
set -euo pipefail
out=$1 cc=$2 cpus=$3
shift 3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${BPFSK_BUILD:-$here/../../../build}/bin
run=${BPFSK_BPF_RUN:?BPFSK_BPF_RUN names the host-kernel runner}
mkdir -p "$out"
for cpu in $cpus; do
	flag=(-mcpu="$cpu")
	[ "$cpu" = default ] && flag=()
	o=$out/$cpu
	"$cc" "$@" "${flag[@]}" -c "$here/both_polarities.c" -o "$o.o" ||
		{ echo "every-mcpu.sh: $cpu: $cc failed" >&2; exit 1; }
	"$bin/llvm-objdump" -d "$o.o" | awk -v cpu="$cpu" \
		'/_or_nop|nop_or_/ { print cpu ": sites: " $2 " " $3 " " $10 }'
	"$bin/bpfkeys" resolve "$o.o" -o "$o.resolved.o"
	"$bin/bpfkeys" list "$o.resolved.o" | sed -n "1s/^/$cpu: resolved: /p"
	"$bin/bpfkeys" lower "$o.o" -o "$o.initial.o"
	"$bin/bpfkeys" lower --set debug_key=on --set fast_key=off "$o.o" -o "$o.flipped.o"
	"$run" "$o.initial.o" | sed "s/^/$cpu: initial: /"
	"$run" "$o.flipped.o" | sed "s/^/$cpu: flipped: /"
done
