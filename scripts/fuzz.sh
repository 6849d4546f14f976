#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Random, time-boxed fuzzing of both tools' readers and of libbpfkeys' open
# and lower path (not part of the gate: scripts/test.sh runs the same targets
# deterministically). Run it before a
# submission; a crash input is left in build/fuzz/*/ (artifacts): fix the bug,
# add a lit test, and copy the input into test/fuzz-corpus/ (see its README).
#
#   scripts/fuzz.sh [SECONDS_PER_TOOL]      (default 300)
#
# Needs the tools built first (scripts/test.sh, or cmake --build build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export FUZZ_SECONDS=${1:-300}
rc=0
"$repo/test/bpfkeys/fuzz-smoke.sh" || rc=1
"$repo/test/linker/fuzz-smoke.sh" || rc=1
"$repo/test/libbpfkeys/fuzz-smoke.sh" || rc=1
exit $rc
