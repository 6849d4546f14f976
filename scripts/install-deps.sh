#!/usr/bin/env bash
# Installs everything the build, the tests and the demo need on a brand-new
# Debian 12 machine. Idempotent: a machine that has it all spends ~1 s here.
set -euo pipefail

packages=(
	# patched LLVM, built out of tree against Debian's LLVM 22 (bookworm-security)
	clang-22 llvm-22 llvm-22-dev libclang-22-dev llvm-22-tools lld-22 libpolly-22-dev
	libzstd-dev libcurl4-openssl-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev
	libncurses-dev cmake ninja-build xz-utils wget ca-certificates python3
	# linker and post-processor
	gcc make pkg-config libelf-dev libbpf-dev bpftool
	# kernel series and the qemu harness
	linux-source-6.12 qemu-system-x86 dwarves flex bison bc libssl-dev cpio busybox-static
	# benchmarks
	hyperfine
	# bpfkeys fuzz smoke test (libFuzzer runtime for clang-22)
	libclang-rt-22-dev
	# scripts/build-llvm.sh applies llvm-bpf-target/patches with patch(1)
	patch
)

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
