#!/usr/bin/env bash
# CI fuzz smoke test for bpfld's input reader: builds the libFuzzer target
# (linker/fuzz/fuzz_input_reader.c, ASan+UBSan) with clang-22, seeds it with
# real BPF objects and the malformed objects of this test suite, and runs it
# for FUZZ_SECONDS (default 30). Fails on any crash, leak or sanitizer report.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
seconds=${FUZZ_SECONDS:-30}
llvm=/usr/lib/llvm-22/bin
out=$build/fuzz/linker
mkdir -p "$out/seeds" "$out/corpus"

src=$repo/linker/src
"$llvm/clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$src" \
	"$repo/linker/fuzz/fuzz_input_reader.c" "$src"/{linker,diag,strings,read,resolve,merge,btf,write}.c \
	$(pkg-config --libs libbpf libelf) -o "$out/fuzz_input_reader"

inputs=$repo/test/linker/Inputs
cflags=(--target=bpf -O2 -g -I/usr/include/x86_64-linux-gnu -I"$inputs")
"$llvm/clang" "${cflags[@]}" -mcpu=v3 -c "$inputs/fuzz-seed.c" -o "$out/seeds/seed-v3.o"
"$llvm/clang" "${cflags[@]}" -mcpu=v4 -mllvm -bpf-min-jump-table-entries=3 \
	-c "$inputs/fuzz-seed.c" -o "$out/seeds/seed-v4-jumptables.o"
# every yaml2obj document of the malformed-input tests
for t in "$repo"/test/linker/*.test; do
	grep -q '^--- !ELF' "$t" || continue
	n=$(grep -c '^--- !ELF' "$t")
	for i in $(seq 1 "$n"); do
		"$llvm/yaml2obj" --docnum="$i" "$t" -o "$out/seeds/$(basename "$t" .test)-$i.o" 2>/dev/null || true
	done
done

echo "fuzz-smoke: $(ls "$out/seeds" | wc -l) seeds, ${seconds}s" >&2
"$out/fuzz_input_reader" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
	-print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$out/seeds" 2>&1 | tail -15
