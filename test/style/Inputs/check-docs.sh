#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# check-docs.sh REPO: every Markdown file of the repository (the tracked
# *.md files, or every *.md outside build*/ where REPO is not a git work
# tree of its own) is written for its readers: it names no issue-tracker
# numbers ("issue 12", "issues 3-5", "#12"), no team process (engineers,
# agents, helpers, sessions, who measured what), no dates of runs
# (2026-12-07) or measurement diaries ("perf3", "load average"), and no path
# outside the repository (../shared/); and every relative Markdown link in
# it points to a file or directory that exists.
# Not checked: LICENSES/ (licence texts quoted as published), the version
# headings of CHANGELOG.md (a release may carry its date), a "#N" inside
# code (assembly immediates) and a "[#N](https://...)" link (an upstream
# project's tracker, cited with its address).
# Prints each offence as FILE:LINE: what, and fails; else the count.
set -euo pipefail
repo=${1:?usage: check-docs.sh REPO}
cd "$repo"

docs=()
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	while IFS= read -r -d '' f; do
		docs+=("$f")
	done < <(git ls-files -z -- '*.md' ':!:LICENSES/*')
else
	while IFS= read -r -d '' f; do
		docs+=("${f#./}")
	done < <(find . \( -path './build*' -o -path './.git' -o -path './LICENSES' \) -prune -o \
		-name '*.md' -print0 | sort -z)
fi
if [ ${#docs[@]} -eq 0 ]; then
	echo "check-docs: no documentation found under $repo" >&2
	exit 1
fi

bad=0
# Each pattern: an extended regex (case-insensitive), a tab, what the offence
# is called. The "#N" and date patterns look at prose only (see prose()).
patterns=(
	$'\\bissues? #?[0-9]+\tan issue number'
	$'\\b(engineers?|agents?)\\b\tteam process'
	$'\\b(other|parallel|another|the) helpers\\b|\\bhelper (engineer|session|agent)s?\\b\tteam process'
	$'\\b(this|that|another|other|previous|next|earlier|every|each) session\\b|\\bsessions\\b|\\bsession\'s\\b\tteam process'
	$'\\bwho measured\\b\tteam process'
	$'\\bload average\\b|\\bclosing note\tteam process or a measurement diary'
	$'\\bperf[0-9]+\\b\ta measurement diary'
	$'\\.\\./shared/\ta path outside the repository'
)
prose_patterns=(
	$'(^|[^[:alnum:]&/_`-])#[0-9]+\\b\tan issue number'
	$'\\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\\b\ta date of a run'
)

# prose FILE: the file's lines as LINE:TEXT without fenced code blocks,
# inline code spans and "[#N](URL)" citations; in CHANGELOG.md without its
# headings.
prose() {
	awk -v changelog="$([ "$(basename "$1")" = CHANGELOG.md ] && echo 1)" '
		/^[[:space:]]*(```|~~~)/ { fence = !fence; next }
		fence { next }
		changelog && /^#/ { next }
		{
			gsub(/`[^`]*`/, "")
			gsub(/\[#[0-9]+\]\([a-z]+:\/\/[^)]*\)/, "")
			print NR ":" $0
		}' "$1"
}

# offences FILE: each offence in FILE as FILE:LINE: what: text.
offences() {
	local f=$1 p line target dir
	for p in "${patterns[@]}"; do
		grep -niE "${p%%$'\t'*}" "$f" | sed "s|^|$f:|; s|^\([^:]*:[0-9]*\):|\1: ${p#*$'\t'}: |" || true
	done
	for p in "${prose_patterns[@]}"; do
		prose "$f" | grep -iE "^[0-9]+:.*${p%%$'\t'*}" | while IFS=: read -r line _; do
			echo "$f:$line: ${p#*$'\t'}: $(sed -n "${line}p" "$f")"
		done || true
	done
	# Relative links: [text](target) and [text]: target, without a scheme or
	# a bare #anchor; the #anchor part of a target is not checked.
	dir=$(dirname "$f")
	while IFS=: read -r line target; do
		target=${target%%#*}
		target=${target%% *}
		[ -n "$target" ] || continue
		case $target in
		*://* | mailto:*) continue ;;
		esac
		[ -e "$dir/$target" ] || echo "$f:$line: link to a missing file '$target'"
	done < <(grep -noE '\]\([^)[:space:]]+(\s+"[^"]*")?\)' "$f" |
		sed -E 's/^([0-9]+):\]\(([^)[:space:]]+).*/\1:\2/' || true)
}

for f in "${docs[@]}"; do
	# In line order; the offences of one line in the order above.
	while IFS= read -r offence; do
		echo "$offence"
		bad=$((bad + 1))
	done < <(offences "$f" | sort -t: -k2,2n -s)
done
if [ $bad -ne 0 ]; then
	echo "check-docs: $bad problem(s) in ${#docs[@]} files" >&2
	exit 1
fi
echo "check-docs: ${#docs[@]} files checked"
