#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Installs everything the build, the tests and the demo need on a brand-new
# Debian 12 machine. Idempotent: a machine that has it all spends ~1 s here.
#
#   scripts/install-deps.sh            everything (LLVM and kernel builds, qemu, tests)
#   scripts/install-deps.sh --stock    only what the stock-kernel path needs: Debian's
#                                      clang-22, the tools, libbpfkeys and the examples
set -euo pipefail

stock_only=false
case ${1:-} in
--stock) stock_only=true ;;
"") ;;
*)
	echo "install-deps: usage: install-deps.sh [--stock]" >&2
	exit 2
	;;
esac

# the stock-kernel path: compile with Debian's clang, build bpfld, bpfkeys,
# libbpfkeys and bpfkeyctl-stock, run the examples
stock_packages=(clang-22 cmake ninja-build gcc make pkg-config libelf-dev libbpf-dev
	zlib1g-dev bpftool iproute2)

packages=(
	# stock compilers the runtime header is tested with (test/compilers);
	# clang-22 below is the demo's compiler
	clang-14 clang-16 clang-19
	# patched LLVM, built out of tree against Debian's LLVM 22 (bookworm-security)
	clang-22 llvm-22 llvm-22-dev libclang-22-dev llvm-22-tools lld-22 libpolly-22-dev
	libzstd-dev libcurl4-openssl-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev
	libncurses-dev cmake ninja-build xz-utils wget ca-certificates python3
	# linker and post-processor
	gcc make pkg-config libelf-dev libbpf-dev bpftool
	# kernel series and the qemu harness
	linux-source-6.12 qemu-system-x86 dwarves flex bison bc libssl-dev cpio busybox-static
	# benchmarks (xxd: JIT images from hex, bench/stock-flip, bench/insn-count)
	hyperfine xxd
	# bpfkeys fuzz smoke test (libFuzzer runtime for clang-22)
	libclang-rt-22-dev
	# test/style: the C tools pass .clang-format, checked with clang-format 22
	clang-format-22
	# scripts/build-llvm.sh applies llvm-bpf-target/patches with patch(1)
	patch
	# test/stock: veth pairs in a network namespace (ip link); strace kills a
	# pinned flip at each of its syscalls
	iproute2 strace
	# test/stock on Debian's stock kernels under qemu (scripts/build-stock-kernel.sh):
	# Debian 12's own kernel; the 6.12 source is above
	linux-source-6.1
	# scripts/upstream-suites-maps.sh: the selftests Makefile copies a test
	# runner's extra files with rsync
	rsync
	# test/install: cpack's .debs (dpkg-shlibdeps, file), man pages checked with groff
	dpkg-dev file groff-base
)

$stock_only && packages=("${stock_packages[@]}")

# arm64 (BPFSK_ARCH=arm64; scripts/test.sh asks for it): cross-built
# kernel and static test programs, booted by qemu-system-aarch64; Debian
# multiarch arm64 libraries for the cross-built libbpf and the programs
# linked against it
arm64=false
[ "${BPFSK_ARCH:-x86_64}" = arm64 ] && ! $stock_only && arm64=true
if $arm64; then
	packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
		libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64)
	# the :arm64 packages need the foreign architecture
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "install-deps: adding the arm64 architecture (dpkg --add-architecture arm64)" >&2
		dpkg --add-architecture arm64
	fi
fi

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A static arm64 busybox for the arm64 guest's shell tests (test/e2e,
# BPFSK_ARCH=arm64). busybox-static is not co-installable for two
# architectures, so the arm64 package is only unpacked, into the cache.
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
if $arm64 && [ ! -x "$cache/arm64/busybox" ]; then
	echo "install-deps: unpacking busybox-static:arm64 into $cache/arm64" >&2
	tmp=$(mktemp -d)
	if ! (cd "$tmp" && apt-get download -qq busybox-static:arm64 >/dev/null 2>&1); then
		apt-get update -qq
		(cd "$tmp" && apt-get download -qq busybox-static:arm64 >/dev/null)
	fi
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/root"
	mkdir -p "$cache/arm64"
	cp "$tmp/root/bin/busybox" "$cache/arm64/busybox.tmp"
	mv -f "$cache/arm64/busybox.tmp" "$cache/arm64/busybox"
	rm -rf "$tmp"
fi
