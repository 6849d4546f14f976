#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Links the same inputs with bpfld and with libbpf's linker (`bpftool gen
# object`) and diffs the two outputs after normalising away what is
# legitimately free: symbol table order (sorted by name) and section offsets
# in the file. Compared: section headers (name, type, flags, size, alignment),
# section contents (except .strtab/.symtab/.BTF/.BTF.ext), symbols,
# relocations (with symbol names) and BTF (`bpftool btf dump`).
#
#   compare-with-bpftool.sh [-b BPFLD] [-p BPFTOOL] WORKDIR INPUT.o...
# BPFTOOL is the peer (default: bpftool on PATH, Debian's, libbpf 1.1; e.g.
# the 6.12 tree's from build-bpftool-6.12.sh, libbpf 1.5); it also dumps both
# outputs' BTF. Prints one "same:" or "differs:" line per aspect, then the diffs.
# Exit status: 0 if everything is the same, 1 if anything differs, 2 if a
# linker failed.
set -uo pipefail
bpfld=${BPFLD:-$(dirname "$0")/../../build/bin/bpfld}
bpftool=${BPFTOOL:-bpftool}
while [ $# -ge 2 ]; do
	case $1 in
	-b) bpfld=$2; shift 2 ;;
	-p) bpftool=$2; shift 2 ;;
	*) break ;;
	esac
done
work=$1; shift
readelf=${READELF:-/usr/lib/llvm-22/bin/llvm-readelf}
mkdir -p "$work"

"$bpfld" -o "$work/bpfld.o" "$@" || { echo "bpfld failed"; exit 2; }
"$bpftool" gen object "$work/bpftool.o" "$@" 2>"$work/bpftool.err" ||
	{ echo "bpftool gen object failed: $(tail -1 "$work/bpftool.err")"; exit 2; }

normalise() {
	local obj=$1 kind=$2
	case $kind in
	sections)
		# name type flags size alignment (no file offsets)
		"$readelf" -SW "$obj" | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] */, ""); 
			print $1, $2, $5, ($7 ~ /^[A-Z]+$/ ? $7 : "-"), "link=" $(NF-2), "info=" $(NF-1), "align=" $NF }' ;;
	contents)
		for s in $("$readelf" -SW "$obj" | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] */, ""); if ($2 == "PROGBITS") print $1 }'); do
			case $s in .BTF|.BTF.ext) continue ;; esac
			echo "== $s"
			"$readelf" -x "$s" "$obj" | tail -n +2
		done ;;
	symbols)
		"$readelf" -sW "$obj" | awk 'NR > 3 && NF >= 7 { $1 = ""; ndx = $7;
			print $8, $2, $3, $4, $5, $6, ndx }' | sort ;;
	relocations)
		"$readelf" -rW "$obj" | awk '/^Relocation section/ { sec = $3 } /R_BPF/ { print sec, $1, $3, $5, $6 }' ;;
	btf)
		"$bpftool" btf dump file "$obj" ;;
	esac
}

status=0
for kind in sections contents symbols relocations btf; do
	normalise "$work/bpfld.o" $kind > "$work/bpfld.$kind"
	normalise "$work/bpftool.o" $kind > "$work/bpftool.$kind"
	if cmp -s "$work/bpfld.$kind" "$work/bpftool.$kind"; then
		echo "same: $kind"
	else
		echo "differs: $kind"
		status=1
	fi
done
for kind in sections contents symbols relocations btf; do
	cmp -s "$work/bpfld.$kind" "$work/bpftool.$kind" && continue
	echo "--- $kind (bpftool gen object) vs +++ (bpfld)"
	diff -u "$work/bpftool.$kind" "$work/bpfld.$kind" | tail -n +3
done
exit $status
