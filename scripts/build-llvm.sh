#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Builds the patched clang, llc, llvm-mc and llvm-objdump (llvm-bpf-target/)
# and puts them in build/bin. Idempotent and cached:
#
#   - the llvm-toolchain-22 orig tarball is downloaded once into the cache
#     (BPFSK_CACHE, default /var/cache/bpfsk) and checked against its sha256;
#   - the finished tools are kept in the cache under a key that hashes every
#     input (tarball hash, patches, CMake files, this script, the versions of
#     the Debian LLVM packages linked against): a run with nothing changed
#     only links them into build/bin and takes well under a second;
#   - when the key changes, one persistent source tree and build directory
#     in the cache are updated file by file, so ninja recompiles only what a
#     patch touched.
#
# Environment: BPFSK_CACHE (cache dir), BPFSK_BUILD (default <repo>/build),
# BPFSK_JOBS (default: nproc), BPFSK_LLVM_FORCE=1 (rebuild even on a hit).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${BPFSK_CACHE:-/var/cache/bpfsk}/llvm
build=${BPFSK_BUILD:-$repo/build}
jobs=${BPFSK_JOBS:-$(nproc)}
target_dir=$repo/llvm-bpf-target

version=22.1.8
tarball=llvm-toolchain-22_$version.orig.tar.xz
tarball_sha256=b49b9277aef97616320b2da259e1f8174c65b0ce2fbe2e8629644a97693402fe
# The pool path of the orig tarball inside a Debian archive. `apt-get source`
# names it under the security archive, which answers 404; the main archive
# has it. The archives' base URLs come from apt's own configuration (every
# mirror or proxy this machine is set up with), never from this script.
tarball_pool_path=pool/main/l/llvm-toolchain-22/$tarball
top=llvm-toolchain-22_$version
# The only parts of the 197 MB tree the out-of-tree build compiles.
subtrees=(
	$top/llvm/lib/Target/BPF
	$top/clang/tools/driver
	$top/llvm/tools/llc
	$top/llvm/tools/llvm-mc
	$top/llvm/tools/llvm-objdump
	$top/llvm/cmake/modules/llvm-driver-template.cpp.in
	$top/llvm/test/MC/BPF
	$top/llvm/test/CodeGen/BPF
)
tools=(clang llc llvm-mc llvm-objdump)

log() { printf 'build-llvm: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9   # one build per cache at a time

# --- cache key --------------------------------------------------------------
inputs_key() {
	{
		echo "$tarball_sha256"
		(cd "$target_dir" && find patches cmake CMakeLists.txt -type f | LC_ALL=C sort |
			while read -r f; do echo "$f"; sha256sum <"$f"; done)
		sha256sum <"$repo/scripts/build-llvm.sh"
		dpkg-query -W -f='${Package} ${Version}\n' llvm-22-dev libclang-22-dev clang-22 \
			lld-22 2>/dev/null || true
	} | sha256sum | cut -c1-16
}
key=$(inputs_key)
install=$cache/install-$key

link_into_build() {
	mkdir -p "$build/bin" "$build/lib/clang"
	for t in "${tools[@]}"; do
		ln -sfn "$install/bin/$t" "$build/bin/$t"
	done
	ln -sfn "$install/llvm-test" "$build/llvm-test"
	# For a copy of build/bin/clang (which reads no clang.cfg): the
	# resource dir is found next to bin/.
	ln -sfn "$(readlink "$install/lib/clang/22")" "$build/lib/clang/22"
}

if [ -f "$install/.complete" ] && [ "${BPFSK_LLVM_FORCE:-0}" != 1 ]; then
	link_into_build
	log "up to date ($key): ${tools[*]} in $build/bin"
	exit 0
fi

start=$(date +%s)
# --- source -----------------------------------------------------------------
if [ ! -f "$cache/$tarball" ]; then
	mapfile -t archives < <(apt-get indextargets --format '$(REPO_URI)' | sort -u)
	[ "${#archives[@]}" -gt 0 ] || die "apt-get indextargets lists no archive (run apt-get update)"
	fetched=
	for archive in "${archives[@]}"; do
		url=${archive%/}/$tarball_pool_path
		log "downloading $url"
		if command -v curl >/dev/null; then
			curl -fsSL -o "$cache/$tarball.part" "$url" && fetched=1
		else
			wget -q -O "$cache/$tarball.part" "$url" && fetched=1
		fi
		[ -z "$fetched" ] || break
		log "not there; trying the next archive"
	done
	[ -n "$fetched" ] || die "$tarball_pool_path: in none of apt's archives (${archives[*]})"
	mv "$cache/$tarball.part" "$cache/$tarball"
fi
if ! echo "$tarball_sha256  $cache/$tarball" | sha256sum -c --status; then
	rm -f "$cache/$tarball"
	die "$tarball: sha256 mismatch (removed it; run again to download it afresh)"
fi

# Extract and patch into a staging tree, then copy into the persistent source
# tree only the files whose contents differ: unchanged files keep their
# mtimes and ninja does not rebuild them.
staging=$cache/staging
rm -rf "$staging"
mkdir -p "$staging"
log "extracting ${#subtrees[@]} subtrees of $tarball"
tar -C "$staging" -xJf "$cache/$tarball" "${subtrees[@]}"
for p in "$target_dir"/patches/*.patch; do
	[ -e "$p" ] || continue
	log "applying $(basename "$p")"
	patch -d "$staging/$top" -p1 -s --no-backup-if-mismatch -F0 <"$p" ||
		die "$(basename "$p") does not apply to $top"
done

# sync_tree FROM TO: make TO a copy of FROM, touching only changed files.
sync_tree() {
	mkdir -p "$2"
	(cd "$1" && find . -type f) | while read -r f; do
		if ! cmp -s "$1/$f" "$2/$f"; then
			mkdir -p "$(dirname "$2/$f")"
			cp "$1/$f" "$2/$f"
		fi
	done
	(cd "$2" && find . -type f) | while read -r f; do
		[ -e "$1/$f" ] || rm -f "$2/$f"
	done
}
src=$cache/src
sync_tree "$staging/$top" "$src"
rm -rf "$staging"
# The CMake project too: the build directory in the cache then never sees a
# different source directory, whichever clone runs this script.
project=$cache/project
sync_tree "$target_dir/cmake" "$project/cmake"
cp -p "$target_dir/CMakeLists.txt" "$project/CMakeLists.txt.new"
if cmp -s "$project/CMakeLists.txt.new" "$project/CMakeLists.txt"; then
	rm "$project/CMakeLists.txt.new"
else
	mv "$project/CMakeLists.txt.new" "$project/CMakeLists.txt"
fi

# --- build ------------------------------------------------------------------
objdir=$cache/build
cc=${CC:-clang-22}
cxx=${CXX:-clang++-22}
if [ -f "$objdir/CMakeCache.txt" ] &&
   ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$project" "$objdir/CMakeCache.txt"; then
	rm -rf "$objdir"   # configured from elsewhere: start afresh
fi
log "configuring ($objdir)"
cmake -S "$project" -B "$objdir" -G Ninja \
	-DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
	-DLLVM_SOURCE_TREE="$src" \
	-DCMAKE_INSTALL_PREFIX="$install.tmp" >"$cache/cmake.log" 2>&1 ||
	{ tail -30 "$cache/cmake.log" >&2; die "cmake failed (log: $cache/cmake.log)"; }
log "building with ninja -j$jobs"
ninja -C "$objdir" -j "$jobs" bpfsk_clang bpfsk_llc bpfsk_llvm-mc bpfsk_llvm-objdump
rm -rf "$install.tmp"
cmake --install "$objdir" >/dev/null
# The BPF tests of the patched tree, upstream's and the series', kept with the
# tools built from it: test/llvm/Patches runs them.
mkdir -p "$install.tmp/llvm-test"
cp -R "$src/llvm/test/MC" "$src/llvm/test/CodeGen" "$install.tmp/llvm-test/"
touch "$install.tmp/.complete"
rm -rf "$install"
mv "$install.tmp" "$install"

# Keep the two most recent builds of the tools, drop older ones (~300 MB each).
for old in $(ls -1dt "$cache"/install-* 2>/dev/null | grep -v '\.tmp$' | tail -n +3); do
	rm -rf "$old"
done

link_into_build
log "built $key in $(( $(date +%s) - start )) s: ${tools[*]} in $build/bin"
