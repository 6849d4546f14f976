#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Benchmark (not a test): compile time of the patched clang against Debian's
# stock clang-22 on the byte-identity corpus (test/llvm/Inputs/corpus), same
# flags, same run. Rounds alternate stock/patched so that load from other
# jobs on the machine hits both alike; prints per-tool median/min and the
# ratio patched/stock of the medians.
#
#   bench/compile-time.sh [ROUNDS]      (default 15; one round = whole corpus)
# BENCH_SMOKE=1: one round (ROUNDS 1), for test/bench.
#
# Needs build/bin/clang (scripts/build-llvm.sh). BPFSK_BUILD overrides build/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${BENCH_SMOKE:-0}" = 1 ]; then rounds=${1:-1}; else rounds=${1:-15}; fi
patched=${BPFSK_BUILD:-$repo/build}/bin/clang
stock=/usr/lib/llvm-22/bin/clang
corpus=$repo/test/llvm/Inputs/corpus
multiarch=$(uname -m)-linux-gnu
flags=(--target=bpf -O2 -g -mcpu=v4 -idirafter "/usr/include/$multiarch")

[ -x "$patched" ] || { echo "compile-time.sh: error: $patched missing (run scripts/build-llvm.sh)" >&2; exit 1; }
[ -x "$stock" ] || { echo "compile-time.sh: error: $stock missing (apt-get install clang-22)" >&2; exit 1; }
sources=("$corpus"/*.c)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Wall time in ns of compiling every corpus source once, one clang process each.
compile_corpus() {
	local cc=$1 start end f extra
	start=$(date +%s%N)
	for f in "${sources[@]}"; do
		# The corpus's per-source flags, as test/llvm/Inputs/compare-corpus.sh reads them.
		read -r -a extra <<<"$(sed -n 's|^// corpus-cflags: ||p' "$f")"
		"$cc" "${flags[@]}" "${extra[@]}" -c "$f" -o "$tmp/out.o"
	done
	end=$(date +%s%N)
	echo $((end - start))
}

# Warm the page cache and both binaries.
compile_corpus "$stock" >/dev/null
compile_corpus "$patched" >/dev/null

: >"$tmp/stock" ; : >"$tmp/patched"
for ((i = 0; i < rounds; i++)); do
	compile_corpus "$stock" >>"$tmp/stock"
	compile_corpus "$patched" >>"$tmp/patched"
done

python3 - "$tmp/stock" "$tmp/patched" "${#sources[@]}" "$rounds" <<'EOF'
import statistics, sys
stock = [int(x) / 1e6 for x in open(sys.argv[1])]
patched = [int(x) / 1e6 for x in open(sys.argv[2])]
n, rounds = sys.argv[3], sys.argv[4]
print(f"corpus: {n} sources, {rounds} rounds, one clang process per source")
for name, v in (("stock clang-22", stock), ("patched clang", patched)):
    print(f"{name:15s} median {statistics.median(v):8.1f} ms  min {min(v):8.1f} ms"
          f"  mean {statistics.mean(v):8.1f} ms  stdev {statistics.pstdev(v):6.1f} ms")
print(f"ratio patched/stock (medians): {statistics.median(patched) / statistics.median(stock):.3f}")
EOF
