// SPDX-License-Identifier: GPL-2.0
/*
 * Demo, object 2 of 2: a shared non-inlined function with a static branch on
 * a key defined in packet.c. Called from two programs, so after bpfkeys
 * resolve each program gets its own instance of debug_key covering this site.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DECLARE_STATIC_KEY_FALSE(debug_key);

__noinline int classify(int len)
{
	if (bpf_static_branch_unlikely(&debug_key))
		return 0;
	return len >= 14;
}
