#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Fuzz smoke test for libbpfkeys' open-and-lower path (run by scripts/test.sh,
# not lit): builds libbpfkeys/fuzz.c with clang-22
# -fsanitize=fuzzer,address,undefined, replays the bpfkeys regression corpus
# (test/fuzz-corpus/bpfkeys: the library reads objects with bpfkeys' core),
# then runs a fixed number of mutations (FUZZ_RUNS, default 20000) with a
# fixed seed (FUZZ_SEED, default 1) on seeds made here: raw objects of
# bench/bpfkeys/gen.c and, with the patched clang built, keys_demo.c linked by
# bpfld. A few seconds; deterministic, so the gate cannot fail at random.
# Fails on any crash, leak, UB report or timeout. No bpf() syscall is made:
# the target stops where bpfkeys_load() would load. scripts/fuzz.sh sets
# FUZZ_SECONDS for random fuzzing instead.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
out=$build/fuzz/libbpfkeys
runs=${FUZZ_RUNS:-20000}
seed=${FUZZ_SEED:-1}
if [ -n "${FUZZ_SECONDS:-}" ]; then
	budget=(-max_total_time="$FUZZ_SECONDS"); what="${FUZZ_SECONDS}s of random fuzzing"
else
	budget=(-seed="$seed" -runs="$runs"); what="$runs runs (seed $seed)"
fi
cc=/usr/lib/llvm-22/bin/clang
rm -rf "$out/corpus" "$out/new"
mkdir -p "$out/corpus" "$out/new" "$out/artifacts"

srcs=("$repo"/elfobj/{diag,read,btf,static_keys,write,output,strtab}.c)
for f in diag read maps callgraph resolve key_refs format write shrink shrink_reach shrink_place shrink_refs lower list; do
	srcs+=("$repo/bpfkeys/$f.c")
done
srcs+=("$repo"/libbpfkeys/{object,flip,attach,attach_tc,pin,fuzz}.c)
"$cc" -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$repo/elfobj" -I"$repo/runtime-headers" -I"$repo/bpfkeys" -I"$repo/libbpfkeys" \
	-I"$repo/libbpfkeys/include" -I"$build/libbpfkeys/include" \
	"${srcs[@]}" -lelf -lbpf -lz -o "$out/libbpfkeys-fuzz"

# seeds: raw linked objects as libbpfkeys opens them
cc -O1 "$repo/bench/bpfkeys/gen.c" -lelf -lbpf -o "$out/gen"
for n in 1 20; do
	for keys in 1 4; do
		"$out/gen" "$n" "$out/corpus/gen-$n-$keys.o" "$keys" 8 >/dev/null
	done
done
if [ -x "$build/bin/clang" ] && [ -x "$build/bin/bpfld" ]; then
	multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
	# in the repository with its path mapped to ".": the same seed in any checkout
	(cd "$repo" && "$build/bin/clang" --target=bpf -O2 -g -mcpu=v4 -ffile-prefix-map="$repo"=. \
		-I/usr/include/"$multiarch" -I"$repo/runtime-headers" \
		-c "$repo/test/bpfkeys/Inputs/keys_demo.c" -o "$out/keys_demo.o")
	"$build/bin/bpfld" -o "$out/corpus/keys_demo.linked.o" "$out/keys_demo.o"
fi

# stderr closed: every refused input prints its libbpfkeys error (reports still come out)
fuzz=("$out/libbpfkeys-fuzz" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2
	-artifact_prefix="$out/artifacts/")
regressions=("$repo"/test/fuzz-corpus/bpfkeys/*)
"${fuzz[@]}" "${regressions[@]}" 2>&1 | tail -2
echo "fuzz-smoke: libbpfkeys: replayed ${#regressions[@]} regression inputs"
echo "fuzz-smoke: libbpfkeys: $(ls "$out/corpus" | wc -l) seeds, $what" >&2
"${fuzz[@]}" "${budget[@]}" -print_final_stats=1 "$out/new" "$out/corpus" 2>&1 | tail -8
echo "fuzz-smoke: libbpfkeys open and lower: no crash in $what"
