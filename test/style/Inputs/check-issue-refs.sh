#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# check-issue-refs.sh REPO: no tracked file outside the Markdown (which
# check-docs.sh reads with its own rules) names an issue-tracker number
# ("issue 12", "issues 3-5", "issue #12") in a comment, a message or a test:
# a comment says what the thing is. Not read: the patch series (*.patch: their
# commit messages cite upstream trackers, as sent upstream), LICENSES/ and
# test/style/ (the checkers' tests hold the phrases they must flag).
# Prints each as FILE:LINE: an issue number: text, and fails; else the count.
set -euo pipefail
repo=${1:?usage: check-issue-refs.sh REPO}
cd "$repo"
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$(pwd -P)" ]; then
	echo "check-issue-refs: $repo is not the top of a git work tree" >&2
	exit 1
fi
files=$(git ls-files -- ':!:*.md' ':!:*.patch' ':!:LICENSES/*' ':!:test/style/*' | wc -l)
bad=0
while IFS=: read -r file line text; do
	[ -n "$file" ] || continue
	echo "$file:$line: an issue number: $text"
	bad=$((bad + 1))
done < <(git grep -I -n -i -E '\bissues? #?[0-9]+' -- ':!:*.md' ':!:*.patch' ':!:LICENSES/*' \
	':!:test/style/*' || true)
if [ $bad -ne 0 ]; then
	echo "check-issue-refs: $bad issue number(s) in $files files" >&2
	exit 1
fi
echo "check-issue-refs: $files files checked"
