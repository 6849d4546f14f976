#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# mnemonic-header.sh DIR: writes DIR/bpf_static_keys.h, the runtime header
# with its two static branches written as the patched clang's mnemonics
# (gotol_or_nop, nop_or_gotol) instead of bytes, line for line (so line
# numbers in debug info stay the same). For comparing what the patched
# assembler encodes with the header's bytes; fails if the header no longer
# has exactly those two sites.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
mkdir -p "$1"
sed -e 's|^\(\t\t \)__BPF_STATIC_BRANCH(1)\t.*$|\1"gotol_or_nop %l[l_yes]\\n\\t"|' \
    -e 's|^\(\t\t \)__BPF_STATIC_BRANCH(3)\t.*$|\1"nop_or_gotol %l[l_yes]\\n\\t"|' \
	"$repo/runtime-headers/bpf_static_keys.h" >"$1/bpf_static_keys.h"
n=$(grep -c '^		 "\(gotol_or_nop\|nop_or_gotol\) %l\[l_yes\]\\n\\t"$' "$1/bpf_static_keys.h")
[ "$n" = 2 ] || { echo "mnemonic-header.sh: expected 2 sites in the header, replaced $n" >&2; exit 1; }
[ "$(wc -l <"$1/bpf_static_keys.h")" = "$(wc -l <"$repo/runtime-headers/bpf_static_keys.h")" ]
