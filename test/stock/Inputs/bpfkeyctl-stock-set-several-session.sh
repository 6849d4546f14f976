#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Sets two keys with one bpfkeyctl-stock set, after a set that names a key
# the object lacks; prints the states and what each program returns after
# each. Usage: bpfkeyctl-stock-set-several-session.sh BPFKEYCTL_STOCK LINKED.o BPF_PROG_RUN
set -uo pipefail
ctl=$1 obj=$2 run=$3
pins=/sys/fs/bpf/bpfkeyctl-stock-several-$$
trap 'rm -rf "$pins"' EXIT
"$ctl" load --set key_b=off "$obj" "$pins" > /dev/null || exit 1
states() { "$ctl" list "$pins" | grep '^key '; "$run" "$pins"/progs/prog_one "$pins"/progs/prog_two; }
echo "== set key_a=on no_such_key=on"
"$ctl" set "$pins" key_a=on no_such_key=on; echo "exit $?"
states
echo "== set key_a=on key_b=on"
"$ctl" set "$pins" key_a=on key_b=on; echo "exit $?"
states
