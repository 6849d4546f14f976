#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Load with two XDP links, remove the pin directory (rm -r), load again at
# once, N times, in a network namespace of its own (run under unshare -n).
# Prints each failed load's last line and the counts.
# Usage: reload-after-remove.sh BPFKEYCTL_STOCK LINKED.o N
set -u
ctl=$1 obj=$2 n=$3
ip link add veth_tx type veth peer name veth_rx && ip link set veth_tx up &&
	ip link set veth_rx up || exit 1
pins=/sys/fs/bpf/bpfkeys-reload-$$
trap 'rm -rf "$pins"' EXIT
loaded=0 busy=0 other=0
for _ in $(seq "$n"); do
	if out=$("$ctl" load --xdp flip_one=veth_rx --xdp flip_two=veth_tx "$obj" "$pins" 2>&1); then
		loaded=$((loaded + 1))
	elif grep -q 'busy' <<<"$out"; then
		busy=$((busy + 1))
		tail -1 <<<"$out"
	else
		other=$((other + 1))
		tail -1 <<<"$out"
	fi
	rm -rf "$pins"
done
echo "reloads: $n, loaded $loaded, busy $busy, other errors $other"
