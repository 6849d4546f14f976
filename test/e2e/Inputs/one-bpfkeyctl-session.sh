#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One bpfkeyctl, alone in its directory (nothing to exec beside it), on the
# host's stock kernel with the resolved object the patched kernel loads:
# load probes the kernel and takes libbpfkeys' path, run, set and list work
# on the pins. The pin directory is this shell's own and goes at exit.
# Usage: one-bpfkeyctl-session.sh BPFKEYCTL RESOLVED.o
set -uo pipefail
ctl=$1 obj=$2
pins=/sys/fs/bpf/one-bpfkeyctl-$$
trap 'rm -rf "$pins"' EXIT
echo "== load"
"$ctl" load --set key_b=off "$obj" "$pins"; echo "exit $?"
echo "== run"
"$ctl" run "$pins"/progs/prog_one
echo "== set key_a=on"
"$ctl" set "$pins" key_a=on; echo "exit $?"
"$ctl" run "$pins"/progs/prog_one
echo "== list"
"$ctl" list "$pins"
echo "== load --kernel patched"
"$ctl" load --kernel patched "$obj" "$pins-patched" 2>&1 | tail -n 1; echo "exit ${PIPESTATUS[0]}"
