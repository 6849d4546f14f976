#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Benchmark (not a test): time `bpfkeys resolve` on generated objects with
# 1k, 10k, 100k and 1M static-key sites, at 1000, 10 and 1 sites per
# function (so 1k to 1M functions), and print the growth per 10x step next
# to n log n's; llvm-objcopy copying the same object is the peer, a linear
# pass over the same bytes, measured in the same run.
#
#   bench/bpfkeys/run.sh [BPFKEYS] [SIZES...]
# BPFKEYS defaults to build/bin/bpfkeys (build without BPFSK_SANITIZE for
# meaningful numbers). Environment: SITES_PER_FUNCTION (default "1000 10 1"),
# RUNS (default 3). Each time is the best of RUNS runs: wall time, and the CPU
# time (user + system) of that run, which other load on the machine disturbs
# less. The last columns are bpfkeys' CPU time over all RUNS runs: median,
# min-max spread, and the growth per step of the medians (on a shared machine
# one delayed run moves a best-of-3 growth by several x; use RUNS=9 or more).
# BENCH_SMOKE=1: 1,000 sites, one run (test/bench).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bpfkeys=${1:-$repo/build/bin/bpfkeys}
shift || true
sizes=("$@")
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	[ ${#sizes[@]} -gt 0 ] || sizes=(1000)
	runs=${RUNS:-1}
else
	[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000 1000000)
	runs=${RUNS:-3}
fi
read -r -a per_function <<<"${SITES_PER_FUNCTION:-1000 10 1}"
objcopy=/usr/lib/llvm-22/bin/llvm-objcopy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O2 -Wall -Wextra -Werror "$repo/bench/bpfkeys/gen.c" -lelf -lbpf -o "$work/gen"

# command... -> "wall_s cpu_s cpu_median cpu_min cpu_max": the fastest of RUNS
# runs (wall, and that run's CPU time), then the CPU time over all runs; fails
# if the command does
best() {
	python3 - "$runs" "$@" <<-'PY'
	import resource, statistics, subprocess, sys, time
	best = None
	cpus = []
	for _ in range(int(sys.argv[1])):
	    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
	    t0 = time.perf_counter()
	    subprocess.run(sys.argv[2:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	    wall = time.perf_counter() - t0
	    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
	    cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
	    cpus.append(cpu)
	    if best is None or wall < best[0]:
	        best = (wall, cpu)
	print("%.4f %.4f %.4f %.4f %.4f" % (best + (statistics.median(cpus), min(cpus), max(cpus))))
	PY
}

for spf in "${per_function[@]}"; do
	echo "sites per function: $spf"
	printf '%-9s %9s %8s %8s %8s %12s %8s %8s %10s %9s %7s %8s %15s %10s\n' sites resolve_s \
		cpu_s ns/site growth nlogn_growth peer_s peer_cpu wall/peer cpu/peer obj_MB cpu_med \
		cpu_min-max cpu_growth
	prev_n= prev_t= prev_med=
	for n in "${sizes[@]}"; do
		"$work/gen" "$n" "$work/in.o" 64 "$spf" >/dev/null
		read -r t cpu med lo hi < <(best "$bpfkeys" resolve "$work/in.o" -o "$work/out.o")
		"$bpfkeys" resolve "$work/in.o" -o "$work/out.o" 2>/dev/null # must succeed
		read -r peer peer_cpu _ < <(best "$objcopy" "$work/in.o" "$work/copy.o")
		if [ -n "$prev_n" ]; then
			growth=$(awk -v a="$t" -v b="$prev_t" 'BEGIN { printf "%.2fx", a / b }')
			nlogn=$(awk -v n="$n" -v p="$prev_n" 'BEGIN { printf "%.2fx", n * log(n) / (p * log(p)) }')
			cpu_growth=$(awk -v a="$med" -v b="$prev_med" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
		else
			growth=- nlogn=- cpu_growth=-
		fi
		awk -v n="$n" -v t="$t" -v c="$cpu" -v g="$growth" -v l="$nlogn" -v p="$peer" \
			-v pc="$peer_cpu" -v b="$(stat -c %s "$work/in.o")" -v m="$med" -v lo="$lo" \
			-v hi="$hi" -v cg="$cpu_growth" 'BEGIN {
			printf("%-9s %9.4f %8.4f %8.0f %8s %12s %8.4f %8.4f %10.2f %9.2f %7.1f %8.4f %15s %10s\n",
			       n, t, c, t * 1e9 / n, g, l, p, pc, p > 0 ? t / p : 0,
			       pc > 0 ? c / pc : 0, b / 1048576, m, sprintf("%.4f-%.4f", lo, hi), cg) }'
		prev_n=$n prev_t=$t prev_med=$med
	done
done
