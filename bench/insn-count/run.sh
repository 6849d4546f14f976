#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Benchmark (not a test): retired guest instructions per run of the same
# small XDP program with its condition written as no branch, a static branch
# (key off, key on), a const volatile global, a writable global and an array
# map lookup, in the patched kernel under qemu TCG with -icount shift=0:
# the guest's clock then advances exactly 1 ns per guest instruction, so
# BPF_PROG_TEST_RUN's time over REPEAT runs is a count of instructions
# (README.md: why it is exact, what it includes). Also prints each
# program's JIT image, disassembled, so the counts can be read instruction
# by instruction.
#
#   bench/insn-count/run.sh [REPEAT [ROUNDS]]     (default 1000000 runs, 5 rounds)
#   BPFSK_ARCH=arm64 bench/insn-count/run.sh      (the arm64 kernel, qemu-system-aarch64)
#   BENCH_SMOKE=1 bench/insn-count/run.sh         (10,000 runs, 1 round: test/bench)
# (needs scripts/build-llvm.sh, the C tools and scripts/build-kernel.sh; BPFSK_BUILD: the build, default build/ as scripts/demo.sh makes it; scripts/test.sh's is build-asan/)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	repeat=${1:-10000} rounds=${2:-1}
else
	repeat=${1:-1000000} rounds=${2:-5}
fi
case "${BPFSK_ARCH:-x86_64}" in
	x86_64 | x86 | amd64) arch=x86_64 objdump=(objdump -m i386:x86-64) ;;
	arm64 | aarch64) arch=arm64 objdump=(aarch64-linux-gnu-objdump -m aarch64) ;;
	*) echo "bench/insn-count: BPFSK_ARCH=$BPFSK_ARCH: x86_64 or arm64" >&2; exit 2 ;;
esac
out=$build/bench/insn-count-$arch
files=$out/qemu-files
rm -rf "$out" && mkdir -p "$files"

# the project's flow: patched clang, bpfld, bpfkeys resolve (as scripts/demo.sh)
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
"$build/bin/clang" --target=bpf -O2 -g -mcpu=v4 -I/usr/include/"$multiarch" \
	-I"$repo/runtime-headers" -c "$repo/bench/insn-count/variants.c" -o "$out/variants.o"
"$build/bin/bpfld" -o "$out/linked.o" "$out/variants.o"
"$build/bin/bpfkeys" resolve "$out/linked.o" -o "$files/insn_count.o"
echo "$repeat $rounds" >"$files/params"

# icount needs one TCG thread; sleep=off: the clock does not run while the
# guest idles, so it is the instruction count alone
if ! BPFSK_QEMU_FILES=$files BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_ARGS="-icount shift=0,sleep=off" \
	BPFSK_QEMU_TIMEOUT=${BPFSK_QEMU_TIMEOUT:-1800} \
	"$repo/scripts/qemu-run.sh" "$repo/bench/insn-count/insn_count_guest.c" >"$out/qemu.log" 2>&1; then
	grep -a -e FAIL -e qemu-run "$out/qemu.log" >&2 || tail -20 "$out/qemu.log" >&2
	echo "bench/insn-count: the guest run failed (log: $out/qemu.log)" >&2
	exit 1
fi
tr -d '\r' <"$out/qemu.log" >"$out/guest.log"

# each JIT image, disassembled: one instruction a line
for name in $(awk '$1 == "jited" { print $2 }' "$out/guest.log"); do
	awk -v n="$name" '$1 == "jited" && $2 == n { print $3 }' "$out/guest.log" | xxd -r -p >"$out/$name.bin"
	"${objdump[@]}" -D -b binary --insn-width=16 "$out/$name.bin" | grep -E '^ +[0-9a-f]+:' |
		sed -e 's/^ *//' -e 's/[[:space:]]\+/ /g' >"$out/$name.txt"
done

echo "bench/insn-count: $arch, patched 6.12 kernel under qemu TCG -icount shift=0 (1 ns = 1 guest instruction)," \
	"$(awk '$1 == "clocksource" { print $2 }' "$out/guest.log") clocksource; $repeat runs per BPF_PROG_TEST_RUN," \
	"$rounds round(s): median (min-max)"
awk -v arch="$arch" -v dir="$out" '
function cell(med, lo, hi, fmt) {
	return sprintf(fmt " (" fmt "-" fmt ")", med, lo, hi)
}
function jit_insns(name,   n, line) {
	n = 0
	while ((getline line < (dir "/" name ".txt")) > 0)
		n++
	close(dir "/" name ".txt")
	return n
}
$1 == "variant" {
	name[++n] = $2; tr_med[n] = $6; tr_lo[n] = $5; tr_hi[n] = $7
	c_med[n] = $9; c_lo[n] = $8; c_hi[n] = $10; guarded[n] = $4
}
END {
	desc["no_branch"] = "(a) no branch"
	desc["calibration"] = "no branch + 101 ALU insns"
	desc["always"] = "no branch, guarded path runs"
	desc["static_off"] = "(b) static branch, key off"
	desc["static_on"] = "(c) static branch, key on"
	desc["rodata_global"] = "(d) const volatile global"
	desc["bss_global"] = "(d2) writable global (.bss)"
	desc["map_lookup"] = "(e) array map lookup"
	desc["hash_lookup"] = "(e2) hash map lookup"
	printf "| %-28s | %-7s | %-24s | %-30s | %-14s | %-9s |\n", "variant", "guarded", \
		"test_run ns = insns/run", "syscall / runs = insns/run", "over (a)", "JIT insns"
	printf "|%s|%s|%s|%s|%s|%s|\n", "------------------------------", "---------", \
		"--------------------------", "--------------------------------", "----------------", "-----------"
	for (i = 1; i <= n; i++) {
		if (name[i] == "no_branch") base = tr_med[i]
	}
	lo = 1e9; hi = -1e9
	for (i = 1; i <= n; i++) {
		printf "| %-28s | %-7s | %-24s | %-30s | %+14d | %9d |\n", desc[name[i]], guarded[i], \
			cell(tr_med[i], tr_lo[i], tr_hi[i], "%d"), cell(c_med[i], c_lo[i], c_hi[i], "%.2f"), \
			tr_med[i] - base, jit_insns(name[i])
		if (c_lo[i] - tr_hi[i] < lo) lo = c_lo[i] - tr_hi[i]
		if (c_hi[i] - tr_lo[i] > hi) hi = c_hi[i] - tr_lo[i]
	}
	# what the rounding down drops: interrupts during the loop, the syscall fixed cost
	printf "syscall / runs - test_run: %+.2f to %+.2f insns/run over all rows and rounds\n", lo, hi
}' "$out/guest.log"

# the calibration program is straight-line code, as is no_branch: each runs
# every JIT instruction up to its (only) ret once, so the measured difference
# must be the difference of those counts
path_to_ret() {	# NAME: JIT instructions from the entry to the first ret
	awk '{ n++ } / (ret|retq)$/ { print n; found = 1; exit } END { if (!found) print "no-ret" }' "$out/$1.txt"
}
awk -v cal="$(path_to_ret calibration)" -v base="$(path_to_ret no_branch)" '
$1 == "variant" && $2 == "no_branch" { tb = $6; b = $9 }
$1 == "variant" && $2 == "calibration" { tc = $6; c = $9 }
END { printf "calibration: straight-line, %d more JIT instructions up to ret; measured %+d (test_run), %+.2f (syscall / runs)\n", cal - base, tc - tb, c - b }' "$out/guest.log"

echo
echo "JIT images ($arch):"
for name in no_branch always static_off static_on rodata_global bss_global map_lookup hash_lookup; do
	echo "--- $name ($(wc -l <"$out/$name.txt") insns)"
	cut -d' ' -f1,2- "$out/$name.txt" | sed 's/^/  /'
done
