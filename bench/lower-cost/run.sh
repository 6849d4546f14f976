#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# What one fixed branch costs in the loaded program, on the host's stock
# kernel (root): bench/lower-cost/count.c built as no branch, the block
# always run, a static key lowered by `bpfkeys lower` (off / on), a
# `const volatile` .rodata flag (0 / 1, folded by the verifier), and the
# encoding lower wrote before dead-code removal (`if r10 != r10 goto` /
# `if r10 == r10 goto`, from bpfkeys built at commit $R10_COMMIT). For each:
# xlated instructions (bpf_prog_info.xlated_prog_len / 8) and the JIT-ed
# image's x86-64 instruction count (objdump) and bytes.
#
#   bench/lower-cost/run.sh          (BPFSK_BUILD: build dir with bin/clang, bin/bpfkeys)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
R10_COMMIT=${R10_COMMIT:-17a9255}
out=$build/bench/lower-cost
rm -rf "$out" && mkdir -p "$out/jit" "$out/r10"
bin=$build/bin
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
# runtime-headers apart: the r10-compare object is built with that commit's own
bpf_cflags=(--target=bpf -O2 -g -mcpu=v4 -I/usr/include/$multiarch)
cflags=("${bpf_cflags[@]}" -I"$repo/runtime-headers")
src=$repo/bench/lower-cost/count.c

cc -O1 -Wall -Wextra -Werror -o "$out/info" "$repo/test/bpfkeys/Inputs/bpf_prog_info.c" -lbpf
# the r10-compare lowering, from the sources before dead-code removal (needs the history)
if ! git -C "$repo" cat-file -e "$R10_COMMIT^{commit}" 2>/dev/null; then
	echo "bench/lower-cost: commit $R10_COMMIT (bpfkeys before dead-code removal) is not in this clone (shallow?): clone with history or set R10_COMMIT" >&2
	exit 1
fi
# with that commit's headers too: the old tool reads keys as that commit defined them (map type
# 34, 4-byte values), and the key type has changed since (36 in ABI 1; ABI 2 is 34
# again, with 16-byte values), so each tool gets an object of its own headers
git -C "$repo" archive "$R10_COMMIT" bpfkeys elfobj runtime-headers | tar -x -C "$out/r10"
(cd "$out/r10" && cc -std=c11 -D_GNU_SOURCE -O1 -Ielfobj -Ibpfkeys \
	elfobj/{diag,read,btf,static_keys,output}.c \
	bpfkeys/{diag,read,maps,callgraph,resolve,format,write,lower,list,main}.c \
	-lelf -lbpf -o bpfkeys-r10)

"$bin/clang" "${cflags[@]}" -DNEVER -c "$src" -o "$out/never.o"
"$bin/clang" "${cflags[@]}" -DALWAYS -c "$src" -o "$out/always.o"
"$bin/clang" "${cflags[@]}" -DKEYED -c "$src" -o "$out/keyed.o"
"$bin/clang" "${cflags[@]}" -DRODATA=0 -c "$src" -o "$out/rodata-0.o"
"$bin/clang" "${cflags[@]}" -DRODATA=1 -c "$src" -o "$out/rodata-1.o"
"$bin/bpfkeys" lower --set k=off "$out/keyed.o" -o "$out/lowered-off.o"
"$bin/bpfkeys" lower --set k=on "$out/keyed.o" -o "$out/lowered-on.o"
"$bin/clang" "${bpf_cflags[@]}" -I"$out/r10/runtime-headers" -DKEYED -c "$src" -o "$out/keyed-r10.o"
"$out/r10/bpfkeys-r10" lower --set k=off "$out/keyed-r10.o" -o "$out/r10-off.o"
"$out/r10/bpfkeys-r10" lower --set k=on "$out/keyed-r10.o" -o "$out/r10-on.o"

printf '| %-40s | %6s | %8s | %9s |\n' "program (one site)" xlated "JIT insns" "JIT bytes"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "--------" "----------" "-----------"
for v in never lowered-off rodata-0 r10-off always lowered-on rodata-1 r10-on; do
	rm -f "$out/jit/prog.bin"
	xlated=$("$out/info" --jited "$out/jit" "$out/$v.o" | sed -n 's/^prog: xlated \([0-9]*\) insns.*/\1/p')
	jit=$(objdump -D -b binary -m i386:x86-64 "$out/jit/prog.bin" | grep -cE '^ +[0-9a-f]+:')
	bytes=$(stat -c %s "$out/jit/prog.bin")
	case $v in
	never) what="no branch, no block";;
	lowered-off) what="static key lowered, off";;
	rodata-0) what="const volatile .rodata flag = 0";;
	r10-off) what="r10-compare lowering, off";;
	always) what="no branch, block always runs";;
	lowered-on) what="static key lowered, on";;
	rodata-1) what="const volatile .rodata flag = 1";;
	r10-on) what="r10-compare lowering, on";;
	esac
	printf '| %-40s | %6s | %8s | %9s |\n' "$what" "$xlated" "$jit" "$bytes"
done
