#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# add-spdx.sh [REPO]: gives every tracked source, script and build file that
# has no SPDX-License-Identifier line one (the files test/style's check-spdx.sh
# lists), in the file's comment syntax: after a "#!" line, else first. Files
# that already have one are left alone, so running it again changes nothing.
# The licence is the one the file's part of the tree already uses (LICENSE):
# GPL-2.0 for the kernel side (the kernel configuration fragments, the guest
# tests and the BPF programs that use GPL-only helpers), else the tools' and
# libraries' LGPL-2.1 OR BSD-2-Clause.
set -euo pipefail
repo=${1:-$(git rev-parse --show-toplevel)}
cd "$repo"

licence_of() {
	case $1 in
	kernel-patches/* | test/kernel/* | test/e2e/* | test/stock/Inputs/* | \
		examples/demo/* | bench/e2e/* | bench/flip-batch/* | bench/stock-flip/*)
		echo "GPL-2.0" ;;
	*) echo "(LGPL-2.1 OR BSD-2-Clause)" ;;
	esac
}

comment_of() {
	local id="SPDX-License-Identifier: $2"
	case $1 in
	*.c) echo "// $id" ;;
	*.h | *.in) echo "/* $id */" ;;
	*.ll) echo "; $id" ;;
	*) echo "# $id" ;;
	esac
}

n=0
while IFS= read -r f; do
	line=$(comment_of "$f" "$(licence_of "$f")")
	tmp=$(mktemp "$f.spdx.XXXXXX")
	if [ "$(head -c 2 "$f")" = "#!" ]; then
		{ head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } > "$tmp"
	else
		{ printf '%s\n' "$line"; cat "$f"; } > "$tmp"
	fi
	chmod --reference="$f" "$tmp"
	mv "$tmp" "$f"
	n=$((n + 1))
done < <(bash test/style/Inputs/check-spdx.sh --list .)
echo "add-spdx: $n files given an SPDX line"
