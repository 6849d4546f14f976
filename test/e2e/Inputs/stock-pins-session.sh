#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bpfkeyctl (patched libbpf) on the host's stock kernel, on pins that
# bpfkeyctl-stock made: set and list do what bpfkeyctl-stock does, run works on
# the pinned program as on the patched kernel. The pin directory is this
# shell's own and goes at exit.
# Usage: stock-pins-session.sh BPFKEYCTL BPFKEYCTL_STOCK LINKED.o
set -uo pipefail
ctl=$1 stock=$2 obj=$3
pins=/sys/fs/bpf/bpfkeyctl-handoff-$$
trap 'rm -rf "$pins"' EXIT
echo "== load"
"$stock" load --set key_b=off "$obj" "$pins" >/dev/null; echo "exit $?"
echo "== run"
"$ctl" run "$pins"/progs/prog_one
echo "== set key_a=on"
"$ctl" set "$pins" key_a=on; echo "exit $?"
"$ctl" run "$pins"/progs/prog_one
echo "== list"
"$ctl" list "$pins"
echo "== list --json"
"$ctl" list --json "$pins"
echo "== set no_such_key=on"
"$ctl" set "$pins" no_such_key=on; echo "exit $?"
