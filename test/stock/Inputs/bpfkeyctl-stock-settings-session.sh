#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# bpfkeyctl-stock load with settings before load, on the host kernel: global
# variables of .rodata, .data, .bss and .data.tag and a map size, the pinned
# program's result and the maps after load and after a flip by `set`. The
# pin directory is this shell's own and goes at exit.
# Usage: bpfkeyctl-stock-settings-session.sh BPFKEYCTL_STOCK LINKED.o BPF_PROG_RUN
set -uo pipefail
ctl=$1 obj=$2 run=$3
pins=/sys/fs/bpf/bpfkeyctl-stock-settings-$$
trap 'rm -rf "$pins"' EXIT
show_maps() {
	bpftool map show pinned "$pins"/maps/slots | grep -o 'max_entries [0-9]*'
	bpftool map dump pinned "$pins"/maps/linked:rodata | grep -o '"filter_value": [0-9]*'
	bpftool map dump pinned "$pins"/maps/:data:tag | grep -o '"tag": "[^"]*"'
}
echo "== load"
"$ctl" load --set-global filter_value=7 --set-global data_add=0x10 --set-global bss_start=100 \
	--set-global tag=xdp --max-entries slots=64 "$obj" "$pins" || exit 1
"$run" "$pins"/progs/filter
show_maps
echo "== set debug_key on"
"$ctl" set "$pins" debug_key=on || exit 1
"$run" "$pins"/progs/filter
show_maps
