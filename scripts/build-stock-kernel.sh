#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds Debian's unpatched kernel (no kernel-patches/ series) for the stock
# qemu runs of test/stock (scripts/stock-guest-run.sh):
#
#   scripts/build-stock-kernel.sh 6.1|6.12
#
# from linux-source-6.1 (Debian 12's kernel) or linux-source-6.12 with
# tinyconfig + scripts/stock-kernel/config.fragment, into
# build/stock-kernel/VERSION/ (bzImage and its config). x86_64 only.
#
# Cached outside the clone ($BPFSK_CACHE, default /var/cache/bpfsk) in its own
# directories (stock-src-*, stock-obj-*), never the patched build's tree: an
# unchanged rerun (same package version, fragment and script) only checks a
# stamp. BPFSK_KERNEL_JOBS sets the make parallelism (default nproc).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
cache=${BPFSK_CACHE:-/var/cache/bpfsk}
jobs=${BPFSK_KERNEL_JOBS:-$(nproc)}
fragment=$repo/scripts/stock-kernel/config.fragment

log() { printf 'build-stock-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

series=${1:-}
case "$series" in
	6.1 | 6.12) ;;
	*) die "usage: $0 6.1|6.12" ;;
esac
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
out=$build/stock-kernel/$series

[ -r "$tarball" ] || die "$tarball missing: apt-get install $pkg (scripts/install-deps.sh)"
pkg_version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$pkg_version" ] || die "$pkg is not installed"
for tool in gcc make flex bison bc pahole; do
	command -v "$tool" >/dev/null || die "$tool missing (scripts/install-deps.sh)"
done

key=$( { echo "$pkg_version $(stat -c %s "$tarball")";
	 sha256sum "$fragment" "$0" | cut -d' ' -f1; } | sha256sum | cut -c1-16)

mkdir -p "$cache" "$out"
exec 9>"$cache/.stock-kernel-$series-lock"
flock 9
src_root=$cache/stock-src-$series
tree=$src_root/$pkg
obj=$cache/stock-obj-$series
stamp=$cache/stock-kernel-$series-stamp-$key
# the last build's outputs, copied into each build/ that asks (a fresh clone
# with a warm cache copies three files)
kept=$cache/stock-out-$series
outputs=(bzImage config release)

if [ -e "$stamp" ]; then
	mkdir -p "$out"
	for f in "${outputs[@]}"; do
		cmp -s "$kept/$f" "$out/$f" || cp "$kept/$f" "$out/$f"
	done
	log "up to date ($key): $out/bzImage"
	exit 0
fi
start=$(date +%s)

# --- source tree: extracted once per package version -----------------------
if [ "$(cat "$src_root/.version" 2>/dev/null)" != "$pkg_version" ]; then
	log "extracting $tarball"
	rm -rf "$src_root" "$obj"
	mkdir -p "$src_root"
	tar -C "$src_root" -xf "$tarball"
	echo "$pkg_version" >"$src_root/.version"
fi
[ -d "$tree" ] || die "$tarball has no $pkg/ directory"

# --- config -------------------------------------------------------------------
mkdir -p "$obj"
cfgdir=$cache/stock-cfg-$series
rm -rf "$cfgdir"
mkdir -p "$cfgdir"
make -s -C "$tree" O="$cfgdir" tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$cfgdir" "$cfgdir/.config" "$fragment" >/dev/null
make -s -C "$tree" O="$cfgdir" olddefconfig >/dev/null
# Every option the fragment names must hold, unless this version has no such
# option at all (CONFIG_NET_XGRESS, tcx, exists from 6.6 on).
missing=
while read -r line; do
	opt=${line%%=*}
	grep -qx "$line" "$cfgdir/.config" && continue
	grep -rqE "^(menu)?config ${opt#CONFIG_}\$" --include='Kconfig*' "$tree" || continue
	missing+=" $line"
done < <(grep -o '^CONFIG_[A-Z0-9_]*=.*' "$fragment")
while read -r opt; do
	if grep -q "^$opt=" "$cfgdir/.config"; then missing+=" $opt=n"; fi
done < <(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$fragment")
[ -z "$missing" ] || die "config fragment not honoured on $series:$missing"
# keep the object directory's .config (and the build incremental) when unchanged
if ! cmp -s "$cfgdir/.config" "$obj/.config"; then
	cp "$cfgdir/.config" "$obj/.config"
fi
rm -rf "$cfgdir"

# --- kernel ---------------------------------------------------------------------
log "building $pkg $pkg_version bzImage (-j$jobs)"
make -s -C "$tree" O="$obj" -j"$jobs" bzImage
rm -rf "$kept"
mkdir -p "$kept"
cp "$obj/arch/x86/boot/bzImage" "$kept/bzImage"
cp "$obj/.config" "$kept/config"
make -s -C "$tree" O="$obj" kernelrelease >"$kept/release"
mkdir -p "$out"
for f in "${outputs[@]}"; do cp "$kept/$f" "$out/$f"; done

rm -f "$cache"/stock-kernel-"$series"-stamp-*
touch "$stamp"
log "done in $(( $(date +%s) - start )) s: $out/bzImage ($(cat "$out/release"))"
