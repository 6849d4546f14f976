#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# check-debs.sh DEBDIR ROOT: for the .debs in DEBDIR, without changing the
# system: prints each package's name, version and files; extracts them all
# into ROOT (dpkg-deb -x); says whether apt would install them all on this
# system (`apt-get install --simulate`: their dependencies are satisfiable
# from the configured archive) and whether any of their files is already
# owned by an installed package (dpkg would refuse to overwrite it).
set -euo pipefail
debdir=$1 root=$2
mkdir -p "$root"
debs=("$debdir"/*.deb)
for deb in "${debs[@]}"; do
	echo "package: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print "file: " $6 }'
	dpkg-deb -x "$deb" "$root"
done
if apt-get install --simulate "${debs[@]}" > "$root.apt.log" 2>&1; then
	echo "apt: $(grep -c '^Inst ' "$root.apt.log") to install, $(grep -c '^Remv ' "$root.apt.log") to remove"
else
	echo "apt: error: the packages do not install:"
	cat "$root.apt.log"
fi
owned=0
for deb in "${debs[@]}"; do
	while read -r file; do
		if dpkg -S "$file" > /dev/null 2>&1; then
			echo "conflict: $file is owned by $(dpkg -S "$file" | cut -d: -f1)"
			owned=$((owned + 1))
		fi
	done < <(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }')
done
echo "files owned by installed packages: $owned"
