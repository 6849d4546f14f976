#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Mutation campaign for bpfld and bpfkeys (test/mutation/campaign.c): builds
# the driver with ASan/UBSan from the tools' own sources, makes seed objects
# (clang output, bpfld links, bpfkeys resolve/lower outputs, generated
# objects) and runs COUNT mutated inputs per tool with a fixed SEED.
#
#   test/mutation/run.sh [COUNT [SEED]]     (default 20000 1)
#
# Deterministic: the same COUNT and SEED give the same inputs. Exits non-zero
# on a crash (sanitizer report) or on an accepted input whose output either
# tool rejects when read again; such inputs are kept in build/mutation/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
count=${1:-20000}
seed=${2:-1}
out=$build/mutation
llvm=/usr/lib/llvm-22/bin
rm -rf "$out" && mkdir -p "$out/seeds" "$out/bpfld" "$out/bpfkeys"

srcs=("$repo"/elfobj/{diag,read,btf,static_keys,write,output,strtab}.c "$repo"/linker/{linker,diag,strings,read,resolve,merge,btf,write}.c)
for f in diag read maps callgraph resolve key_refs format write shrink shrink_reach shrink_place shrink_refs lower list resolved; do srcs+=("$repo/bpfkeys/$f.c"); done
"$llvm/clang" -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-I"$repo/elfobj" -I"$repo/runtime-headers" -I"$repo/linker" -I"$repo/bpfkeys" \
	"$repo/test/mutation/campaign.c" "${srcs[@]}" $(pkg-config --libs libbpf libelf) -o "$out/campaign"

# seeds: what clang, bpfld and bpfkeys write for the test inputs
bin=$build/bin
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
# compiled in the repository with its path mapped to ".": the same seeds
# (DWARF and BTF name the sources, BTF line info quotes them) in any checkout
cflags=(--target=bpf -O2 -g -ffile-prefix-map="$repo"=. -I/usr/include/$multiarch -I"$repo/runtime-headers" -I"$repo/test/bpfkeys/Inputs" -I"$repo/test/linker/Inputs")
s=$out/seeds
(
	cd "$repo"
	"$bin/clang" "${cflags[@]}" -mcpu=v4 -c "$repo/test/bpfkeys/Inputs/keys_demo.c" -o "$s/keys_demo.o"
	"$bin/clang" "${cflags[@]}" -mcpu=v3 -c "$repo/test/linker/Inputs/fuzz-seed.c" -o "$s/fuzz-seed-v3.o"
	"$bin/clang" "${cflags[@]}" -mcpu=v4 -mllvm -bpf-min-jump-table-entries=3 \
		-c "$repo/test/linker/Inputs/fuzz-seed.c" -o "$s/fuzz-seed-v4-jumptables.o"
)
cc -O1 "$repo/bench/bpfkeys/gen.c" -lelf -lbpf -o "$out/gen"
"$out/gen" 3 "$s/gen-3.o" 1 >/dev/null
"$out/gen" 20 "$s/gen-20.o" 4 >/dev/null
"$bin/bpfld" -o "$s/linked-demo-seed.o" "$s/keys_demo.o"
"$bin/bpfkeys" resolve "$s/keys_demo.o" -o "$s/keys_demo.resolved.o"
"$bin/bpfkeys" resolve "$s/linked-demo-seed.o" -o "$s/linked-demo-seed.resolved.o"
"$bin/bpfkeys" lower "$s/keys_demo.o" -o "$s/keys_demo.lowered.o"
"$bin/bpfkeys" resolve "$s/gen-20.o" -o "$s/gen-20.resolved.o"

ld_seeds=("$s"/keys_demo.o "$s"/fuzz-seed-v3.o "$s"/fuzz-seed-v4-jumptables.o \
	"$s"/linked-demo-seed.o "$s"/keys_demo.lowered.o)
bk_seeds=("$s"/keys_demo.o "$s"/gen-3.o "$s"/gen-20.o "$s"/linked-demo-seed.o \
	"$s"/keys_demo.resolved.o "$s"/linked-demo-seed.resolved.o "$s"/gen-20.resolved.o "$s"/fuzz-seed-v4-jumptables.o)
rc=0
"$out/campaign" bpfld "$seed" "$count" "$out/bpfld" "${ld_seeds[@]}" || rc=1
"$out/campaign" bpfkeys "$seed" "$count" "$out/bpfkeys" "${bk_seeds[@]}" || rc=1
exit $rc
