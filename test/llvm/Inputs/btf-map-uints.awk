# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Prints the __uint() fields of each BTF-defined map in a raw BTF dump
# (`bpftool btf dump file X format raw`): a __uint(name, N) member is a
# pointer to an array of N ints, so follow member -> PTR -> ARRAY nr_elems.
# Output, one line per VAR of struct type: "<var>: <field>=<N> ..."
/^\[[0-9]+\] / {
	id = substr($1, 2, length($1) - 2)
	kind[id] = $2
	cur = id
	for (i = 3; i <= NF; i++) {
		if ($i ~ /^type_id=/) { t = $i; sub(/^type_id=/, "", t); sub(/,$/, "", t); ref[id] = t }
		if ($i ~ /^nr_elems=/) { n = $i; sub(/^nr_elems=/, "", n); elems[id] = n }
	}
	if ($2 == "VAR") { name = $3; gsub(/'/, "", name); vars[id] = name }
	nmem[id] = 0
	next
}
/^\t'/ {
	m = $1; gsub(/'/, "", m)
	t = $2; sub(/^type_id=/, "", t)
	k = ++nmem[cur]
	memname[cur, k] = m
	memtype[cur, k] = t
}
END {
	for (v in vars) {
		s = ref[v]
		if (kind[s] != "STRUCT")
			continue
		line = vars[v] ":"
		for (k = 1; k <= nmem[s]; k++) {
			p = memtype[s, k]
			if (kind[p] == "PTR" && kind[ref[p]] == "ARRAY")
				line = line " " memname[s, k] "=" elems[ref[p]]
		}
		print line
	}
}
