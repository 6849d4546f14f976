#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Stands in for bpfkeyctl in examples/demo/stock-session.sh, so that the
# demo's stock half runs without the patched tree's libbpf: `run PIN` runs
# the pinned program once with DEMO_PINNED_RUN (pinned_run.c) and prints
# "retval N" as `bpfkeyctl run` does; every other command goes to
# DEMO_BPFKEYCTL_STOCK, where bpfkeyctl hands stock pins too.
set -euo pipefail
if [ "${1:-}" = run ]; then
	out=$("$DEMO_PINNED_RUN" "$2")
	echo "retval ${out##* = }"
else
	exec "$DEMO_BPFKEYCTL_STOCK" "$@"
fi
