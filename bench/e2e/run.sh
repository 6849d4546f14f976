#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test), one qemu run of the patched kernel:
#  - per-run cost (BPF_PROG_TEST_RUN, REPEAT runs per measurement, default
#    1,000,000) of: no branch, a static branch with its key off, with its key
#    on, a `const volatile` flag, a map-lookup flag; ratios to no branch;
#  - flip cost: one bpf_object__set_static_key() for 1, 10, 100, 1000 sites
#    in 1 and in 10 programs.
# qemu runs under TCG here (no KVM): times are emulated, so compare the
# ratios, not the absolute numbers, and expect them to differ on hardware.
#
#   bench/e2e/run.sh [REPEAT]
# BENCH_SMOKE=1: the smallest run that prints every part (REPEAT 1000, flip
# objects of 1 and 10 sites in 1 and 2 programs), for test/bench.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
bin=$build/bin
site_counts=(1 10 100 1000) program_counts=(1 10)
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	repeat=${1:-1000} site_counts=(1 10) program_counts=(1 2)
else
	repeat=${1:-1000000}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/files"
cflags=(--target=bpf -O2 -g -mcpu=v4 -I"$repo/runtime-headers")

"$bin/clang" "${cflags[@]}" -c "$repo/bench/e2e/branches.c" -o "$work/branches.raw.o"
"$bin/bpfld" -o "$work/branches.linked.o" "$work/branches.raw.o"
"$bin/bpfkeys" resolve "$work/branches.linked.o" -o "$work/files/branches.o"
objs=()
for progs in "${program_counts[@]}"; do
	for sites in "${site_counts[@]}"; do
		name=flip_${sites}_${progs}
		python3 "$repo/bench/e2e/gen-sites.py" "$sites" "$progs" >"$work/$name.c"
		"$bin/clang" "${cflags[@]}" -c "$work/$name.c" -o "$work/$name.raw.o"
		"$bin/bpfld" -o "$work/$name.linked.o" "$work/$name.raw.o"
		"$bin/bpfkeys" resolve "$work/$name.linked.o" -o "$work/files/$name.o" 2>/dev/null
		objs+=("/files/$name.o")
	done
done
# qemu-run.sh runs /tests/* without arguments: a wrapper passes them.
cat >"$work/bench_e2e.c" <<EOC
#define main bench_main
#include "$repo/bench/e2e/bench_guest.c"
#undef main
int main(void)
{
	char *argv[] = { "bench", "$repeat", $(printf '"%s", ' "${objs[@]}") NULL };
	return bench_main(sizeof(argv) / sizeof(argv[0]) - 1, argv);
}
EOC
echo "bench/e2e: qemu TCG (emulated CPU; absolute times are not hardware times)"
BPFSK_QEMU_FILES=$work/files BPFSK_QEMU_TIMEOUT=${BPFSK_QEMU_TIMEOUT:-1800} \
	"$repo/scripts/qemu-run.sh" "$work/bench_e2e.c" | grep -av '^=== '
