#!/usr/bin/env bash
# Benchmark (not a test), on the host's stock kernel, as root: what a flip
# by program replacement (libbpfkeys, docs/abi.md section 7) costs against
# the size of the programs (about 100, 1,000, 10,000 instructions) and
# their number (1 and 10 programs reaching one key), with no link, each on
# an XDP link of its own veth, and each on a tcx link, beside reloading the
# whole object (close, open, load, attach XDP), in one run. Medians of several rounds; see flip_latency.c for what is timed.
# The patched kernel's batched flip is bench/flip-batch (qemu TCG: not
# comparable in absolute time with this host).
#
#   bench/stock-flip/run.sh [ROUNDS]     (BPFSK_BUILD as for the tests)
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
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$repo/libbpfkeys" \
	-o "$out/flip_latency" "$repo/bench/stock-flip/flip_latency.c" \
	"$out/release/libbpfkeys/libbpfkeys.a" "$out/release/bpfkeys/libbpfkeys_core.a" \
	"$out/release/elfobj/libelfobj.a" -lbpf -lelf -lz

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
echo "bench/stock-flip: $(uname -r), $(nproc) CPUs, $rounds rounds (median, min), host shared with other work"
printf '%-18s %-11s %-20s %-20s %-20s %-20s %s\n' "insns x programs" "xlated/prog" "flip, no links" \
	"flip, XDP links" "flip, tcx links" "reload + attach" "reload / flip"
for insns in "${insn_counts[@]}"; do
	for progs in "${program_counts[@]}"; do
		"$out/flip_latency" "$out/linked_xdp_${insns}_${progs}.o" "$out/linked_tc_${insns}_${progs}.o" \
			"$rounds" "$insns x $progs"
	done
done
