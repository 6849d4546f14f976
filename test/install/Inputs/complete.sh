#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# complete.sh DIR COMMAND WORD...: sources DIR/COMMAND (an installed bash
# completion), completes the last WORD of "COMMAND WORD..." as bash would
# and prints the candidates sorted, on one line.
set -euo pipefail
dir=$1
shift
# shellcheck source=/dev/null
source "$dir/$1"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
spec=$(complete -p "$1")
func=${spec#*-F }
func=${func%% *}
"$func" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
echo
