#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Compiles every source of the corpus with the stock and the patched tool and
# fails on the first difference. Used by the byte-identity tests.
#
#   compare-corpus.sh MODE OUTDIR STOCK PATCHED [flags...]
#
# MODE cc:      STOCK/PATCHED are clang; compare the objects (cmp).
#      asm:     STOCK/PATCHED are clang; compare the -S output (cmp; a
#               .BTF difference is judged on the assembled objects).
#      llc:     STOCK/PATCHED are llc; IR from STOCK_CLANG (env), compare
#               objects; LLC_FLAGS (env) go to both llc.
#      mc:      STOCK/PATCHED are llvm-mc; asm from STOCK_CLANG, compare objects.
#      objdump: STOCK/PATCHED are llvm-objdump; objects from STOCK_CLANG,
#               compare `-d -r` output.
# A source may name flags of its own for both compilers in a line
# "// corpus-cflags: ...".
set -euo pipefail
mode=$1 out=$2 stock=$3 patched=$4
shift 4
common=("$@")
corpus=$(cd "$(dirname "$0")/corpus" && pwd)
rm -rf "$out"
mkdir -p "$out"
n=0 fwd_order=0 fwd_names=
for src in "$corpus"/*.c; do
	name=$(basename "$src" .c)
	s=$out/$name.stock p=$out/$name.patched
	read -r -a extra <<<"$(sed -n 's|^// corpus-cflags: ||p' "$src")"
	set -- "${common[@]}" "${extra[@]}"
	case $mode in
	cc)
		"$stock" "$@" -c "$src" -o "$s"
		"$patched" "$@" -c "$src" -o "$p" ;;
	asm)
		"$stock" "$@" -S "$src" -o "$s"
		"$patched" "$@" -S "$src" -o "$p" ;;
	llc)
		"$STOCK_CLANG" "$@" -S -emit-llvm "$src" -o "$out/$name.ll"
		"$stock" ${LLC_FLAGS:-} -filetype=obj "$out/$name.ll" -o "$s"
		"$patched" ${LLC_FLAGS:-} -filetype=obj "$out/$name.ll" -o "$p" ;;
	mc)
		"$STOCK_CLANG" "$@" -S "$src" -o "$out/$name.s"
		"$stock" -triple bpfel -mcpu=v4 -filetype=obj "$out/$name.s" -o "$s"
		"$patched" -triple bpfel -mcpu=v4 -filetype=obj "$out/$name.s" -o "$p" ;;
	objdump)
		"$STOCK_CLANG" "$@" -c "$src" -o "$out/$name.o"
		"$stock" -d -r "$out/$name.o" >"$s"
		"$patched" -d -r "$out/$name.o" >"$p" ;;
	*)
		echo "compare-corpus.sh: unknown mode $mode" >&2; exit 2 ;;
	esac
	if cmp -s "$s" "$p"; then
		n=$((n + 1))
		continue
	fi
	# clang-22 numbers BTF forward declarations in heap-address order (its
	# order changes with the length of the -o path); the patched one in
	# order of first use (patch 0004). With two or more of them, accept a
	# difference confined to .BTF that is only that order: same objects
	# without .BTF, same BTF types once type ids are masked.
	# For -S output: the text outside .BTF must be identical, and the
	# assembled objects are then held to the same rule.
	if [ "$mode" = asm ]; then
		strip_btf() { awk '$1 == ".section" { in_btf = ($2 ~ /^\.BTF/) } !in_btf' "$1"; }
		if cmp -s <(strip_btf "$s") <(strip_btf "$p"); then
			llvm-mc -triple bpfel -mcpu=v4 -filetype=obj "$s" -o "$s.o"
			llvm-mc -triple bpfel -mcpu=v4 -filetype=obj "$p" -o "$p.o"
			s=$s.o p=$p.o
		fi
	fi
	if [ "$mode" != mc ] && [ "$mode" != objdump ]; then
		fwd=$(bpftool btf dump file "$s" format raw 2>/dev/null | grep -c "^\[[0-9]*\] FWD" || true)
		if [ "$fwd" -ge 2 ]; then
			llvm-objcopy --remove-section=.BTF "$s" "$s.nobtf"
			llvm-objcopy --remove-section=.BTF "$p" "$p.nobtf"
			mask() { bpftool btf dump file "$1" format raw | sed 's/\[[0-9]*\]//; s/type_id=[0-9]*//g' | LC_ALL=C sort; }
			if cmp -s "$s.nobtf" "$p.nobtf" && cmp -s <(mask "$s") <(mask "$p"); then
				fwd_order=$((fwd_order + 1))
				fwd_names="$fwd_names $name.c"
				n=$((n + 1))
				continue
			fi
		fi
	fi
	cmp "$s" "$p" || true
	echo "compare-corpus.sh: $name.c: $mode output differs from stock" >&2
	exit 1
done
if [ "$fwd_order" -eq 0 ]; then
	echo "compared $n sources, no differences"
else
	echo "compared $n sources, no differences but BTF forward-declaration order in$fwd_names"
fi
