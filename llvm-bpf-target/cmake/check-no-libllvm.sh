#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Fails when a tool would load Debian's shared LLVM or clang libraries next to
# the static ones it is linked with (a second LLVM, stock BPF backend included).
if readelf -d "$1" | grep -E 'NEEDED.*(libLLVM|libclang-cpp)'; then
	echo "error: $1 loads libLLVM.so/libclang-cpp.so; link static components only" >&2
	exit 1
fi
