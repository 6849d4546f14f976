#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds upstream's test_maps from a linux-source-6.12 tree, for
# scripts/upstream-suites-build.sh, which switches the tree to the variant's
# series (or none) first:
#
#   scripts/upstream-suites-maps.sh SELFTESTS VMLINUX_BTF OUTPUT DEST
#
#   SELFTESTS     the tree's tools/testing/selftests/bpf
#   VMLINUX_BTF   the variant kernel's BTF (vmlinux, or its raw .BTF section):
#                 vmlinux.h is dumped from it by the selftests Makefile
#   OUTPUT        the selftests build directory of that variant (its libbpf,
#                 bpftool and helpers are reused)
#   DEST          where test_maps and the BPF objects it opens are copied
#
# BPFSK_ARCH=arm64 cross-builds (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-);
# BPFSK_KERNEL_JOBS sets make's parallelism (default 2).
#
# test_maps opens a few BPF objects from its working directory (test_maps.c:
# "./<name>.bpf.o"), its map_tests/ include the skeletons of a few more
# ("<name>.skel.h"), and its link step runs resolve_btfids on btf_data.bpf.o.
# The selftests Makefile builds them with test_progs' rules, but makes
# test_maps wait for the objects of every progs/*.c (825 in 6.12), most of
# them test_progs'. TRUNNER_BPF_SRCS on the command line narrows that list to
# the objects test_maps uses, read from its sources here; LSKELS,
# LSKELS_EXTRA and LINKED_SKELS (test_progs' light and linked skeletons) are
# emptied for the same reason. The BPF objects are compiled with Debian's
# clang-22 (stock clang: test_maps' programs use no instruction of ours).
set -euo pipefail

log() { printf 'upstream-suites-maps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
[ $# = 4 ] || die "usage: $0 SELFTESTS VMLINUX_BTF OUTPUT DEST (see --help)"
selftests=$1 btf=$2 output=$3 dest=$4
jobs=${BPFSK_KERNEL_JOBS:-2}
karch=()
[ "${BPFSK_ARCH:-x86_64}" != arm64 ] || karch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
for tool in clang-22 rsync; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/install-deps.sh)"
done
[ -r "$btf" ] || die "$btf: no kernel BTF"

# the objects test_maps opens, and the programs behind its skeletons
opened=$(sed -n 's|.*"\./\([A-Za-z0-9_]*\)\.bpf\.o".*|\1|p' "$selftests/test_maps.c" | sort -u)
skeletons=$(cat "$selftests"/map_tests/*.c | sed -n 's|^#include "\([A-Za-z0-9_]*\)\.skel\.h".*|\1|p' | sort -u)
[ -n "$opened" ] && [ -n "$skeletons" ] || die "no BPF objects found in test_maps' sources"
srcs=
for name in btf_data $opened $skeletons; do
	[ -r "$selftests/progs/$name.c" ] || die "progs/$name.c missing"
	srcs="$srcs $name.c"
done

mkdir -p "$output"
log "building test_maps with$srcs"
make -s -C "$selftests" "${karch[@]}" OUTPUT="$output" VMLINUX_BTF="$btf" CLANG=clang-22 \
	TRUNNER_BPF_SRCS="${srcs# }" LSKELS= LSKELS_EXTRA= LINKED_SKELS= \
	-j"$jobs" "$output/test_maps" >"$output/test_maps.log" 2>&1 ||
	die "test_maps did not build: see $output/test_maps.log"
rm -rf "$dest"
mkdir -p "$dest"
cp "$output/test_maps" "$dest/"
for name in $opened; do
	cp "$output/$name.bpf.o" "$dest/"
done
log "test_maps built: $dest"
