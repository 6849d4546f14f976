#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test), one qemu run of the patched kernel: the cost of
# flipping a static key with 1, 10, 100, 1000 sites in each of 1 and 10
# programs, the old way (one BPF_STATIC_KEY_UPDATE per program, one
# text_poke_bp() per site: flags bit 31, a debug knob of kernels built with
# CONFIG_BPF_STATIC_KEY_DEBUG as the test config is), one call per
# program with its sites batched, and one call for all programs (map_fds:
# one text poke batch). See flip_batch_guest.c for what is timed.
# qemu runs under TCG here (no KVM): times are emulated, so compare the
# ratios, not the absolute numbers, and expect them to differ on hardware.
#
#   bench/flip-batch/run.sh            # 1 vCPU
#   BPFSK_QEMU_SMP=2 bench/flip-batch/run.sh
#   BENCH_SMOKE=1 bench/flip-batch/run.sh   # one round of 2 flips: the table, no numbers to trust
# (needs scripts/build-kernel.sh first; BPFSK_BUILD: the build, default build/ as scripts/demo.sh makes it; scripts/test.sh's is build-asan/)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$repo/bench/flip-batch/flip_batch_guest.c
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	printf '#define FLIP_BATCH_SMOKE 1\n#include "%s"\n' "$guest" >"$work/flip_batch_smoke.c"
	guest=$work/flip_batch_smoke.c
fi
smp=${BPFSK_QEMU_SMP:-1}
echo "bench/flip-batch: qemu TCG, $smp vCPU(s) (emulated CPU; absolute times are not hardware times)"
# with 2 vCPUs, single-threaded TCG as in the SMP tests
if [ "$smp" -gt 1 ]; then export BPFSK_QEMU_TCG_THREAD=${BPFSK_QEMU_TCG_THREAD:-single}; fi
BPFSK_QEMU_SMP=$smp BPFSK_QEMU_TIMEOUT=${BPFSK_QEMU_TIMEOUT:-1800} \
	"$repo/scripts/qemu-run.sh" "$guest" | grep -av '^=== '
