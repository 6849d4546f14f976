#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# bpfkeyctl-stock list --json before and after a flip, each also written to
# OUTDIR/before.json and OUTDIR/after.json for a JSON parser.
# Usage: bpfkeyctl-stock-list-json-session.sh BPFKEYCTL_STOCK LINKED.o OUTDIR
set -uo pipefail
ctl=$1 obj=$2 out=$3
pins=/sys/fs/bpf/bpfkeyctl-stock-json-$$
trap 'rm -rf "$pins"' EXIT
"$ctl" load --set key_b=on "$obj" "$pins" > /dev/null || exit 1
echo "== before"
"$ctl" list --json "$pins" | tee "$out/before.json"
"$ctl" set "$pins" key_a=on > /dev/null || exit 1
echo "== after"
"$ctl" list --json "$pins" | tee "$out/after.json"
echo "== end"
