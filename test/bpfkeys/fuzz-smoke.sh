#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Fuzz smoke test for the bpfkeys reader (run by scripts/test.sh, not lit):
# builds bpfkeys/fuzz.c with clang-22 -fsanitize=fuzzer,address,undefined,
# replays every input of the checked-in regression corpus
# (test/fuzz-corpus/bpfkeys: inputs that once crashed or gave a bad output),
# then runs a fixed number of mutations (FUZZ_RUNS, default 300000) with a
# fixed seed (FUZZ_SEED, default 1) on seeds generated here (objects from
# bench/bpfkeys/gen.c and their resolved forms, and the checked-in objects
# with key references): the same inputs on every
# machine, so the gate cannot fail at random. Fails on any crash, leak, UB
# report or timeout. Random, time-boxed fuzzing is scripts/fuzz.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
out=$build/fuzz/bpfkeys
runs=${FUZZ_RUNS:-300000}
seed=${FUZZ_SEED:-1}
# scripts/fuzz.sh sets FUZZ_SECONDS: random fuzzing for that long instead
if [ -n "${FUZZ_SECONDS:-}" ]; then
	budget=(-max_total_time="$FUZZ_SECONDS"); what="${FUZZ_SECONDS}s of random fuzzing"
else
	budget=(-seed="$seed" -runs="$runs"); what="$runs runs (seed $seed)"
fi
cc=/usr/lib/llvm-22/bin/clang
rm -rf "$out/corpus" "$out/new"
mkdir -p "$out/corpus" "$out/new" "$out/artifacts"

. "$repo/scripts/lib/fuzz-sources.sh"
mapfile -t srcs < <(fuzz_sources "$build" elfobj bpfkeys_core)
[ ${#srcs[@]} -gt 0 ] || exit 1
srcs+=("$repo/bpfkeys/fuzz.c")
"$cc" -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$repo/elfobj" -I"$repo/runtime-headers" -I"$repo/bpfkeys" "${srcs[@]}" -lelf -lbpf -o "$out/bpfkeys-fuzz"

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

# and objects whose programs flip keys from BPF (.bpfkeys version 3), which
# the generator does not make: checked in, raw and resolved
cp "$repo"/test/fuzz-corpus/bpfkeys/key-flipped-from-bpf*.o "$out/corpus/"

fuzz=("$out/bpfkeys-fuzz" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/artifacts/")
regressions=("$repo"/test/fuzz-corpus/bpfkeys/*)
"${fuzz[@]}" "${regressions[@]}" 2>&1 | tail -2
echo "fuzz-smoke: bpfkeys: replayed ${#regressions[@]} regression inputs"
# new units go to a fresh directory: every run starts from the same corpus
"${fuzz[@]}" "${budget[@]}" -print_final_stats=1 "$out/new" "$out/corpus" 2>&1 | tail -12
echo "fuzz-smoke: bpfkeys reader: no crash in $what"
