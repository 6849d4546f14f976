#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# bpfkeyctl-stock with tracing programs: load attaches them by their
# sections, list says where, set (another process) flips them and their link
# pins follow, getppid(2) calls counted between; then an object whose
# kprobe section names no function. Run in a mount namespace of its own
# with tracefs mounted (libbpf finds tracepoint ids there). The pin
# directories are this shell's own and go at exit.
# Usage: bpfkeyctl-stock-tracing-session.sh BPFKEYCTL_STOCK TRACING.o KPROBE_NOWHERE.o CALLS
set -uo pipefail
ctl=$1 obj=$2 nowhere=$3 calls=$4
pins=/sys/fs/bpf/bpfkeyctl-stock-tracing-$$
trap 'rm -rf "$pins" "$pins.nowhere"' EXIT
mount -t tracefs tracefs /sys/kernel/tracing || exit 1
echo "== load"
"$ctl" load "$obj" "$pins"; echo "exit $?"
echo "== list"
"$ctl" list "$pins"
"$ctl" list --json "$pins"
echo "== calls"
"$calls" "$pins/maps/calls" 10
links_before=$(ls "$pins/links" | tr '\n' ' ')
echo "== set trace_key on"
"$ctl" set "$pins" trace_key=on; echo "exit $?"
"$calls" "$pins/maps/calls" 10
[ "$(ls "$pins/links" | tr '\n' ' ')" = "$links_before" ] && echo "link pins: the same names"
"$ctl" list "$pins" | grep '^link'
echo "== kprobe with no target"
"$ctl" load "$nowhere" "$pins.nowhere"; echo "exit $?"
ls "$pins.nowhere/meta" 2>/dev/null || echo "nothing pinned"
