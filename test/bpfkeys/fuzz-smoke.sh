#!/usr/bin/env bash
# Fuzz smoke test for the bpfkeys reader (run by scripts/test.sh, not lit):
# builds bpfkeys/fuzz.c with clang-22 -fsanitize=fuzzer,address,undefined
# and runs it for FUZZ_SECONDS (default 60) on a seed corpus of generated
# objects (bench/bpfkeys/gen.c) and their resolved forms. Fails on any
# crash, leak, UB report or timeout.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
out=$build/fuzz/bpfkeys
seconds=${FUZZ_SECONDS:-60}
cc=/usr/lib/llvm-22/bin/clang
mkdir -p "$out/corpus" "$out/artifacts"

srcs=()
for f in diag read maps callgraph resolve format write lower list fuzz; do
	srcs+=("$repo/bpfkeys/$f.c")
done
"$cc" -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$repo/bpfkeys" "${srcs[@]}" -lelf -lbpf -o "$out/bpfkeys-fuzz"

# seeds: generated raw objects of a few shapes, and their resolved forms
cc -O1 "$repo/bench/bpfkeys/gen.c" -lelf -lbpf -o "$out/gen"
for n in 1 3 20 200; do
	for keys in 1 4; do
		"$out/gen" "$n" "$out/corpus/gen-$n-$keys.o" "$keys" >/dev/null
		if [ -x "$build/bin/bpfkeys" ]; then
			"$build/bin/bpfkeys" resolve "$out/corpus/gen-$n-$keys.o" \
				-o "$out/corpus/gen-$n-$keys.resolved.o" 2>/dev/null
		fi
	done
done

"$out/bpfkeys-fuzz" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$out/artifacts/" -print_final_stats=1 "$out/corpus"
echo "fuzz-smoke: bpfkeys reader: no crash in ${seconds}s"
