#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test), on the host's stock kernel, as root: what a flip
# by program replacement (libbpfkeys, docs/abi.md section 7) costs against
# the size of the programs (about 100, 1,000, 10,000 instructions) and
# their number (1 and 10 programs reaching one key), with no link, each on
# an XDP link of its own veth, and each on a tcx link, beside reloading the
# whole object (close, open, load, attach XDP), in one run. Medians of several rounds; see flip_latency.c for what is timed.
# In the same run, the patched kernel's flip of the same programs (one
# text-poke batch, flip_patched_guest.c) in qemu: TCG emulates the CPU, so
# its absolute times are not this host's (needs scripts/build-kernel.sh);
# and what one site costs a run there (the xlated and JIT-ed instructions a
# flip changes in prog_0, disassembled here with objdump).
#
#   bench/stock-flip/run.sh [ROUNDS]     (BPFSK_BUILD: the build, default build/ as scripts/demo.sh makes it; scripts/test.sh's is build-asan/)
# BENCH_SMOKE=1: one round at about 100 instructions, 1 and 2 programs (test/bench).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
insn_counts=(100 1000 10000) program_counts=(1 10)
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	rounds=${1:-1} insn_counts=(100) program_counts=(1 2)
else
	rounds=${1:-15}
fi
out=$build/bench/stock-flip
mkdir -p "$out"
# the library without sanitizers: a build of its own next to the tests' one
cmake -S "$repo" -B "$out/release" -G Ninja -DBPFSK_SANITIZE=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out/release" -j2 --target libbpfkeys >/dev/null
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$repo/libbpfkeys/include" \
	-I"$out/release/libbpfkeys/include" \
	-o "$out/flip_latency" "$repo/bench/stock-flip/flip_latency.c" \
	"$out/release/libbpfkeys/libbpfkeys.a" -lbpf -lelf -lz -lpthread

multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
cflags=(--target=bpf -O2 -g -mcpu=v4 -I/usr/include/$multiarch -I"$repo/runtime-headers")
for insns in "${insn_counts[@]}"; do
	for progs in "${program_counts[@]}"; do
		src=$out/bench_${insns}_${progs}.c
		{
			echo '#include <linux/bpf.h>'
			echo '#include <bpf/bpf_helpers.h>'
			echo '#include "bpf_static_keys.h"'
			echo 'DEFINE_STATIC_KEY_FALSE(bench_key);'
			# straight-line code the compiler cannot fold: one asm add per instruction
			printf '#define BODY'
			for ((i = 0; i < insns; i++)); do printf ' asm volatile("%%0 += 1" : "+r"(acc));'; done
			echo
			echo '#ifdef TC'
			echo '#define CTX struct __sk_buff'
			echo '#define SECTION "tc"'
			echo '#else'
			echo '#define CTX struct xdp_md'
			echo '#define SECTION "xdp"'
			echo '#endif'
			for ((p = 0; p < progs; p++)); do
				echo "SEC(SECTION) int prog_$p(CTX *ctx)"
				echo '{ __u64 acc = ctx->data_end - ctx->data;'
				echo '  if (bpf_static_branch_unlikely(&bench_key)) acc += 7;'
				echo '  BODY'
				echo '  return acc & 1; }'
			done
			echo 'char LICENSE[] SEC("license") = "GPL";'
		} > "$src"
		# the same programs as XDP and as tc (for tcx links)
		for kind in xdp tc; do
			def=(); [ $kind = tc ] && def=(-DTC)
			"$build/bin/clang" "${cflags[@]}" "${def[@]}" -c "$src" -o "$out/bench_${kind}_${insns}_${progs}.o"
			"$build/bin/bpfld" -o "$out/linked_${kind}_${insns}_${progs}.o" "$out/bench_${kind}_${insns}_${progs}.o"
		done
	done
done

# the patched kernel's flip of the same objects, resolved, in one qemu run
# (flips per row: 100 per round, as many rounds as the host's)
guest_files=$out/qemu-files
rm -rf "$guest_files" && mkdir -p "$guest_files"
echo $((rounds * 100)) > "$guest_files/flips"
for insns in "${insn_counts[@]}"; do
	for progs in "${program_counts[@]}"; do
		"$build/bin/bpfkeys" resolve "$out/linked_xdp_${insns}_${progs}.o" \
			-o "$guest_files/resolved_${insns}_${progs}.o"
		echo "$insns $progs" >> "$guest_files/rows"
	done
done
if ! BPFSK_QEMU_FILES=$guest_files BPFSK_QEMU_TIMEOUT=${BPFSK_QEMU_TIMEOUT:-1800} \
	"$repo/scripts/qemu-run.sh" "$repo/bench/stock-flip/flip_patched_guest.c" > "$out/qemu.log" 2>&1; then
	grep -a -e FAIL -e 'qemu-run' "$out/qemu.log" >&2 || tail -20 "$out/qemu.log" >&2
	echo "bench/stock-flip: the patched kernel's run failed (log: $out/qemu.log)" >&2
	exit 1
fi
patched_cell() {	# INSNS PROGS: "median us (min us)" of the guest's row
	awk -v i="$1" -v p="$2" '$1 == "patched-flip" && $2 == i && $3 == p {
		m = $4 >= 1000 ? sprintf("%.1f ms", $4 / 1000) : sprintf("%.0f us", $4)
		n = $5 >= 1000 ? sprintf("%.1f ms", $5 / 1000) : sprintf("%.0f us", $5)
		print m " (" n ")" }' "$out/qemu.log" | tr -d '\r'
}

echo "bench/stock-flip: $(uname -r), $(nproc) CPUs, $rounds rounds (median, min), host shared with other work;" \
	"patched kernel: 6.12 + series in qemu TCG, $((rounds * 100)) flips per row (emulated CPU)"
printf '%-16s %-6s %-18s %-18s %-18s %-18s %-18s %-7s %-18s %-20s %-18s %-18s %-7s %-18s %-20s %-20s %-18s %-8s %s\n' \
	"insns x progs" "xlated" "flip, no links" "flip, XDP links" "flip, tcx links" "prepared, tcx" \
	"updates, tcx" "ratio" "window, tcx (max)" "prepared, XDP" "updates, XDP" "ratio" "XDP, threads" "window, XDP (max)" \
	"window, 2 XDP (max)" "reload + attach" "reload/flip" "patched kernel flip (qemu)"
for insns in "${insn_counts[@]}"; do
	for progs in "${program_counts[@]}"; do
		row=$("$out/flip_latency" "$out/linked_xdp_${insns}_${progs}.o" "$out/linked_tc_${insns}_${progs}.o" \
			"$rounds" "$insns x $progs")
		printf '%s %s\n' "$row" "$(patched_cell "$insns" "$progs")"
	done
done

# one site's run cost in the patched kernel: prog_0 of the first row, key off and on
sed -n 's/^patched-xlated \(.*\)/\1/p' "$out/qemu.log" | tr -d '\r' |
	sed 's/^/patched kernel, one site (prog_0, xlated): /'
for state in off on; do
	sed -n "s/^patched-jit $state \([0-9a-f]*\).*/\1/p" "$out/qemu.log" | tr -d '\r' | xxd -r -p > "$out/jit-$state.bin"
	objdump -D -b binary -m i386:x86-64 "$out/jit-$state.bin" | grep -E '^ +[0-9a-f]+:' |
		sed 's/^ *//' > "$out/jit-$state.txt"
done
echo "patched kernel, one site (prog_0, x86-64 JIT): $(wc -l < "$out/jit-off.txt") insns," \
	"$({ diff "$out/jit-off.txt" "$out/jit-on.txt" || true; } | grep -c '^<') changed by a flip:"
# (diff exits 1 when the images differ, as they must)
{ diff "$out/jit-off.txt" "$out/jit-on.txt" || true; } | grep -E '^[<>]' |
	sed -e 's/^</  off:/' -e 's/^>/  on: /' | tr -s '\t' ' '
