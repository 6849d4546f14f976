#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Runs kernel tests on a CONFIG_PROVE_LOCKING build of the patched x86_64
# kernel: the test config (build/kernel/config, from scripts/build-kernel.sh)
# plus kernel-patches/config-lockdep.fragment, built from the same tree in an
# object directory of its own in the cache ($BPFSK_CACHE, default
# /var/cache/bpfsk). Each test must pass (FileCheck on its own CHECK lines)
# and the guest must report lockdep on: a lockdep splat in the kernel log is
# what the lock tests catch.
#
#   scripts/kernel-lockdep-check.sh [TEST...]
#
# Default test: static_key_update_2048_keys_no_lock_warning. Not part of
# scripts/test.sh: the lockdep kernel is a second cold build of several
# minutes (kernel-patches/README.md gives the figure).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
jobs=${BPFSK_KERNEL_JOBS:-$(nproc)}
fragment=$repo/kernel-patches/config-lockdep.fragment
filecheck=${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}

log() { printf 'kernel-lockdep-check: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ $# -gt 0 ] || set -- static_key_update_2048_keys_no_lock_warning
[ -x "$filecheck" ] || die "$filecheck missing (scripts/install-deps.sh)"

# the tree with the current series, and the test kernel's config and outputs
BPFSK_ARCH=x86_64 "$repo/scripts/build-kernel.sh"
pkg_version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
tree=$cache/src-$pkg_version/linux-source-6.12
obj=$cache/obj-lockdep-$pkg_version
run=$build/kernel-lockdep-run
[ -d "$tree" ] || die "no kernel tree in $tree"

start=$(date +%s)
(
	# the tree is shared with scripts/build-kernel.sh, which switches series on it
	flock 9
	mkdir -p "$obj"
	cfg=$(mktemp -d)
	trap 'rm -rf "$cfg"' EXIT
	cp "$build/kernel/config" "$cfg/.config"
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$fragment" >/dev/null
	make -s -C "$tree" O="$cfg" olddefconfig >/dev/null
	for line in $(grep -o '^CONFIG_[A-Z0-9_]*=[^ ]*' "$fragment"); do
		grep -qx "$line" "$cfg/.config" || die "config fragment not honoured: $line"
	done
	cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
	log "building the lockdep bzImage (-j$jobs)"
	make -s -C "$tree" O="$obj" -j"$jobs" bzImage
) 9>"$cache/.kernel-lock"
log "lockdep kernel built in $(( $(date +%s) - start )) s"

rm -rf "$run"
mkdir -p "$run"
cp -r "$build/kernel" "$run/kernel"
cp "$obj/arch/x86/boot/bzImage" "$run/kernel/bzImage"
cp "$obj/.config" "$run/kernel/config"

status=0
for t in "$@"; do
	src=$repo/test/kernel/$t.c
	[ -r "$src" ] || die "no test $src"
	out=$run/$t.out
	BPFSK_BUILD=$run BPFSK_QEMU_TIMEOUT=${BPFSK_QEMU_TIMEOUT:-600} \
		"$repo/scripts/qemu-run.sh" "$src" >"$out" 2>&1 || status=1
	if ! grep -q '^lockdep: on' "$out"; then
		log "FAIL: $t: lockdep is not on in the guest ($out)"
		status=1
	elif ! "$filecheck" "$src" <"$out"; then
		log "FAIL: $t ($out)"
		status=1
	else
		log "PASS: $t (lockdep on; $out)"
	fi
done
exit $status
