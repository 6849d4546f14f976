#!/usr/bin/env bash
# Builds the kernel series with the pending patches on top (each
# kernel-patches/pending/*.patch applied after kernel-patches/*.patch, in
# name order) and runs the pending tests on it in qemu, from a scratch copy
# of this repository: the repository's own kernel-patches/ and test/kernel/
# stay as they are, and so does the kernel main's tests run on.
#
#   kernel-patches/pending/run-tests.sh [--all] [LIT ARGS...]
#
# Runs kernel-patches/pending/tests/*.c (copied into the copy's test/kernel/,
# whose lit configuration and headers they use); with --all, the whole
# test/kernel suite of the copy too (main's tests on the pending kernel).
#
# Environment: BPFSK_CACHE, the kernel cache (default
# $HOME/.cache/bpfsk-pending; do not point it at a cache others build main's
# series in: the build switches the cached tree to the series it builds),
# BPFSK_PENDING_WORK, the scratch copy (default $TMPDIR/bpfsk-pending, kept
# between runs so that builds are incremental), BPFSK_ARCH (x86_64 or arm64,
# as for scripts/build-kernel.sh and the lit suites).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${BPFSK_PENDING_WORK:-${TMPDIR:-/tmp}/bpfsk-pending}
export BPFSK_CACHE=${BPFSK_CACHE:-$HOME/.cache/bpfsk-pending}
arch=${BPFSK_ARCH:-x86_64}
all=0
if [ "${1:-}" = --all ]; then
	all=1
	shift
fi

log() { printf 'pending: %s\n' "$*" >&2; }

log "copying $repo to $work"
mkdir -p "$work"
(cd "$repo" && git ls-files -co --exclude-standard | tar -cf - -T -) | (cd "$work" && tar -xf -)
# the series as it will be once the pending patches are merged
cp "$repo"/kernel-patches/pending/*.patch "$work/kernel-patches/"
cp "$repo"/kernel-patches/pending/tests/*.[ch] "$work/test/kernel/"

log "building the kernel ($arch) with $(ls "$repo"/kernel-patches/pending/*.patch | wc -l) pending patch(es)"
BPFSK_ARCH=$arch "$work/scripts/build-kernel.sh"

tests=()
for t in "$repo"/kernel-patches/pending/tests/*.c; do
	tests+=("$work/test/kernel/$(basename "$t")")
done
[ $all = 0 ] || tests=("$work/test/kernel")
/usr/lib/llvm-22/bin/lit -v --param arch="$arch" "$@" "${tests[@]}"
