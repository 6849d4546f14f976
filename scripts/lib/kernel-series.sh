# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced by scripts/build-kernel.sh and scripts/upstream-suites-build.sh: the
# kernel series in kernel-patches/, and switching an extracted linux-source
# tree from one series (or none) to another. Both scripts hash this file into
# their cache keys.
#
# The caller sets "tree" (the linux-source-6.12 directory) and "pkg_version",
# and defines log, die, and extract (re-extracts the tarball into a fresh
# $tree with an empty $tree/.bpfsk-applied/). The series applied to $tree is
# the copy of its patches kept in $tree/.bpfsk-applied/.

# series_patches DIR: sets the array "patches" to DIR's *.patch files in name
# order, without 0000-cover-letter.patch (it introduces the series and holds
# no change).
series_patches() {
	mapfile -t patches < <(find "$1" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' | LC_ALL=C sort)
	[ ${#patches[@]} -gt 0 ] || die "no patches in $1"
}

# series_hash PATCH...: the name of a series in stamps and in applied_hash.
series_hash() {
	cat "$@" | sha256sum | cut -c1-16
}

# applied_hash: series_hash of the series applied to $tree, or "none".
applied_hash() {
	local f=("$tree"/.bpfsk-applied/*.patch)
	[ -e "${f[0]}" ] || { echo none; return; }
	series_hash "${f[@]}"
}

# switch_series WANT MTIMES: brings $tree to WANT, "none" (the tree as
# Debian ships it) or the series_hash of "${patches[@]}" (that series). The
# old series is reversed (from a fresh extraction if it does not reverse) and
# the new one applied. Content and mtime of every file either series touches
# are recorded in the file MTIMES first, and the files whose content ends up
# as it was get their mtime back, so that make only rebuilds what really
# changed.
switch_series() {
	local want=$1 mtimes=$2 have p old=("$tree"/.bpfsk-applied/*.patch)
	have=$(applied_hash)
	[ "$have" != "$want" ] || return 0
	[ -e "${old[0]}" ] || old=()
	(cd "$tree" && cat "${old[@]}" "${patches[@]}" | sed -n 's|^+++ b/||p' | sort -u |
		while read -r f; do
			if [ -f "$f" ]; then
				printf '%s %s %s\n' "$(sha256sum <"$f" | cut -c1-64)" \
					"$(stat -c %Y "$f")" "$f"
			fi
		done) >"$mtimes"
	if [ "$have" != none ]; then
		log "reversing the applied series"
		for p in $(ls "$tree"/.bpfsk-applied/*.patch | LC_ALL=C sort -r); do
			if ! patch -d "$tree" -p1 -R -s -f --no-backup-if-mismatch <"$p" >/dev/null; then
				log "reverse failed: starting from a fresh tree"
				extract
				break
			fi
		done
		rm -f "$tree"/.bpfsk-applied/*.patch
	fi
	if [ "$want" != none ]; then
		for p in "${patches[@]}"; do
			log "applying $(basename "$p")"
			patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$p" ||
				die "$(basename "$p") does not apply to linux-source $pkg_version"
			cp "$p" "$tree/.bpfsk-applied/"
		done
	fi
	(cd "$tree" && while read -r sum mtime f; do
		if [ -f "$f" ] && [ "$(sha256sum <"$f" | cut -c1-64)" = "$sum" ]; then
			touch -d "@$mtime" "$f"
		fi
	done) <"$mtimes"
}
