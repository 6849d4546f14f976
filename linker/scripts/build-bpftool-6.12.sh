#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds bpftool from Debian's linux-source-6.12 tree as released (its
# tools/bpf/bpftool with its own libbpf 1.5; none of our kernel series), the
# newer peer of Debian's packaged bpftool (libbpf 1.1) for bench/linker and
# compare-with-bpftool.sh. Prints the path of the binary.
#
#   linker/scripts/build-bpftool-6.12.sh
#
# Cached outside the clone ($BPFSK_CACHE, default /var/cache/bpfsk) under a
# key of its inputs (the tarball's package version and size, this script):
# a rerun with the same inputs only prints the path. Only the parts of the
# tarball that bpftool's build reads are extracted.
set -euo pipefail
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
tarball=/usr/src/linux-source-6.12.tar.xz
pkg=linux-source-6.12

die() { printf 'build-bpftool-6.12: error: %s\n' "$*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing: apt-get install $pkg (scripts/install-deps.sh)"
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || die "$pkg is not installed"
key=$( { echo "$version $(stat -c %s "$tarball")"; sha256sum "$0" | cut -d' ' -f1; } |
	sha256sum | cut -c1-16)
dir=$cache/bpftool-6.12-$key
bin=$dir/bpftool
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.bpftool-6.12.lock"
flock 9
if [ ! -x "$bin" ]; then
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/src"
	printf 'build-bpftool-6.12: extracting %s (tools/, kernel/bpf/, include/, scripts/, Makefile)\n' \
		"$tarball" >&2
	tar -C "$dir.tmp/src" --strip-components=1 -xJf "$tarball" \
		linux-source-6.12/tools linux-source-6.12/kernel/bpf linux-source-6.12/include \
		linux-source-6.12/scripts linux-source-6.12/Makefile linux-source-6.12/arch/x86/include
	printf 'build-bpftool-6.12: building tools/bpf/bpftool\n' >&2
	mkdir -p "$dir.tmp/out"
	# without LLVM (only its JIT disassembler would use it): libLLVM's load
	# time would be most of a small `gen object` run, not the linker's work
	make -s -C "$dir.tmp/src/tools/bpf/bpftool" -j "${BPFSK_KERNEL_JOBS:-2}" \
		OUTPUT="$dir.tmp/out/" feature-llvm=0 >"$dir.tmp/build.log" 2>&1 ||
		{ tail -20 "$dir.tmp/build.log" >&2; die "bpftool build failed (log: $dir.tmp/build.log)"; }
	mkdir -p "$dir"
	cp "$dir.tmp/out/bpftool" "$bin.new" && mv "$bin.new" "$bin"
	"$bin" version >"$dir/version"
	rm -rf "$dir.tmp"
fi
echo "$bin"
