#!/usr/bin/env bash
# Benchmark (not a test): time `bpfkeys resolve` on generated objects with
# 1k, 10k, 100k and 1M static-key sites, and print the growth per 10x step
# next to n log n's; llvm-objcopy copying the same object is the peer, a
# linear pass over the same bytes, measured in the same run.
#
#   bench/bpfkeys/run.sh [BPFKEYS] [SIZES...]
# BPFKEYS defaults to build/bin/bpfkeys (build without BPFSK_SANITIZE for
# meaningful numbers). Each time is the best of 3 runs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bpfkeys=${1:-$repo/build/bin/bpfkeys}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000 1000000)
objcopy=/usr/lib/llvm-22/bin/llvm-objcopy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -Wextra -Werror "$repo/bench/bpfkeys/gen.c" -lelf -lbpf -o "$work/gen"

best_of_3() { # command... -> seconds (best of 3)
	local best= t0 t1 t
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		t=$(( t1 - t0 ))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }'
}

printf '%-9s %10s %10s %9s %12s %9s %11s %9s\n' sites "resolve_s" "ns/site" "growth" "nlogn_growth" "peer_s" "resolve/peer" "obj_MB"
prev_n= prev_t=
for n in "${sizes[@]}"; do
	"$work/gen" "$n" "$work/in.o" >/dev/null
	t=$(best_of_3 "$bpfkeys" resolve "$work/in.o" -o "$work/out.o")
	"$bpfkeys" resolve "$work/in.o" -o "$work/out.o" 2>/dev/null # must succeed
	peer=$(best_of_3 "$objcopy" "$work/in.o" "$work/copy.o")
	mb=$(awk -v b="$(stat -c %s "$work/in.o")" 'BEGIN { printf "%.1f", b / 1048576 }')
	if [ -n "$prev_n" ]; then
		growth=$(awk -v a="$t" -v b="$prev_t" 'BEGIN { printf "%.2fx", a / b }')
		nlogn=$(awk -v n="$n" -v p="$prev_n" 'BEGIN { printf "%.2fx", n * log(n) / (p * log(p)) }')
	else
		growth=- nlogn=-
	fi
	printf '%-9s %10s %10.0f %9s %12s %9s %11.2f %9s\n' "$n" "$t" \
		"$(awk -v t="$t" -v n="$n" 'BEGIN { print t * 1e9 / n }')" "$growth" "$nlogn" "$peer" \
		"$(awk -v a="$t" -v b="$peer" 'BEGIN { print (b > 0) ? a / b : 0 }')" "$mb"
	prev_n=$n prev_t=$t
done
