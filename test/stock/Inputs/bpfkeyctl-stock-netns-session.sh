#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bpfkeyctl-stock with an sk_lookup program on a netns link, in a network
# namespace of this session (run under `unshare -n`): load with --netns,
# flip from another process, then errors. The pins go at exit.
# Usage: bpfkeyctl-stock-netns-session.sh BPFKEYCTL_STOCK LINKED.o
set -uo pipefail
ctl=$1 obj=$2
pins=/sys/fs/bpf/bpfkeyctl-stock-netns-$$
trap 'rm -rf "$pins"' EXIT
ip link set lo up
echo "== load"
"$ctl" load --netns count_lookups=/proc/self/ns/net "$obj" "$pins"; echo "exit $?"
echo "== set"
"$ctl" set "$pins" mode_a=on; echo "exit $?"
ls "$pins/links"
echo "== errors"
"$ctl" load --netns count_lookups=/no/such/netns "$obj" "$pins.2"; echo "exit $?"
"$ctl" load --netns no_such_prog=/proc/self/ns/net "$obj" "$pins.3"; echo "exit $?"
"$ctl" load --netns count_lookups "$obj" "$pins.4"; echo "exit $?"
