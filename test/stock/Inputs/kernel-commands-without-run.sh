#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Prints the RUN lines of the given test files that start a program needing
# the kernel (a built test program, a session script, unshare, sh -c,
# bpfkeyctl-stock) without %run in front (every-kernel-command-runs-through-run.test).
grep -hE '^// RUN: +(not +)?(%t/(test|pinned_run)|%limit_memory|bash|env|unshare|sh -c|%bpfkeyctl-stock)' "$@"
