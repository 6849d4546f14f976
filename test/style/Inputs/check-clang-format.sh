#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# check-clang-format.sh REPO: the user-space C of the tools (elfobj, bpfkeys,
# linker, libbpfkeys, tools, the bench generators, the mutation campaign, the
# stock tests) passes the tree's .clang-format. Pinned to clang-format 22 (the
# version the tree was formatted with, scripts/install-deps.sh installs it):
# another major version formats some constructs differently. Not checked: the
# BPF-side inputs (Inputs/, test/llvm), test/e2e and test/kernel (built only
# with the guest), runtime-headers, kernel-patches, llvm-bpf-target.
set -euo pipefail
repo=$1
clang_format=clang-format-22
version=$("$clang_format" --version)
case $version in
*" version 22."*) ;;
*) echo "check-clang-format: $clang_format is '$version', not clang-format 22" >&2; exit 1 ;;
esac
cd "$repo"
mapfile -t files < <(git ls-files -- 'elfobj/*.[ch]' 'bpfkeys/*.[ch]' 'linker/*.[ch]' \
	'libbpfkeys/*.[ch]' 'tools/*.[ch]' bench/bpfkeys/gen.c bench/stock-flip/flip_latency.c \
	test/mutation/campaign.c 'test/stock/*.c' | grep -v '/Inputs/')
if [ ${#files[@]} -eq 0 ]; then
	echo "check-clang-format: no files found under $repo" >&2
	exit 1
fi
# --dry-run --Werror: prints every line that would change and fails
"$clang_format" --style=file --dry-run --Werror "${files[@]}"
echo "check-clang-format: ${#files[@]} files formatted"
