# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Sourced by the fuzz-smoke scripts: fuzz_sources BUILD TARGET... prints the C
# sources of each CMake library named (cmake/fuzz-sources.cmake writes them
# at configure time), one a line; fails naming the list when it is missing.
fuzz_sources() {
	local build=$1 target list
	shift
	for target in "$@"; do
		list=$build/fuzz-sources/$target.txt
		if [ ! -s "$list" ]; then
			echo "fuzz-smoke: error: $list is missing: configure $build with cmake first" >&2
			return 1
		fi
		cat "$list"
	done
}
