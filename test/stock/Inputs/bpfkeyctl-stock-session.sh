#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A bpfkeyctl-stock session on the host kernel: load and pin the linked
# end-to-end object, list, run both programs through their pins, flip
# key_a, run again, errors. The pin directory is this shell's own and goes
# at exit. Usage: bpfkeyctl-stock-session.sh BPFKEYCTL_STOCK LINKED.o BPF_PROG_RUN
set -uo pipefail
ctl=$1 obj=$2 run=$3
pins=/sys/fs/bpf/bpfkeyctl-stock-$$
trap 'rm -rf "$pins"' EXIT
echo "== load"
"$ctl" load --set key_b=off "$obj" "$pins"
echo "== list"
"$ctl" list "$pins"
echo "== run"
"$run" "$pins"/progs/prog_one "$pins"/progs/prog_two
echo "== set key_a on"
"$ctl" set "$pins" key_a=on
"$run" "$pins"/progs/prog_one "$pins"/progs/prog_two
echo "== set key_b on"
"$ctl" set "$pins" key_b=on
"$run" "$pins"/progs/prog_one "$pins"/progs/prog_two
echo "== list"
"$ctl" list "$pins"
echo "== errors"
"$ctl" set "$pins" no_such_key=on; echo "exit $?"
"$ctl" set "$pins" key_a=maybe; echo "exit $?"
"$ctl" set "$pins" key_a on; echo "exit $?"
"$ctl" set /sys/fs/bpf/no-such-pins key_a=on; echo "exit $?"
"$ctl" load "$obj" "$pins"; echo "exit $?"
"$ctl" frobnicate; echo "exit $?"
