#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# check-spdx.sh [--list] REPO: every tracked source, script and build file
# names its licence on an SPDX-License-Identifier line in its first five
# lines, with one of the licences LICENSE describes (texts in LICENSES/).
# Prints each offender as "FILE: no SPDX line", "FILE: more than one SPDX
# line" or "FILE: unknown licence 'EXPR'" and fails; else prints the count. --list prints only the files
# without an SPDX line, one a line, and exits 0 (scripts/add-spdx.sh reads it).
# Not checked: patches (the files they add carry their SPDX lines in the
# diff), Markdown, LICENSE/LICENSES, binary test inputs, and the test command
# and CI entry point (scripts/test.sh, .ci/run), which are not to change.
set -euo pipefail
list_only=0
if [ "${1:-}" = --list ]; then
	list_only=1
	shift
fi
repo=${1:?usage: check-spdx.sh [--list] REPO}
cd "$repo"

# The SPDX expressions LICENSE describes, without parentheses.
allowed=(
	"LGPL-2.1 OR BSD-2-Clause"
	"GPL-2.0"
	"GPL-2.0-only"
	"GPL-2.0 WITH Linux-syscall-note"
	"GPL-2.0-only OR BSD-2-Clause"
	"Apache-2.0 WITH LLVM-exception"
)

# A file is a source, script or build file by its name, or by a "#!" line.
wanted() {
	case $1 in
	*.patch | *.md | LICENSE | LICENSES/* | test/fuzz-corpus/*) return 1 ;;
	# the test command and the CI entry point stay byte for byte as they are
	scripts/test.sh | .ci/run) return 1 ;;
	*.c | *.h | *.in | *.s | *.S | *.ll | *.test | *.sh | *.py | *.awk | *.cfg | \
		*.cmake | */CMakeLists.txt | CMakeLists.txt | *.fragment | .clang-format | .ci/run)
		return 0 ;;
	esac
	[ "$(head -c 2 "$1")" = "#!" ]
}

files=0
bad=0
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	wanted "$f" || continue
	# binary inputs (ELF objects, raw BTF) have no place for a comment
	grep -Iq . "$f" || continue
	files=$((files + 1))
	line=$(head -n 5 "$f" | grep -m1 -o 'SPDX-License-Identifier:.*' || true)
	if [ -z "$line" ]; then
		if [ $list_only = 1 ]; then
			printf '%s\n' "$f"
		else
			echo "$f: no SPDX line"
		fi
		bad=$((bad + 1))
		continue
	fi
	[ $list_only = 1 ] && continue
	# one licence statement: a repeated line is an edit gone wrong
	if [ "$(head -n 5 "$f" | grep -c 'SPDX-License-Identifier:')" -gt 1 ]; then
		echo "$f: more than one SPDX line"
		bad=$((bad + 1))
		continue
	fi
	expr=${line#SPDX-License-Identifier:}
	expr=${expr%%\*/*}
	expr=$(printf '%s' "$expr" | tr -d '()' | sed 's/^ *//; s/ *$//')
	ok=0
	for a in "${allowed[@]}"; do
		[ "$expr" = "$a" ] && ok=1
	done
	if [ $ok = 0 ]; then
		echo "$f: unknown licence '$expr'"
		bad=$((bad + 1))
	fi
done < <(git ls-files -z)

[ $list_only = 1 ] && exit 0
if [ $files -eq 0 ]; then
	echo "check-spdx: no files found under $repo" >&2
	exit 1
fi
if [ $bad -ne 0 ]; then
	echo "check-spdx: $bad of $files files without a known SPDX line" >&2
	exit 1
fi
echo "check-spdx: $files files carry an SPDX line"
