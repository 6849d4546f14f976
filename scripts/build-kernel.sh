#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds the patched kernel (kernel-patches/*.patch on Debian's linux-source-6.12
# 6.12.118) and the user-space pieces of the patched tree that tests and the
# loader need, into build/kernel/:
#
#   bzImage             the kernel, for scripts/qemu-run.sh
#   config              its .config (tinyconfig + kernel-patches/config.fragment)
#   usr/include/        patched uapi headers (make headers_install)
#   lib/libbpf.a        static libbpf from the patched tools/lib/bpf
#   include/bpf/*.h     its headers
#   bpftool             static bpftool from the patched tree (if it builds)
#
# Idempotent and cached outside the clone ($BPFSK_CACHE, default
# /var/cache/bpfsk): the tree is extracted once, the series is applied on
# top of it and, when the series changes, the old one is reversed and the new
# one applied, so that make only rebuilds what the change touches. An
# unchanged rerun (same tarball, patches, fragment and script) only checks a
# stamp. Set BPFSK_KERNEL_JOBS to change the make parallelism (default nproc).
#
# BPFSK_ARCH=arm64 cross-builds the same series for arm64 with Debian's
# gcc-aarch64-linux-gnu instead (tinyconfig + kernel-patches/config-arm64.fragment),
# into build/kernel-arm64/ (Image instead of bzImage; usr/include, lib/libbpf.a,
# include/bpf and bpftool are arm64 builds, to link static arm64 test programs
# with aarch64-linux-gnu-gcc). It shares the extracted tree with the x86 build
# and has its own object directory and stamp. BPFSK_ARCH=x86_64 (the default)
# is the x86 build above.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
out=$build/kernel
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
jobs=${BPFSK_KERNEL_JOBS:-$(nproc)}
patches_dir=$repo/kernel-patches
fragment=$patches_dir/config.fragment
arch=${BPFSK_ARCH:-x86_64}
# make arguments, names in the cache and outputs that depend on the arch
karch=()
tag=
image_src=arch/x86/boot/bzImage
image=bzImage
cross_cc=gcc
case "$arch" in
	x86_64 | x86 | amd64) arch=x86_64 ;;
	arm64 | aarch64)
		arch=arm64
		karch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		tag=arm64-
		out=$build/kernel-arm64
		fragment=$patches_dir/config-arm64.fragment
		image_src=arch/arm64/boot/Image
		image=Image
		cross_cc=aarch64-linux-gnu-gcc
		;;
	*) printf 'build-kernel: error: BPFSK_ARCH=%s: x86_64 or arm64\n' "$arch" >&2; exit 1 ;;
esac

tarball=/usr/src/linux-source-6.12.tar.xz
pkg=linux-source-6.12
want_version=6.12.118

log() { printf 'build-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --- inputs ------------------------------------------------------------------
[ -r "$tarball" ] || die "$tarball missing: apt-get install $pkg (scripts/install-deps.sh)"
pkg_version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
case "$pkg_version" in
	"$want_version"-*) ;;
	*) die "$pkg is '$pkg_version', the series is for $want_version" ;;
esac
for tool in gcc "$cross_cc" make flex bison bc pahole cpio; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/install-deps.sh)"
done

# patches, series_hash, applied_hash, switch_series
series_lib=$repo/scripts/lib/kernel-series.sh
# shellcheck source=lib/kernel-series.sh
. "$series_lib"
series_patches "$patches_dir"
series_hash=$(series_hash "${patches[@]}")
key=$( { echo "$pkg_version $(stat -c %s "$tarball")"; echo "$series_hash";
	 sha256sum "$fragment" "$0" "$series_lib" | cut -d' ' -f1;
	 [ "$arch" = x86_64 ] || "$cross_cc" --version | head -1; } | sha256sum | cut -c1-16)

mkdir -p "$cache" "$out"
# one kernel build per cache at a time: both arches share the extracted tree
# (the series is switched on it) and each rebuilds its config directory from
# nothing, which a second build running at once would delete under the first
exec 9>"$cache/.kernel-lock"
flock 9
src_root=$cache/src-$pkg_version
tree=$src_root/linux-source-6.12
obj=$cache/obj-$tag$pkg_version
stamp=$cache/kernel-${tag}stamp-$key

outputs=("$out/$image" "$out/lib/libbpf.a" "$out/usr/include/linux/bpf.h")
if [ -e "$stamp" ]; then
	ok=1
	for f in "${outputs[@]}"; do [ -e "$f" ] || ok=0; done
	if [ $ok = 1 ]; then
		log "up to date ($key): $out/$image"
		exit 0
	fi
fi

start=$(date +%s)

# --- source tree ---------------------------------------------------------------
extract() {
	log "extracting $tarball"
	rm -rf "$src_root"
	mkdir -p "$src_root"
	tar -C "$src_root" -xf "$tarball"
	mkdir -p "$tree/.bpfsk-applied"
}

check_version() {
	local v
	v=$(make -s -C "$tree" kernelversion 2>/dev/null) || v="(unreadable)"
	[ "$v" = "$want_version" ] || die "tarball has kernel $v, expected $want_version"
}

[ -d "$tree/.bpfsk-applied" ] || extract
check_version

switch_series "$series_hash" "$cache/kernel-${tag}mtimes"

# --- config ----------------------------------------------------------------------
mkdir -p "$obj"
newcfg=$cache/kernel-${tag}config.new
cfgdir=$cache/kernel-${tag}cfg
rm -rf "$cfgdir"
mkdir -p "$cfgdir"
make -s -C "$tree" O="$cfgdir" "${karch[@]}" tinyconfig >/dev/null
# merge_config.sh runs make itself: it reads ARCH and CROSS_COMPILE from
# the environment
env "${karch[@]}" "$tree/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "$fragment" >/dev/null
make -s -C "$tree" O="$cfgdir" "${karch[@]}" olddefconfig >/dev/null
missing=$(grep -o '^CONFIG_[A-Z0-9_]*=[^ ]*' "$fragment" | while read -r line; do
	if ! grep -qx "$line" "$cfgdir/.config"; then echo "$line"; fi; done)
missing+=$(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$fragment" | while read -r opt; do
	if grep -q "^$opt=" "$cfgdir/.config"; then echo " $opt=n"; fi; done)
[ -z "$missing" ] || die "config fragment not honoured: $missing"
cp "$cfgdir/.config" "$newcfg"
rm -rf "$cfgdir"
# Replace .config only when it changes, so that an unchanged config keeps
# the build incremental.
if ! cmp -s "$newcfg" "$obj/.config"; then
	cp "$newcfg" "$obj/.config"
	make -s -C "$tree" O="$obj" "${karch[@]}" olddefconfig >/dev/null
fi

# --- kernel ------------------------------------------------------------------------
log "building $image (-j$jobs)"
make -s -C "$tree" O="$obj" "${karch[@]}" -j"$jobs" $image
# headers_install needs rsync; "make headers" leaves the same tree in $obj/usr
make -s -C "$tree" O="$obj" "${karch[@]}" headers
rm -rf "$out/usr"
mkdir -p "$out/usr"
cp -r "$obj/usr/include" "$out/usr/include"
cp "$obj/$image_src" "$out/$image"
cp "$obj/.config" "$out/config"

# --- libbpf (static) ---------------------------------------------------------------
log "building libbpf"
mkdir -p "$obj/tools-out/libbpf"
make -s -C "$tree/tools/lib/bpf" OUTPUT="$obj/tools-out/libbpf/" "${karch[@]}" BUILD_STATIC_ONLY=1 -j"$jobs" \
	"$obj/tools-out/libbpf/libbpf.a" >/dev/null
mkdir -p "$out/lib"
cp "$obj/tools-out/libbpf/libbpf.a" "$out/lib/libbpf.a"
rm -rf "$out/include/bpf"
make -s -C "$tree/tools/lib/bpf" OUTPUT="$obj/tools-out/libbpf/" "${karch[@]}" BUILD_STATIC_ONLY=1 \
	DESTDIR="$out" prefix= INCLUDEDIR=/include install_headers >/dev/null

# --- bpftool (static, best effort) -------------------------------------------------
log "building bpftool"
mkdir -p "$obj/tools-out/bpftool"
# bpftool's own libbpf builds (bpftool/libbpf, bpftool/bootstrap/libbpf)
# depend on tools/lib/bpf/*.[ch] only, not on the uapi headers they compile
# against: after a series change to tools/include/uapi (an enum value, say),
# they would keep the old values. Start bpftool's build over whenever a uapi
# header is newer (its objects' dependency files name libbpf's installed
# headers, so removing only the libbpf builds breaks the next make).
lib="$obj/tools-out/bpftool/libbpf/libbpf.a"
if [ ! -e "$lib" ] ||
   [ -n "$(find "$tree/tools/include/uapi" -newer "$lib" -print -quit)" ]; then
	rm -rf "$obj/tools-out/bpftool"
	mkdir -p "$obj/tools-out/bpftool"
fi
# Static, so that it runs in the qemu initramfs; without libbfd/LLVM it has
# no jited disassembler ("dump xlated" works, it shares kernel/bpf/disasm.c).
if make -C "$tree/tools/bpf/bpftool" OUTPUT="$obj/tools-out/bpftool/" "${karch[@]}" -j"$jobs" \
	EXTRA_LDFLAGS=-static \
	LIBS='$(LIBBPF) -lelf -lz -lzstd' LIBS_BOOTSTRAP='$(LIBBPF_BOOTSTRAP) -lelf -lz -lzstd' \
	>"$obj/tools-out/bpftool.log" 2>&1; then
	cp "$obj/tools-out/bpftool/bpftool" "$out/bpftool"
else
	log "warning: bpftool did not build (see $obj/tools-out/bpftool.log); continuing"
	rm -f "$out/bpftool"
fi

rm -f "$cache"/kernel-${tag}stamp-*
touch "$stamp"
log "done in $(( $(date +%s) - start )) s: $out/$image"
