#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# check-docs.sh REPO: the user documentation (README.md, CONTRIBUTING.md,
# docs/*.md, kernel-patches/README.md) is written for its readers: it names
# no issue-tracker numbers ("issue 12", "issues 3-5", "#12") and no team
# process (engineers, agents, helpers, sessions, who measured what) and no
# path outside the repository (../shared/), and
# every relative Markdown link in it points to a file or directory that
# exists. Prints each offence as FILE:LINE: what, and fails; else the count.
set -euo pipefail
repo=${1:?usage: check-docs.sh REPO}
cd "$repo"

docs=()
for f in README.md CONTRIBUTING.md kernel-patches/README.md; do
	[ -f "$f" ] && docs+=("$f")
done
while IFS= read -r -d '' f; do
	docs+=("$f")
done < <(find docs -name '*.md' -print0 2>/dev/null | sort -z)
if [ ${#docs[@]} -eq 0 ]; then
	echo "check-docs: no documentation found under $repo" >&2
	exit 1
fi

bad=0
# Issue numbers and team process: an extended regex (case-insensitive), a tab,
# what the offence is called.
patterns=(
	$'\\bissues? #?[0-9]+\tan issue number'
	$'(^|[^[:alnum:]&/_`-])#[0-9]+\\b\tan issue number'
	$'\\b(engineers?|agents?)\\b\tteam process'
	$'\\b(other|parallel|another|the) helpers\\b|\\bhelper (engineer|session|agent)s?\\b\tteam process'
	$'\\b(this|that|another|other|previous|next|earlier|every|each) session\\b|\\bsessions\\b|\\bsession\'s\\b\tteam process'
	$'\\bwho measured\\b\tteam process'
	$'\\bload average\\b|\\bclosing note\tteam process or a measurement diary'
	$'\\.\\./shared/\ta path outside the repository'
)
for f in "${docs[@]}"; do
	for p in "${patterns[@]}"; do
		re=${p%%$'\t'*}
		name=${p#*$'\t'}
		while IFS=: read -r line text; do
			[ -n "$line" ] || continue
			echo "$f:$line: $name: $text"
			bad=$((bad + 1))
		done < <(grep -niE "$re" "$f" || true)
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
		if [ ! -e "$dir/$target" ]; then
			echo "$f:$line: link to a missing file '$target'"
			bad=$((bad + 1))
		fi
	done < <(grep -noE '\]\([^)[:space:]]+(\s+"[^"]*")?\)' "$f" |
		sed -E 's/^([0-9]+):\]\(([^)[:space:]]+).*/\1:\2/' || true)
done
if [ $bad -ne 0 ]; then
	echo "check-docs: $bad problem(s) in ${#docs[@]} files" >&2
	exit 1
fi
echo "check-docs: ${#docs[@]} files checked"
