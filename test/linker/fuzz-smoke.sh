#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# CI fuzz smoke test for bpfld's input reader: builds the libFuzzer target
# (linker/fuzz/fuzz_input_reader.c, ASan+UBSan) with clang-22, replays the
# checked-in regression corpus (test/fuzz-corpus/bpfld), then runs a fixed
# number of mutations (FUZZ_RUNS, default 100000) with a fixed seed
# (FUZZ_SEED, default 1) from real BPF objects and the malformed objects of
# this test suite: deterministic, so the gate cannot fail at random. Fails on
# any crash, leak or sanitizer report. Random fuzzing is scripts/fuzz.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
runs=${FUZZ_RUNS:-100000}
seed=${FUZZ_SEED:-1}
# scripts/fuzz.sh sets FUZZ_SECONDS: random fuzzing for that long instead
if [ -n "${FUZZ_SECONDS:-}" ]; then
	budget=(-max_total_time="$FUZZ_SECONDS"); what="${FUZZ_SECONDS}s of random fuzzing"
else
	budget=(-seed="$seed" -runs="$runs"); what="$runs runs (seed $seed)"
fi
llvm=/usr/lib/llvm-22/bin
out=$build/fuzz/linker
rm -rf "$out/seeds" "$out/corpus"
mkdir -p "$out/seeds" "$out/corpus"

src=$repo/linker
. "$repo/scripts/lib/fuzz-sources.sh"
mapfile -t srcs < <(fuzz_sources "$build" bpfld_core elfobj)
[ ${#srcs[@]} -gt 0 ] || exit 1
"$llvm/clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$src" -I"$repo/elfobj" -I"$repo/runtime-headers" -I"$repo/bpfkeys" \
	"$repo/linker/fuzz/fuzz_input_reader.c" "${srcs[@]}" \
	$(pkg-config --libs libbpf libelf) -o "$out/fuzz_input_reader"

inputs=$repo/test/linker/Inputs
# compiled in the repository with its path mapped to ".": the same seeds
# (DWARF and BTF name the sources, BTF line info quotes them) in any checkout
cflags=(--target=bpf -O2 -g -ffile-prefix-map="$repo"=. -I/usr/include/x86_64-linux-gnu -I"$inputs" -I"$repo/runtime-headers")
(
	cd "$repo"
	"$llvm/clang" "${cflags[@]}" -mcpu=v3 -c "$inputs/fuzz-seed.c" -o "$out/seeds/seed-v3.o"
	"$llvm/clang" "${cflags[@]}" -mcpu=v4 -mllvm -bpf-min-jump-table-entries=3 \
		-c "$inputs/fuzz-seed.c" -o "$out/seeds/seed-v4-jumptables.o"
)
# every yaml2obj document of the malformed-input tests
for t in "$repo"/test/linker/*.test; do
	grep -q '^--- !ELF' "$t" || continue
	n=$(grep -c '^--- !ELF' "$t")
	for i in $(seq 1 "$n"); do
		"$llvm/yaml2obj" --docnum="$i" "$t" -o "$out/seeds/$(basename "$t" .test)-$i.o" 2>/dev/null || true
	done
done

fuzz=("$out/fuzz_input_reader" -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$out/")
regressions=("$repo"/test/fuzz-corpus/bpfld/*)
"${fuzz[@]}" "${regressions[@]}" 2>&1 | tail -2
echo "fuzz-smoke: bpfld: replayed ${#regressions[@]} regression inputs"
# new units go to a fresh directory: every run starts from the same corpus
echo "fuzz-smoke: $(ls "$out/seeds" | wc -l) seeds, $what" >&2
"${fuzz[@]}" "${budget[@]}" -print_final_stats=1 "$out/corpus" "$out/seeds" 2>&1 | tail -15
echo "fuzz-smoke: bpfld reader: no crash in $what"
